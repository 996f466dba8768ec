// The built-in entropy aggregator (SPEC 4.6, 2.8): XOR-mixes verified drand beacons and the
// self-hosted source into a pool, serves the REST contract on the entropy port, and provides
// the `entropy` service the miner draws from. With `url` set (--entropy-url) it is instead a
// client of that external source and serves nothing itself.
import type { AddressInfo } from 'node:net'
import { definePlugin } from '../../core/kernel/plugin.ts'
import { commands, flags } from './commands.ts'
import { configSchema, planSources, PLUGIN_NAME } from './config.ts'
import type { EntropyAggregatorConfig } from './config.ts'
import { createAggregator } from './factory.ts'
import { buildEntropyServer } from './server.ts'
import { AggregatorEntropyProvider } from './provider.ts'
import { RemoteEntropyProvider } from './remote-provider.ts'

export default definePlugin<EntropyAggregatorConfig>({
  name: PLUGIN_NAME,
  description: 'entropy aggregator: verified beacons XOR the self-hosted source, REST contract on the entropy port',
  apiVersion: '1.0',
  provides: ['entropy'],
  needs: ['http'],
  commands,
  configSchema,
  flags,
  summary: (view) => {
    const entropy = view.service('entropy')?.status()
    return entropy !== undefined && entropy.port > 0 ? [{ key: 'entropy', label: 'entropy', value: `http://${entropy.host}:${entropy.port}/api/health`, order: 180 }] : []
  },
  register (ctx) {
    const c = ctx.config
    if (c.url !== null) {
      const remote = new RemoteEntropyProvider({ url: c.url, timeoutMs: c.fetchTimeoutMs, pollIntervalMs: c.probeIntervalMs, params: ctx.params, logger: ctx.logger, hooks: ctx.ownedHooks })
      ctx.provide('entropy', remote)
      ctx.onStart(async () => {
        await remote.start()
        ctx.logger.info({ url: remote.client.base.origin, ...remote.status() }, 'using an external entropy source; the built-in aggregator is not started')
      })
      ctx.onClose(() => { remote.stop() })
      return
    }

    const plan = planSources(c.sources, c.minQuorum, ctx.params)
    const aggregator = createAggregator(plan, c, ctx.params, ctx.logger, ctx.resolve('cores').bls)
    const app = buildEntropyServer({ http: ctx.resolve('http'), aggregator, logger: ctx.logger, waitMs: c.requestWaitMs })
    let bound = { host: c.host, port: c.port }
    const provider = new AggregatorEntropyProvider({ aggregator, waitMs: c.requestWaitMs, address: () => bound, hooks: ctx.ownedHooks })
    ctx.provide('entropy', provider)

    ctx.onStart(async () => {
      await app.listen({ host: c.host, port: c.port })
      const addr = app.server.address() as AddressInfo
      bound = { host: c.host, port: addr.port }
      await aggregator.start(c.warmupMs)
      // `configured` is the plan; `serving` what the first round actually mixed (a configured
      // beacon that is down is not serving), `evidence` what backs it (docs/entropy.md)
      const health = aggregator.health()
      ctx.logger.info({ url: `http://${c.host}:${addr.port}`, configured: plan.sources, minQuorum: plan.minQuorum, status: health.status, serving: health.last_fill.source, evidence: health.evidence, reason: health.reason }, 'entropy aggregator listening')
    })
    ctx.onClose(async () => {
      await app.close()
      await aggregator.stop()
    })
  }
})
