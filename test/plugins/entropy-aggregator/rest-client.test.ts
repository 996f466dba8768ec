import t from 'tap'
import type { Test } from 'tap'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { EntropyRestClient, EntropyRestError, parseHealth } from '../../../plugins/entropy-aggregator/rest-client.ts'

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

async function serve (t: Test, handler: Handler): Promise<string> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const HEALTH = {
  status: 'ok',
  uptime_seconds: 12,
  pool: { available_bytes: 4096, capacity: 65536, fill_percent: 6.25 },
  last_fill: { source: 'self-hosted', round: null, filled_at: '2026-01-01T00:00:00.000Z' },
  source: 'self-hosted',
  device: 'linux kernel CSPRNG'
}

t.test('health: the contract fields, a missing source id is the registry default', async (t) => {
  const url = await serve(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(req.url === '/prefix/api/health' ? { ...HEALTH, source: undefined } : { nope: 1 }))
  })
  const client = new EntropyRestClient({ url: `${url}/prefix` })
  const h = await client.health()
  t.same(h, { ...HEALTH, source: 'self-hosted', reason: null })
  await t.rejects(new EntropyRestClient({ url }).health(), /health response has no status/)
  t.throws(() => parseHealth({ status: 'ok', pool: { available_bytes: 'x' } }), /no valid pool/)
})

t.test('bytes: exactly n, with the source headers; short bodies and errors refused', async (t) => {
  const url = await serve(t, (req, res) => {
    const n = Number(new URL(req.url ?? '', 'http://x').searchParams.get('n'))
    if (n === 7) { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(Buffer.alloc(6)); return }
    if (n === 9) { res.writeHead(503, { 'content-type': 'application/json' }); res.end(JSON.stringify({ error: 'entropy below quorum: 0 of 2 sources answered' })); return }
    if (n === 11) { res.writeHead(502); res.end('bad gateway'); return }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-entropy-source': 'aggregator:beacon-default+self-hosted', 'x-entropy-device': 'dev' })
    res.end(Buffer.alloc(n, 0xab))
  })
  const client = new EntropyRestClient({ url })
  const d = await client.bytes(5)
  t.same([...d.bytes], [0xab, 0xab, 0xab, 0xab, 0xab])
  t.equal(d.source, 'aggregator:beacon-default+self-hosted')
  t.equal(d.device, 'dev')
  await t.rejects(client.bytes(7), /returned 6 bytes for n=7/)
  const err = await client.bytes(9).catch((e: unknown) => e) as EntropyRestError
  t.type(err, EntropyRestError)
  t.equal(err.status, 503)
  t.match(err.message, 'answered 503: entropy below quorum: 0 of 2 sources answered')
  await t.rejects(client.bytes(11), /answered 502: HTTP 502/)
  await t.rejects(client.bytes(0), RangeError)
})

t.test('a source that never answers costs the timeout, one that is down fails at once', async (t) => {
  const url = await serve(t, () => { /* never responds */ })
  const slow = new EntropyRestClient({ url, timeoutMs: 150 })
  const err = await slow.bytes(8).catch((e: unknown) => e) as EntropyRestError
  t.match(err.message, 'did not answer within 150 ms')
  t.equal(err.status, null)

  const probe = http.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const freePort = (probe.address() as AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  const down = new EntropyRestClient({ url: `http://127.0.0.1:${freePort}` })
  await t.rejects(down.health(), new RegExp(`cannot reach http://127\\.0\\.0\\.1:${freePort}: ECONNREFUSED`))
})

t.test('the URL: http(s) only, host and port taken from it', async (t) => {
  t.throws(() => new EntropyRestClient({ url: 'ftp://x' }), /must be http/)
  t.throws(() => new EntropyRestClient({ url: 'not a url' }), /is not a URL/)
  const c = new EntropyRestClient({ url: 'https://entropy.example/base?x=1' })
  t.equal(c.host, 'entropy.example')
  t.equal(c.port, 443)
  t.equal(c.base.href, 'https://entropy.example/base/')
  t.equal(new EntropyRestClient({ url: 'http://10.0.0.1:8420' }).port, 8420)
})
