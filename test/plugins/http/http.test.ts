import t from 'tap'
import { startTestNode } from '../../helpers/node.ts'
import { recordingLogger } from '../../helpers/log.ts'

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

t.test("a route's badRequestExtra keys join every 400 on it, also those given before its handler runs", async (t) => {
  const node = await startTestNode({ plugins: ['http'], start: false })
  t.teardown(() => node.stop())
  const app = node.resolve('publicHttp')
  const schema = { body: { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } } }
  app.post('/shaped', { schema, config: { badRequestExtra: (m: string) => ({ status: 'rejected', reason: m }) } }, async (req) => req.body)
  app.post('/plain', { schema }, async (req) => req.body)
  await node.kernel.start()
  const post = async (url: string, payload: string) => await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload })
  const cases: Array<[string, string, string]> = [
    ['not JSON', '{"a":', 'request body is not valid JSON'],
    ['empty', '', 'request body is empty'],
    ['schema', '{"a":"x"}', 'body.a must be integer'],
    ['too deep', '['.repeat(200) + ']'.repeat(200), 'request body nests deeper than 64 levels of arrays and objects']
  ]
  for (const [what, payload, message] of cases) {
    const shaped = await post('/shaped', payload)
    t.equal(shaped.statusCode, 400, what)
    t.same(shaped.json(), { error: message, status: 'rejected', reason: message }, `${what}: the route's keys`)
    const plain = await post('/plain', payload)
    t.equal(plain.statusCode, 400, what)
    t.same(plain.json(), { error: message }, `${what}: a route without them keeps the one shape`)
  }
  t.same((await post('/shaped', '{"a":1}')).json(), { a: 1 })
})

t.test('URLs and requests refused before any route answer in the same error shape', async (t) => {
  const node = await startTestNode({ plugins: ['http'], start: false })
  t.teardown(() => node.stop())
  const app = node.resolve('publicHttp')
  app.get('/thing/:id', async (req) => ({ id: (req.params as { id: string }).id }))
  await node.kernel.start()
  const long = await app.inject({ method: 'GET', url: `/thing/${'a'.repeat(5000)}` })
  t.equal(long.statusCode, 414)
  t.same(long.json(), { error: 'path parameter too long' })
  const badUrl = await app.inject({ method: 'GET', url: '/thing/%' })
  t.equal(badUrl.statusCode, 400)
  t.same(badUrl.json(), { error: 'malformed URL: bad percent-encoding' })
  t.same((await app.inject({ method: 'GET', url: `/thing/${'b'.repeat(130)}` })).json(), { id: 'b'.repeat(130) }, 'a 0x-prefixed block hash fits a path parameter')

  // a body shorter than its Content-Length never reaches fastify: the raw socket answers
  const net = await import('node:net')
  const address = app.server.address() as import('node:net').AddressInfo
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(address.port, '127.0.0.1', () => { socket.write('GET /thing/1 HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n') })
    let data = ''
    socket.setEncoding('utf8').on('data', (d: string) => { data += d }).on('end', () => resolve(data)).on('error', reject)
    socket.setTimeout(5000, () => { socket.destroy(); reject(new Error('no answer within 5 s')) })
  })
  t.match(reply, /^HTTP\/1\.1 400 Bad Request/)
  t.match(reply, /\{"error":"malformed HTTP request"\}$/)
})

t.test('pages registered on one server share one /common/ asset route', async (t) => {
  const { registerWebPage } = await import('../../../plugins/http/web-page.ts')
  const path = await import('node:path')
  const node = await startTestNode({ plugins: ['http'], start: false })
  t.teardown(() => node.stop())
  const app = node.resolve('publicHttp')
  const root = path.resolve(import.meta.dirname, '..', '..', '..', 'plugins')
  await registerWebPage(app, { webDir: path.join(root, 'explorer', 'web'), assetPrefix: '/one/', paths: ['/one'] })
  await app.register(async (child) => {
    await registerWebPage(child, { webDir: path.join(root, 'playground', 'web'), assetPrefix: '/two/', paths: ['/two'] })
  })
  await node.kernel.start()
  const dom = await app.inject({ method: 'GET', url: '/common/dom.js' })
  t.equal(dom.statusCode, 200)
  t.match(dom.body, /export function h \(/)
  t.equal((await app.inject({ method: 'GET', url: '/common/theme.css' })).statusCode, 200)
  const page = await app.inject({ method: 'GET', url: '/two' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-security-policy'], /default-src 'self'/)
})

t.test('one "listening" line per server (fastify\'s own is dropped)', async (t) => {
  const { logger, records } = recordingLogger()
  const node = await startTestNode({ plugins: ['http'], start: false, logger })
  t.teardown(() => node.stop())
  node.resolve('publicHttp').get('/x', async () => ({}))
  await node.kernel.start()
  const listening = records.filter((r) => /listening/i.test(r.msg))
  t.same(listening.map((r) => r.msg), ['public server listening'])
  const app = node.resolve('publicHttp')
  app.log.info('other lines still pass')
  t.ok(records.some((r) => r.msg === 'other lines still pass'))
})
