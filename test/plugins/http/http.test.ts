import t from 'tap'
import { startTestNode } from '../../helpers/node.ts'

t.test('public server: JSON 404, invalid JSON and oversized bodies answer 4xx', async (t) => {
  const node = await startTestNode({ plugins: ['http'], start: false })
  t.teardown(() => node.stop())
  const app = node.resolve('publicHttp')
  app.post('/echo', async (req) => req.body)
  await node.kernel.start()
  const missing = await app.inject({ method: 'GET', url: '/nope' })
  t.equal(missing.statusCode, 404)
  t.match(missing.json(), { error: /no route GET \/nope/ })
  const bad = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' })
  t.equal(bad.statusCode, 400)
  t.same(bad.json(), { error: 'request body is not valid JSON' })
  const big = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(1024 * 1024 + 10) }) })
  t.equal(big.statusCode, 413)
  const docs = await app.inject({ method: 'GET', url: '/docs/json' })
  t.equal(docs.statusCode, 200)
  t.ok(docs.json().paths['/echo'], 'routes are published in OpenAPI')
})
