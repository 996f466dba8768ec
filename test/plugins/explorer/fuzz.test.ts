// Hundreds of malformed requests to every public explorer route: nothing a client sends may
// cause a 500, and every error is the node's JSON error shape.
import t from 'tap'
import { startExplorerNode } from './fixtures/explorer-node.ts'
import { fuzzServer } from './fixtures/fuzz.ts'
import type { FuzzRoute } from './fixtures/fuzz.ts'
import { EXPLORER_ROUTES } from '../../../plugins/explorer/routes.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20261122)

t.test('fuzzing the explorer', async (t) => {
  const node = await startExplorerNode()
  t.teardown(() => node.stop())
  const tx = node.send(node.dev, '55'.repeat(16), 1)
  await node.mine([tx])
  node.resolve('mempool').add(node.send(node.dev, '55'.repeat(16), 2))

  const routes: FuzzRoute[] = [
    ...EXPLORER_ROUTES.map((path) => ({ method: 'GET' as const, path })),
    { method: 'GET', path: '/explorer' },
    { method: 'GET', path: '/explorer/assets/:file' },
    { method: 'POST', path: '/api/explorer/stats' }
  ]
  const sent = await fuzzServer(t, node.app, routes, { seed: SEED, perRoute: 60 })
  t.ok(sent >= 600, `${sent} requests sent`)

  // the chain still answers normally afterwards
  t.equal((await node.get('/api/explorer/stats')).json().height, 1)
  t.equal((await node.get(`/api/explorer/tx/${tx.transaction_id}`)).json().status, 'confirmed')
})
