// `ledger entropy`: the aggregator alone, serving the same REST contract as the node's
// built-in one. `--source self-hosted` alone serves this machine's entropy as `self-hosted`.
//
//   runEntropyServer({ host, port, network, sources, minQuorum, settings, logger })
//
// host '127.0.0.1', port 8420, network 'testnet' (whose trust list the sources must satisfy),
// sources/minQuorum as in the plugin config (null or absent: the network's defaults), settings:
// any other key of the plugin config section (poolCapacity, fetchTimeoutMs, beacons, selfHosted …).
//
// It is a kernel of two plugins, `http` (whose service builds the server; it opens no public
// port, since nothing serves on it) and this one, with no data dir.
import type { Logger } from 'pino'
import { watchForStop } from '../../core/kernel/lifecycle.ts'
import { installFaultPolicy } from '../../core/kernel/fault-policy.ts'
import { ConfigError, resolveConfig } from '../../core/kernel/config.ts'
import { Kernel } from '../../core/kernel/kernel.ts'
import { createLogger } from '../../core/kernel/logger.ts'
import type { NetworkName } from '../../core/chain/params.ts'
import { PLUGIN_NAME } from './config.ts'
import type { AggregatorSettings } from './factory.ts'
import type { EntropyAggregator } from './aggregator.ts'
import { AggregatorEntropyProvider } from './provider.ts'

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
  aggregator: EntropyAggregator
  host: string
  port: number
  url: string
  close(): Promise<void>
}

/** Validates the options like the plugin section (ConfigError naming the key), listens, warms up. */
export async function startEntropyServer (o: EntropyServerOptions = {}): Promise<RunningEntropyServer> {
  const network = o.network ?? 'testnet'
  const section = {
    ...o.settings,
    host: o.host ?? '127.0.0.1',
    port: o.port ?? 8420,
    sources: o.sources === undefined || (o.sources !== null && o.sources.length === 0) ? null : o.sources,
    minQuorum: o.minQuorum ?? null
  }
  const config = resolveConfig({ network, plugins: ['http', PLUGIN_NAME], [PLUGIN_NAME]: section })
  const logger = o.logger ?? createLogger('info')
  const kernel = new Kernel(config, logger, undefined, { dataDir: false })
  try {
    await kernel.boot()
    await kernel.start()
  } catch (err) {
    await kernel.stop()
    const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code
    // `ledger entropy` moves its listener with --port; say so in one line, like `ledger run`
    if (code === 'EADDRINUSE') throw new ConfigError(`the entropy server cannot listen on ${section.host}:${section.port}: address already in use (another node or program holds it; pick another port with --port)`, { cause: err })
    throw err
  }
  const provider = kernel.container.resolve('entropy')
  if (!(provider instanceof AggregatorEntropyProvider)) throw new Error('the entropy aggregator did not start its own aggregator')
  const { host, port } = provider.status()
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  const health = provider.aggregator.health()
  logger.info({ url, network, status: health.status, serving: health.last_fill.source, evidence: health.evidence, reason: health.reason }, 'entropy server listening')
  return { aggregator: provider.aggregator, host, port, url, close: async () => { await kernel.stop() } }
}

/** startEntropyServer, then closes cleanly on SIGINT / SIGTERM / SIGHUP or when the process
 *  that started it (npx) exits, and exits. For the CLI. */
export async function runEntropyServer (o: EntropyServerOptions = {}): Promise<RunningEntropyServer> {
  const logger = o.logger ?? createLogger('info')
  const server = await startEntropyServer({ ...o, logger })
  let closing = false
  const shutdown = (exitCode = 0): void => {
    if (closing) return
    closing = true
    const hard = setTimeout(() => process.exit(1), 5000)
    hard.unref()
    server.close().then(() => process.exit(exitCode), () => process.exit(1))
  }
  watchForStop(() => { shutdown() })
  // the node's policy for errors nobody caught (docs/operator.md, "Faults")
  installFaultPolicy({ logger, stop: () => { shutdown(1) } })
  return server
}
