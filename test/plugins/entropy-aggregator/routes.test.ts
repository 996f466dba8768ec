import t from 'tap'
import { buildEntropyServer } from '../../../plugins/entropy-aggregator/server.ts'
import { createHttpService } from '../../../plugins/http/service.ts'
import { xorMix } from '../../../plugins/entropy-aggregator/mixer.ts'
import { FakeSource, knownStream, makeAggregator, silent } from './helpers.ts'

async function setup (t: { teardown(fn: () => unknown): void }, minQuorum = 1) {
  const beacon = new FakeSource('beacon-default')
  const local = new FakeSource('self-hosted')
  beacon.round = 77
  const aggregator = makeAggregator([beacon, local], { minQuorum })
  await aggregator.runRound('fill')
  const app = buildEntropyServer({ http: createHttpService(), aggregator, logger: silent, waitMs: 100 })
  t.teardown(async () => { await app.close(); await aggregator.stop() })
  return { app, aggregator, beacon, local }
}

t.test('GET /api/health: the contract fields and types', async (t) => {
  const { app } = await setup(t)
  const res = await app.inject({ method: 'GET', url: '/api/health' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /application\/json/)
  const h = res.json()
  t.equal(h.status, 'ok')
  t.type(h.uptime_seconds, 'number')
  t.same(h.pool, { available_bytes: 32768, capacity: 65536, fill_percent: 50 })
  t.equal(h.last_fill.source, 'aggregator:beacon-default+self-hosted')
  t.equal(h.last_fill.round, 77)
  t.ok(!Number.isNaN(Date.parse(h.last_fill.filled_at)) && h.last_fill.filled_at.endsWith('Z'), 'filled_at is ISO 8601')
  t.equal(h.source, 'aggregator:beacon-default+self-hosted')
  t.equal(h.device, 'fake beacon-default xor fake self-hosted')
  t.equal(h.reason, null)
  t.equal(h.min_quorum, 1)
  t.same(h.sources.map((s: { id: string; ok: boolean }) => [s.id, s.ok]), [['beacon-default', true], ['self-hosted', true]])
})

t.test('GET /api/random/bytes and /hex: the mixed pool, consumed in order, never twice', async (t) => {
  const { app } = await setup(t)
  const expected = Buffer.from(xorMix([knownStream('beacon-default').next(32768), knownStream('self-hosted').next(32768)]))
  const bytes = await app.inject({ method: 'GET', url: '/api/random/bytes?n=32' })
  t.equal(bytes.statusCode, 200)
  t.equal(bytes.headers['content-type'], 'application/octet-stream')
  t.equal(bytes.headers['cache-control'], 'no-store')
  t.equal(bytes.headers['x-entropy-source'], 'aggregator:beacon-default+self-hosted')
  t.same(bytes.rawPayload, expected.subarray(0, 32))

  // SPEC 4.6: the hex text itself (what curl and other aggregators read)
  const hex = await app.inject({ method: 'GET', url: '/api/random/hex?n=16' })
  t.equal(hex.statusCode, 200)
  t.equal(hex.headers['content-type'], 'text/plain; charset=utf-8')
  t.equal(hex.headers['cache-control'], 'no-store')
  t.equal(hex.headers['x-entropy-source'], 'aggregator:beacon-default+self-hosted')
  t.equal(hex.payload, expected.subarray(32, 48).toString('hex'))
  const browser = await app.inject({ method: 'GET', url: '/api/random/hex?n=16', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
  t.equal(browser.payload, expected.subarray(48, 64).toString('hex'), 'a wildcard gets the text too')
  const both = await app.inject({ method: 'GET', url: '/api/random/hex?n=16', headers: { accept: 'text/plain, application/json' } })
  t.match(both.headers['content-type'], /^text\/plain/, 'text wins when both are named')

  // a client that asks for JSON alone still gets the object
  const json = await app.inject({ method: 'GET', url: '/api/random/hex?n=16', headers: { accept: 'application/json' } })
  t.match(json.headers['content-type'], /^application\/json/)
  t.same(json.json(), { n: 16, hex: expected.subarray(80, 96).toString('hex'), source: 'aggregator:beacon-default+self-hosted', device: 'fake beacon-default xor fake self-hosted' })

  const again = await app.inject({ method: 'GET', url: '/api/random/bytes?n=32' })
  t.same(again.rawPayload, expected.subarray(96, 128), 'the next request gets the next bytes, not the same ones')
  const health = (await app.inject({ method: 'GET', url: '/api/health' })).json()
  t.equal(health.pool.available_bytes, 32768 - 128)

  const head = await app.inject({ method: 'HEAD', url: '/api/random/bytes?n=32' })
  t.equal(head.statusCode, 404, 'no HEAD twin that would consume bytes')
  t.equal((await app.inject({ method: 'GET', url: '/api/health' })).json().pool.available_bytes, 32768 - 128)
})

t.test('every bad n is a 400 JSON error and consumes nothing', async (t) => {
  const { app, aggregator } = await setup(t)
  const before = aggregator.pool.available
  const bad = ['', '?n=', '?n=0', '?n=-1', '?n=1.5', '?n=abc', '?n=1e3', '?n=0x10', '?n=%205', '?n=65537', '?n=99999999999', '?n=1&n=2', '?n=NaN', '?n=Infinity']
  for (const q of bad) {
    for (const path of ['/api/random/bytes', '/api/random/hex']) {
      const res = await app.inject({ method: 'GET', url: path + q })
      t.equal(res.statusCode, 400, `${path}${q}`)
      t.match(res.headers['content-type'], /application\/json/)
      const body = res.json()
      t.same(Object.keys(body), ['error'], 'the node\'s one error shape')
      t.match(body.error, /query n (is required|must be)/)
    }
  }
  t.equal(aggregator.pool.available, before)
  const max = await app.inject({ method: 'GET', url: '/api/random/bytes?n=65536' })
  t.equal(max.statusCode, 503, 'n up to the capacity is valid; more than the pool holds now is a temporary 503')
  t.match(max.json().error, /the pool holds 32768 of the 65536 bytes asked/)
})

t.test('below quorum: 503 with the reason, and health says why', async (t) => {
  const { app, aggregator, beacon } = await setup(t, 2)
  beacon.up = false
  await aggregator.runRound('probe')
  for (const path of ['/api/random/bytes?n=64', '/api/random/hex?n=64']) {
    const res = await app.inject({ method: 'GET', url: path })
    t.equal(res.statusCode, 503)
    t.equal(res.headers['retry-after'], '5')
    t.match(res.json(), { error: /^entropy below quorum: 1 of 2 sources answered, min_quorum is 2 \(beacon-default: beacon-default is down\)/ })
  }
  const h = (await app.inject({ method: 'GET', url: '/api/health' })).json()
  t.equal(h.status, 'below_quorum')
  t.match(h.reason, '1 of 2 sources answered, min_quorum is 2')
  t.match(h.sources.find((s: { id: string }) => s.id === 'beacon-default'), { ok: false, last_error: 'beacon-default is down' })

  beacon.up = true
  await aggregator.runRound('probe')
  t.equal((await app.inject({ method: 'GET', url: '/api/random/bytes?n=64' })).statusCode, 200, 'serves again after recovery')
})

t.test('the entropy port answers / with an index, like the dashboard (issue 14 item 14)', async (t) => {
  const { app } = await setup(t)
  const res = await app.inject({ method: 'GET', url: '/' })
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.equal(body.service, 'entropy')
  t.same(body.endpoints, ['/api/health', '/api/random/bytes?n=<1..65536>', '/api/random/hex?n=<1..65536>'])
  t.type(body.status, 'string')
  const before = (await app.inject({ method: 'GET', url: '/api/health' })).json().pool.available_bytes
  await app.inject({ method: 'GET', url: '/' })
  t.equal((await app.inject({ method: 'GET', url: '/api/health' })).json().pool.available_bytes, before, 'the index consumes no bytes')
})

t.test('unknown routes answer 404 JSON', async (t) => {
  const { app } = await setup(t)
  const res = await app.inject({ method: 'GET', url: '/api/random' })
  t.equal(res.statusCode, 404)
  t.same(res.json(), { error: 'no route GET /api/random' })
})
