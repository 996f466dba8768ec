// `ledger entropy`: the aggregator alone, serving the same REST contract as the node's
// built-in one. `--source self-hosted` alone serves this machine's entropy as `self-hosted`.
//
//   runEntropyServer({ host, port, network, sources, minQuorum, settings, logger })
//
// host '127.0.0.1', port 8420, network 'testnet' (whose trust list the sources must satisfy),
// sources/minQuorum as in the plugin config (null or absent: the network's defaults), settings:
// any other key of the plugin config section (poolCapacity, fetchTimeoutMs, beacons, selfHosted …).
import { watchForStop } from '../../core/kernel/lifecycle.ts'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { ConfigError, validateSection } from '../../core/kernel/config.ts'
import { createLogger } from '../../core/kernel/logger.ts'
import type { NetworkName } from '../../core/chain/params.ts'
import { networkParams } from '../../config/networks.ts'
import { configSchema, planSources, PLUGIN_NAME } from './config.ts'
import type { EntropyAggregatorConfig, SupportedSource } from './config.ts'
import { createAggregator } from './factory.ts'
import type { AggregatorSettings } from './factory.ts'
import { buildEntropyServer } from './server.ts'
import type { EntropyAggregator } from './aggregator.ts'

export interface EntropyServerOptions {
  host?: string
  port?: number
  network?: NetworkName
  sources?: string[] | null
  minQuorum?: number | null
  settings?: Partial<AggregatorSettings>
  logger?: Logger
}

export interface RunningEntropyServer {
  app: FastifyInstance
  aggregator: EntropyAggregator
  host: string
  port: number
  url: string
  close(): Promise<void>
}

/** Validates the options like the plugin section (ConfigError naming the key), listens, warms up. */
export async function startEntropyServer (o: EntropyServerOptions = {}): Promise<RunningEntropyServer> {
  const network = o.network ?? 'testnet'
  const params = networkParams(network)
  const section = validateSection(PLUGIN_NAME, configSchema, {
    ...o.settings,
    host: o.host ?? '127.0.0.1',
    port: o.port ?? 8420,
    sources: o.sources === undefined || (o.sources !== null && o.sources.length === 0) ? null : o.sources,
    minQuorum: o.minQuorum ?? null
  }) as unknown as EntropyAggregatorConfig
  const plan = planSources(section.sources as SupportedSource[] | null, section.minQuorum, params)
  const logger = o.logger ?? createLogger('info')
  const aggregator = createAggregator(plan, section, params, logger)
  const app = buildEntropyServer({ aggregator, logger, waitMs: section.requestWaitMs })
  try {
    await app.listen({ host: section.host, port: section.port })
  } catch (err) {
    await aggregator.stop()
    const code = (err as NodeJS.ErrnoException).code
    // `ledger entropy` moves its listener with --port; say so in one line, like `ledger run`
    if (code === 'EADDRINUSE') throw new ConfigError(`the entropy server cannot listen on ${section.host}:${section.port}: address already in use (another node or program holds it; pick another port with --port)`, { cause: err })
    throw err
  }
  const port = (app.server.address() as AddressInfo).port
  await aggregator.start(section.warmupMs)
  const url = `http://${section.host.includes(':') ? `[${section.host}]` : section.host}:${port}`
  logger.info({ url, network, sources: plan.sources, minQuorum: plan.minQuorum, status: aggregator.status, reason: aggregator.reason }, 'entropy server listening')
  return {
    app,
    aggregator,
    host: section.host,
    port,
    url,
    async close () {
      await app.close()
      await aggregator.stop()
    }
  }
}

/** startEntropyServer, then closes cleanly on SIGINT / SIGTERM / SIGHUP or when the process
 *  that started it (npx) exits, and exits. For the CLI. */
export async function runEntropyServer (o: EntropyServerOptions = {}): Promise<RunningEntropyServer> {
  const server = await startEntropyServer(o)
  let closing = false
  const shutdown = (): void => {
    if (closing) return
    closing = true
    const hard = setTimeout(() => process.exit(1), 5000)
    hard.unref()
    server.close().then(() => process.exit(0), () => process.exit(1))
  }
  watchForStop(shutdown)
  return server
}
