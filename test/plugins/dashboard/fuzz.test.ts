// Hundreds of malformed requests to every dashboard route, half of them with the API key so
// they reach the handlers (submit included): nothing may cause a 500, and every error is the
// node's JSON error shape.
import t from 'tap'
import { startDashboardNode } from './fixtures/dashboard-node.ts'
import { fuzzServer } from '../explorer/fixtures/fuzz.ts'
import type { FuzzRoute } from '../explorer/fixtures/fuzz.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20261123)

const ROUTES: FuzzRoute[] = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/api/status' },
  { method: 'GET', path: '/api/node' },
  { method: 'GET', path: '/api/chain' },
  { method: 'GET', path: '/api/blocks' },
  { method: 'GET', path: '/api/block/*' },
  { method: 'GET', path: '/api/tx/:tx_id' },
  { method: 'GET', path: '/api/address/:address' },
  { method: 'GET', path: '/api/mempool' },
  { method: 'GET', path: '/api/mining' },
  { method: 'GET', path: '/api/qrng' },
  { method: 'GET', path: '/api/qrng/random' },
  { method: 'GET', path: '/api/peers' },
  { method: 'GET', path: '/api/events' },
  { method: 'GET', path: '/api/fee' },
  { method: 'GET', path: '/api/search' },
  { method: 'POST', path: '/api/tx/submit' },
  { method: 'GET', path: '/metrics' }
]

for (const [label, withServices, requireAuth] of [['bare node, requireAuth', false, true], ['node with miner, entropy and peers', true, false]] as const) {
  t.test(`fuzzing the dashboard: ${label}`, async (t) => {
    const node = await startDashboardNode({ withServices, config: { dashboard: { port: 0, requireAuth } } })
    t.teardown(() => node.stop())
    await node.mine([node.send(node.dev, '66'.repeat(16), 1)])
    let i = 0
    const headers = (): Record<string, string> => (i++ % 2 === 0 ? { authorization: `Bearer ${node.apiKey}` } : (i % 4 === 1 ? { authorization: 'Bearer \u00ff\u0000' } : {}))
    const sent = await fuzzServer(t, node.dash, ROUTES, { seed: SEED + (withServices ? 1 : 0), perRoute: 30, headers })
    t.ok(sent >= 500, `${sent} requests sent`)
    t.equal((await node.call('GET', '/api/chain')).json().height, 1, 'still serving')
  })
}
