// SPEC 7 rows of the explorer and the node's common error rules (DESIGN 5): one JSON shape,
// 400 naming the field, 404 for unknown routes, never a 500.
import t from 'tap'
import { startExplorerNode } from './fixtures/explorer-node.ts'

t.test('explorer error rows', async (t) => {
  const node = await startExplorerNode()
  t.teardown(() => node.stop())
  await node.mine([])

  const cases: Array<[string, number, string | RegExp]> = [
    ['/api/explorer/block/abc', 400, 'height must be integer'],
    ['/api/explorer/block/1.5', 400, 'height must be integer'],
    ['/api/explorer/block/1e3', 400, 'height must be integer'],
    ['/api/explorer/block/%20', 400, 'height must be integer'],
    ['/api/explorer/block/2', 404, 'no such block'],
    ['/api/explorer/block/-1', 404, 'no such block'],
    ['/api/explorer/block/99999999999999999999999', 404, 'no such block'],
    [`/api/explorer/tx/${'0'.repeat(64)}`, 404, 'tx not found'],
    ['/api/explorer/tx/xyz', 404, 'tx not found'],
    ['/api/explorer/address/xyz', 400, /address must be 32 or 40 hex/],
    [`/api/explorer/address/${'a'.repeat(33)}`, 400, /address must be/],
    ['/api/explorer/blocks?limit=abc', 400, /querystring\.limit/],
    ['/api/explorer/blocks?offset=-5', 400, /querystring\.offset/],
    ['/api/explorer/blocks?limit=0', 400, /querystring\.limit/],
    [`/api/explorer/address/${'a'.repeat(32)}?offset=x`, 400, /querystring\.offset/],
    ['/api/explorer/nope', 404, /no route GET \/api\/explorer\/nope/]
  ]
  for (const [url, status, error] of cases) {
    const res = await node.get(url)
    t.equal(res.statusCode, status, `${url} -> ${status}`)
    t.match(res.headers['content-type'], /application\/json/, `${url}: JSON`)
    if (typeof error === 'string') t.same(res.json(), { error }, `${url} body`)
    else t.match(res.json().error, error, `${url} body`)
  }

  const big = await node.app.inject({ method: 'POST', url: '/api/explorer/stats', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ x: 'y'.repeat(1024 * 1024 + 1) }) })
  t.equal(big.statusCode, 413, 'a body over 1 MiB is refused before routing')
  t.match(big.json(), { error: /larger than 1048576 bytes/ })
})
