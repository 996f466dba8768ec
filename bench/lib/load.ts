// HTTP load with autocannon: requests per second and p99 latency of one endpoint. The
// path may vary per request (block heights, transaction ids), so caches see a real spread.
import { createRequire } from 'node:module'

interface AutocannonRequest { method?: string; path?: string; setupRequest?: (req: { path: string }) => { path: string } }
interface AutocannonResult {
  requests: { total: number }
  latency: { p99: number }
  errors: number
  timeouts: number
  non2xx: number
}
type Autocannon = (opts: { url: string; connections: number; duration?: number; amount?: number; sampleInt?: number; requests?: AutocannonRequest[] }) => Promise<AutocannonResult>

// autocannon ships no type declarations: typed here for the options and results we use
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

export interface LoadSample { requestsPerSecond: number; p99Ms: number }

export interface LoadOptions {
  port: number
  /** a path per request */
  nextPath: () => string
  connections: number
  /** seconds of load, or (quick) a request count */
  seconds?: number
  amount?: number
}

export async function loadSample (o: LoadOptions): Promise<LoadSample> {
  const started = performance.now()
  const r = await autocannon({
    url: `http://127.0.0.1:${o.port}`,
    connections: o.connections,
    // the run ends on a sampling tick: a short interval keeps the end close to the budget
    sampleInt: 100,
    ...(o.amount === undefined ? { duration: o.seconds ?? 2 } : { amount: o.amount }),
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: o.nextPath() }) }]
  })
  const seconds = (performance.now() - started) / 1000
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) {
    throw new Error(`load on port ${o.port} failed: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers`)
  }
  return { requestsPerSecond: r.requests.total / seconds, p99Ms: r.latency.p99 }
}
