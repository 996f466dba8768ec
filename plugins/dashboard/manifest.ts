// Node-local dashboard ({dashboard_url}, default 127.0.0.1:8080): health, chain, mempool,
// miner, entropy provider, peers, node events, fees, search, transaction submission and /metrics.
// Provides its server as `dashboardHttp` so other plugins can add operator routes.
import type { FastifyInstance } from 'fastify'
import { definePlugin } from '../../core/kernel/plugin.ts'
import path from 'node:path'
import { serverUrl } from '../../core/kernel/http-service.ts'
import { flags } from './commands.ts'
import { ConfigError } from '../../core/kernel/config.ts'
import { addressLookup, nameLookup } from '../../core/views/names.ts'
import { API_KEY_FILE, loadOrCreateApiKey } from './api-key.ts'
import { buildDashboardServer } from './server.ts'
import { httpLimitsSchema } from '../../core/kernel/http-service.ts'
import type { HttpLimits } from '../../core/kernel/http-service.ts'
import { NodeEventLog, tapNodeEvents } from '../../core/views/node-events.ts'
import { EVENT_LOG_SIZE } from './routes/events-route.ts'
import { HISTORY_SAMPLES, Ring, TIMED_BLOCKS, timingOf } from './history.ts'
import type { BlockTiming, HistorySample } from './history.ts'

declare module '../../core/kernel/services.ts' {
  interface Services {
    /** the node-local dashboard server; routes added during register, it listens on start */
    dashboardHttp: FastifyInstance
  }
}

interface DashboardConfig {
  host: string
  port: number
  /** every GET but /api/status and /metrics needs the API key */
  requireAuth?: boolean
  /** the SPEC's spelling of requireAuth (SPEC 5); either is accepted */
  require_auth?: boolean
  /** names the dashboard may be reached by besides IP literals, localhost and `host` (a
   *  reverse proxy's public name); any other Host header is refused against DNS rebinding */
  allowedHosts: string[]
  /** slow-client and bad-input limits (timeouts, connection caps, 413 drain, JSON depth) */
  limits: HttpLimits
  /** seconds between the samples of hash rate, mempool and peers the page charts */
  sampleSeconds: number
}

export default definePlugin<DashboardConfig>({
  name: 'dashboard',
  description: 'node-local operator dashboard and Prometheus metrics',
  apiVersion: '1.0',
  provides: ['dashboardHttp'],
  needs: ['chain', 'mempool', 'wallets', 'http', 'node'],
  optional: ['names', 'miner', 'entropy', 'peers', 'verifyPool', 'chainDb', 'adminDb'],
  configSchema: {
    properties: {
      host: { type: 'string', minLength: 1, default: '127.0.0.1' },
      port: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
      requireAuth: { type: 'boolean' },
      require_auth: { type: 'boolean', description: 'the SPEC 5 spelling of requireAuth' },
      allowedHosts: { type: 'array', items: { type: 'string', minLength: 1, pattern: '^[^:/\\s]+$' }, default: [] },
      limits: httpLimitsSchema(),
      sampleSeconds: { type: 'number', minimum: 0.1, maximum: 3600, default: 5 }
    },
    additionalProperties: false
  },
  flags,
  summary: (view) => {
    const dash = serverUrl(view.service('dashboardHttp'))
    const keyFromEnv = (view.env.LEDGER_API_KEY ?? '').trim().length > 0
    return [
      ...(dash === undefined
        ? []
        : [
            { key: 'dashboard', label: 'dashboard', value: `${dash}/`, order: 150 },
            { key: 'dashboardApi', label: 'dash. API', value: `${dash}/api`, order: 160 },
            { key: 'metrics', label: 'metrics', value: `${dash}/metrics`, order: 170 }
          ]),
      { key: 'apiKey', label: 'API key', value: keyFromEnv ? 'from LEDGER_API_KEY' : path.join(view.dataDir, API_KEY_FILE), order: 910, top: true }
    ]
  },
  async register (ctx) {
    const { requireAuth: camel, require_auth: snake } = ctx.config
    if (camel !== undefined && snake !== undefined && camel !== snake) {
      throw new ConfigError('invalid config: "dashboard.requireAuth" and "dashboard.require_auth" disagree; set one of them')
    }
    const requireAuth = snake ?? camel ?? false
    const apiKey = loadOrCreateApiKey(ctx.node.dataDir)
    if (apiKey.source === 'env') ctx.logger.info('dashboard API key taken from LEDGER_API_KEY')
    else ctx.logger.info({ file: apiKey.file }, apiKey.created ? 'generated the dashboard API key' : 'dashboard API key loaded')

    // the page's recent-events feed: recorded from boot, whoever is looking
    const events = new NodeEventLog(EVENT_LOG_SIZE)
    tapNodeEvents(ctx.hooks, 'dashboard', (event) => { events.push(event) })

    // the page's charts: blocks as this node connected them, and samples of what has no history
    const timings = new Ring<BlockTiming>(TIMED_BLOCKS)
    ctx.hooks.blockConnected.tap('dashboard:history', (event) => { timings.push(timingOf(event, Date.now() / 1000)) })
    const samples = new Ring<HistorySample>(HISTORY_SAMPLES)
    const mempool = ctx.resolve('mempool')
    const sample = (): void => {
      const miner = ctx.tryResolve('miner')?.status()
      samples.push({
        at: Date.now() / 1000,
        hash_rate: miner?.running === true ? miner.hash_rate : 0,
        mempool_size: mempool.size,
        mempool_bytes: mempool.bytes,
        peer_count: ctx.tryResolve('peers')?.peers().length ?? 0
      })
    }

    const http = ctx.resolve('http')
    const app = await buildDashboardServer({
      logger: ctx.logger,
      http,
      node: ctx.resolve('node'),
      view: {
        chain: ctx.resolve('chain'),
        mempool: ctx.resolve('mempool'),
        params: ctx.params,
        nameOf: nameLookup(() => ctx.tryResolve('names'), ctx.params.foundationAddress),
        addressOfName: addressLookup(() => ctx.tryResolve('names'), ctx.params.foundationAddress)
      },
      // resolved per request: each is optional and reports its absent value when missing
      services: {
        miner: () => ctx.tryResolve('miner'),
        entropy: () => ctx.tryResolve('entropy'),
        peers: () => ctx.tryResolve('peers')
      },
      // the node's wallet address: the identity it mines and pays the faucet under
      nodeId: ctx.resolve('wallets').nodeWallet().address,
      apiKey: apiKey.key,
      requireAuth,
      events,
      limits: ctx.config.limits,
      operatorMetrics: {
        hooks: ctx.hooks,
        mempool,
        minFeeCoin: ctx.params.minFeeCoin,
        peers: () => ctx.tryResolve('peers'),
        miner: () => ctx.tryResolve('miner'),
        verifyPool: () => ctx.tryResolve('verifyPool'),
        stores: () => [{ db: 'chain', store: ctx.tryResolve('chainDb') }, { db: 'admin', store: ctx.tryResolve('adminDb') }]
      },
      history: { sampleSeconds: ctx.config.sampleSeconds, samples, blocks: timings }
    })
    http.installHostCheck(app, { bindHost: ctx.config.host, allowedHosts: ctx.config.allowedHosts })
    ctx.provide('dashboardHttp', app)
    let sampler: NodeJS.Timeout | undefined
    ctx.onStart(async () => {
      const address = await app.listen({ host: ctx.config.host, port: ctx.config.port })
      ctx.logger.info({ address, requireAuth }, 'dashboard listening')
      sample()
      sampler = setInterval(sample, ctx.config.sampleSeconds * 1000)
      sampler.unref()
    })
    ctx.onClose(async () => {
      clearInterval(sampler)
      await app.close()
    })
  }
})
