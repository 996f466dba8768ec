// What a client may hold of an HTTP server (issue 31 item 4, "Slow clients", "413 read as a
// reset", "200,000-deep data → 500"): header, request and keep-alive timeouts, the connection
// caps, the drained 413, and the JSON depth bound. Every server of the node is built by the
// same factory (plugins/http/server.ts); the public one is driven here, the dashboard's and the
// messenger's routes in their own tests below.
import t from 'tap'
import type { Test } from 'tap'
import net from 'node:net'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { startTestNode } from '../../helpers/node.ts'
import { waitFor } from '../../helpers/wait.ts'
import { nestsDeeperThan } from '../../../plugins/http/json-depth.ts'
import { addressKey } from '../../../plugins/http/connection-caps.ts'
import { descriptorShare } from '../../../plugins/http/server.ts'
import { startDashboardNode } from '../dashboard/fixtures/dashboard-node.ts'
import { ADMIN_AUTH, startChatNode } from '../messenger/fixtures/chat-node.ts'
import type { HttpLimits } from '../../../core/kernel/http-service.ts'

async function publicServer (t: Test, limits: Partial<HttpLimits> = {}): Promise<{ port: number; app: import('fastify').FastifyInstance }> {
  const node = await startTestNode({ plugins: ['http'], start: false, config: { http: { port: 0, limits } } })
  t.teardown(() => node.stop())
  const app = node.resolve('publicHttp')
  app.post('/echo', async (req) => ({ got: typeof req.body }))
  app.get('/hello', async () => ({ hello: true }))
  await node.kernel.start()
  return { app, port: (app.server.address() as AddressInfo).port }
}

/** a raw socket to the server; resolves once connected */
function connect (port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s))
    s.once('error', reject)
  })
}

function closed (s: net.Socket): Promise<void> {
  return s.closed || s.destroyed ? Promise.resolve() : new Promise((resolve) => s.once('close', () => resolve()))
}

/** what the server wrote before it closed the socket */
function readAll (s: net.Socket): Promise<string> {
  let data = ''
  s.setEncoding('utf8').on('data', (d: string) => { data += d })
  s.on('error', () => {})
  return closed(s).then(() => data)
}

/** `n` nested arrays around a number: the deep body of the issue */
function deep (n: number): string {
  return '['.repeat(n) + '1' + ']'.repeat(n)
}

// the whole exchange: any socket error (EPIPE, a reset) on the way is what the client meets
function postBig (port: number, url: string, body: Buffer, chunked: boolean, headers: Record<string, string> = {}): Promise<{ status: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    let status = 0
    let text = ''
    let error: string | undefined
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: url, agent: false, headers: { ...headers, 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(body.length) }) } }, (res) => {
      status = res.statusCode ?? 0
      res.setEncoding('utf8').on('data', (d: string) => { text += d }).on('error', (err) => { error ??= err.message })
    })
    req.on('error', (err: NodeJS.ErrnoException) => { error ??= err.code ?? err.message })
    req.on('close', () => resolve({ status, text, error }))
    // written in pieces, as a client streaming an upload does
    for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024))
    req.end()
  })
}

t.test('nesting is measured on the raw text, strings skipped', async (t) => {
  t.equal(nestsDeeperThan('{"a":[1,{"b":2}]}', 3), false)
  t.equal(nestsDeeperThan('{"a":[1,{"b":2}]}', 2), true)
  t.equal(nestsDeeperThan('{"a":"[[[[[[[[[[\\"[[[[["}', 1), false, 'brackets inside strings, escaped quotes too, do not count')
  t.equal(nestsDeeperThan(deep(200_000), 64), true)
})

t.test('a 200,000-deep JSON body is a 400 naming the problem; 64 levels still parse', async (t) => {
  const { app } = await publicServer(t)
  const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: `{"data":${deep(200_000)}}` })
  t.equal(res.statusCode, 400)
  t.same(res.json(), { error: 'request body nests deeper than 64 levels of arrays and objects' })
  const ok = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: deep(64) })
  t.equal(ok.statusCode, 200)
  const proto = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' })
  t.equal(proto.statusCode, 400, 'fastify\'s prototype-poisoning refusal is kept')
})

t.test('POST /api/tx/submit with a 200,000-deep data object: 400, never 500', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  const tx = node.send(node.dev, node.dev.address, 1)
  const body = JSON.stringify({ ...tx, data: {} }).replace('"data":{}', `"data":{"memo":${deep(200_000)}}`)
  const res = await node.call('POST', '/api/tx/submit', { body, headers: { 'content-type': 'application/json' } })
  t.equal(res.statusCode, 400)
  t.match(res.json(), { error: /nests deeper than 64 levels/ })
  t.notOk(node.resolve('mempool').has(tx.transaction_id))
})

t.test('a messenger and an admin route with a deep body: 400', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  const signup = await node.app.inject({ method: 'POST', url: '/api/signup', headers: { 'content-type': 'application/json' }, payload: `{"name":${deep(200_000)}}` })
  t.equal(signup.statusCode, 400)
  t.match(signup.json(), { error: /nests deeper/ })
  const invite = await node.app.inject({ method: 'POST', url: '/api/admin/invites/create', headers: { authorization: ADMIN_AUTH, 'content-type': 'application/json' }, payload: `{"max_uses":${deep(200_000)}}` })
  t.equal(invite.statusCode, 400)
  t.match(invite.json(), { error: /nests deeper/ })
})

t.test('a body over the limit still being written gets its 413, not a reset (both framings)', async (t) => {
  const { port } = await publicServer(t)
  const body = Buffer.alloc(8 * 1024 * 1024, 0x61)
  for (let i = 0; i < 6; i++) {
    for (const chunked of [false, true]) {
      const r = await postBig(port, '/echo', body, chunked)
      t.same(r, { status: 413, text: '{"error":"request body larger than 1048576 bytes"}', error: undefined }, `${chunked ? 'chunked' : 'content-length'} #${i}`)
    }
  }
})

t.test('the dashboard\'s port drains the same way: POST /api/tx/submit of 8 MB reads its 413', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  const port = (node.dash.server.address() as AddressInfo).port
  const body = Buffer.alloc(8 * 1024 * 1024, 0x61)
  for (let i = 0; i < 3; i++) {
    const r = await postBig(port, '/api/tx/submit', body, i % 2 === 1, { authorization: `Bearer ${node.apiKey}` })
    t.same(r, { status: 413, text: '{"error":"request body larger than 1048576 bytes"}', error: undefined }, `#${i}`)
  }
})

t.test('a body beyond the drain bound is answered and the socket closed, not read for ever', async (t) => {
  const { port } = await publicServer(t, { drainBytes: 1024 * 1024, drainMs: 60_000 })
  const s = await connect(port)
  const answer = readAll(s)
  s.write(`POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024 * 1024}\r\n\r\n`)
  const chunk = Buffer.alloc(256 * 1024, 0x61)
  const pump = (): void => { if (!s.destroyed && s.write(chunk)) setImmediate(pump) }
  s.on('drain', pump)
  pump()
  const text = await answer
  t.match(text, /^HTTP\/1\.1 413 /)
})

t.test('slow clients: headers, a trickled body and an idle keep-alive socket are cut at their timeouts', async (t) => {
  const { port } = await publicServer(t, { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300 })
  const headers = await connect(port)
  const headersAnswer = readAll(headers)
  headers.write('GET /hello HTTP/1.1\r\nHost: x\r\n') // never the blank line
  const drip = setInterval(() => { if (!headers.destroyed) headers.write('X-A: b\r\n') }, 50)
  t.teardown(() => clearInterval(drip))
  t.match(await headersAnswer, /^HTTP\/1\.1 408 /, 'headers that never end: 408, closed')

  const trickle = await connect(port)
  const trickleAnswer = readAll(trickle)
  trickle.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n')
  const drip2 = setInterval(() => { if (!trickle.destroyed) trickle.write(' ') }, 50)
  t.teardown(() => clearInterval(drip2))
  t.match(await trickleAnswer, /^HTTP\/1\.1 408 /, 'a body a byte at a time: 408, closed')

  const idle = await connect(port)
  const idleAnswer = readAll(idle)
  idle.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
  t.match(await idleAnswer, /^HTTP\/1\.1 200 [\s\S]*\{"hello":true\}$/, 'answered, then the idle keep-alive socket is closed')
})

t.test('connection caps: per address, then per server; a socket over a cap is closed at once', async (t) => {
  const { port } = await publicServer(t, { maxConnectionsPerAddress: 4 })
  const held = await Promise.all(Array.from({ length: 4 }, async () => await connect(port)))
  t.teardown(() => { for (const s of held) s.destroy() })
  const over = await connect(port)
  const overAnswer = readAll(over)
  over.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
  t.equal(await overAnswer, '', 'the fifth socket from one address is closed unanswered')
  held.pop()?.destroy()
  await waitFor('a slot to free up', async () => {
    const s = await connect(port)
    const answer = readAll(s)
    s.end('GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    return (await answer).includes('{"hello":true}')
  })
  t.pass('once one closes, a new socket is served')

  const server = await publicServer(t, { maxConnections: 2, maxConnectionsPerAddress: 100 })
  const two = await Promise.all([connect(server.port), connect(server.port)])
  t.teardown(() => { for (const s of two) s.destroy() })
  const third = await connect(server.port)
  const thirdAnswer = readAll(third)
  third.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
  t.equal(await thirdAnswer, '', 'the server-wide cap closes the third socket')
})

t.test('the server-wide cap by default: a quarter of the descriptor limit, 64..10,240', async (t) => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs')
  const os = await import('node:os')
  const path = await import('node:path')
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-limits-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = (soft: string): string => {
    const f = path.join(dir, `limits-${soft}`)
    writeFileSync(f, `Limit                     Soft Limit           Hard Limit           Units     \nMax open files            ${soft}                 524288               files     \n`)
    return f
  }
  t.equal(descriptorShare(file('1024')), 256)
  t.equal(descriptorShare(file('20000')), 5000)
  t.equal(descriptorShare(file('1048576')), 10_240)
  t.equal(descriptorShare(file('unlimited')), 10_240)
  t.equal(descriptorShare(file('100')), 64)
  t.equal(descriptorShare(path.join(dir, 'none')), 1024, 'no /proc: a quarter of 4,096')
})

t.test('client keys: IPv4 as is, IPv6 per /64', async (t) => {
  t.equal(addressKey('203.0.113.7'), '203.0.113.7')
  t.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7')
  t.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
  t.equal(addressKey('2001:db8:1:2::ffff'), addressKey('2001:0db8:0001:0002:1:2:3:4'))
  t.not(addressKey('2001:db8:1:3::1'), addressKey('2001:db8:1:2::1'))
})
