// The dashboard server ({dashboard_url}): built here, listened on by the manifest. Kept apart
// from listen() so tests can drive it with inject().
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { HttpLimits, HttpService } from '../../core/kernel/http-service.ts'
import type { NodeInfo } from '../../core/kernel/services.ts'
import { nodeVersion } from '../../core/kernel/version.ts'
import type { ViewContext } from '../../core/views/context.ts'
import { chainStats } from '../../core/views/chain-stats.ts'
import { installAuth } from './auth.ts'
import { FeeEstimator } from './fee-estimate.ts'
import { createMetricsRegistry } from './metrics.ts'
import { miningActive, peerList, syncState } from './node-status.ts'
import type { OptionalServices } from './node-status.ts'
import { registerChainRoutes } from './routes/chain-routes.ts'
import { registerNodeRoutes } from './routes/node-routes.ts'
import { registerSubmitRoute, SUBMIT_ROUTE } from './routes/submit-route.ts'
import { DASHBOARD_PAGE_ROUTES, registerDashboardPage } from './page.ts'
import { registerEventsRoute } from './routes/events-route.ts'
import type { NodeEventLog } from '../../core/views/node-events.ts'
import { registerOperatorMetrics } from './operator-metrics.ts'
import type { OperatorMetricSources } from './operator-metrics.ts'
import { registerHistoryRoute } from './routes/history-route.ts'
import type { HistoryRouteDeps } from './routes/history-route.ts'

export interface DashboardDeps {
  logger: Logger
  http: HttpService
  /** the node's run state, start time and data dir (the kernel's narrow `node` service) */
  node: NodeInfo
  view: ViewContext
  services: OptionalServices
  nodeId: string
  apiKey: string
  requireAuth: boolean
  /** the node events the manifest records from the hooks */
  events: NodeEventLog
  /** the server's slow-client and bad-input limits (defaults when unset) */
  limits?: Partial<HttpLimits>
  /** what the metrics beyond SPEC's nine read (hooks and services) */
  operatorMetrics: OperatorMetricSources
  /** the samples and block timings the manifest records for the page's charts */
  history: HistoryRouteDeps
}

export const DASHBOARD_ROUTES = [
  'GET /api/status', 'GET /api/node', 'GET /api/chain', 'GET /api/blocks', 'GET /api/block/{identifier}',
  'GET /api/tx/{tx_id}', 'GET /api/address/{address}', 'GET /api/account/{address}', 'GET /api/mempool', 'GET /api/mining', 'GET /api/qrng',
  'GET /api/qrng/random', 'GET /api/peers', 'GET /api/events', 'GET /api/history', 'GET /api/fee', 'GET /api/search', 'POST /api/tx/submit', 'GET /metrics'
] as const

export async function buildDashboardServer (deps: DashboardDeps): Promise<FastifyInstance> {
  const { http, node, view, services } = deps
  const app = http.createServer({ logger: deps.logger, name: 'dashboard', limits: deps.limits })
  await http.publishOpenApi(app, { title: 'ledger node — dashboard API', description: 'node-local operator dashboard', version: nodeVersion(view.params) })
  installAuth(app, { key: deps.apiKey, requireAuth: deps.requireAuth, writeRoutes: new Set([SUBMIT_ROUTE]), openRoutes: DASHBOARD_PAGE_ROUTES })

  const metrics = createMetricsRegistry({
    chainHeight: () => view.chain.tip().height,
    tipTimestamp: () => view.chain.tip().timestamp,
    totalSupply: () => chainStats(view).total_supply,
    difficulty: () => view.chain.nextDifficulty(),
    mempoolSize: () => view.mempool.size,
    peerCount: () => peerList(services).length,
    miningActive: () => miningActive(services),
    // with no peers there is nothing to download: only an active sync counts as not synced
    synced: () => syncState(services) !== 'syncing',
    uptimeSeconds: () => Math.max(0, Date.now() / 1000 - node.startedAt)
  })
  registerOperatorMetrics(metrics, deps.operatorMetrics)

  // the page is at /, the JSON index it replaced at /api
  app.get('/api', { schema: { hide: true } }, async () => ({ service: 'dashboard', page: '/', docs: '/docs', endpoints: [...DASHBOARD_ROUTES] }))
  await registerDashboardPage(http, app)
  registerNodeRoutes(app, { node, params: view.params, chain: view.chain, services, nodeId: deps.nodeId, metrics, errorSchema: http.chainViews.schemas.errorSchema })
  registerChainRoutes(app, http.chainViews, view, new FeeEstimator(view.chain, view.mempool, view.params))
  registerSubmitRoute(app, view.mempool, http.chainViews.schemas.errorSchema)
  registerEventsRoute(app, deps.events)
  registerHistoryRoute(app, deps.history)
  return app
}
