import t from 'tap'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { DrandBeaconSource } from '../../../../plugins/entropy-aggregator/sources/drand-source.ts'
import type { DrandBeacon } from '../../../../plugins/entropy-aggregator/sources/drand-verify.ts'
import { chainConfig, loadFixture, makeAggregator, roundTimeMs, startRelay, FakeSource } from '../helpers.ts'
import type { DrandFixture } from '../helpers.ts'

function source (f: DrandFixture, urls: string[], latest: DrandBeacon, o: { maxAgeSeconds?: number | null; timeoutMs?: number } = {}): DrandBeaconSource {
  return new DrandBeaconSource({
    id: 'beacon-default',
    chain: chainConfig(f, urls),
    timeoutMs: o.timeoutMs ?? 2000,
    maxAgeSeconds: o.maxAgeSeconds === undefined ? 60 : o.maxAgeSeconds,
    // the fixture's latest round was just published
    now: () => roundTimeMs(f, latest.round) + 5000
  })
}

for (const name of ['default', 'quicknet', 'fastnet'] as const) {
  t.test(`${name}: verified beacons from a relay expand into a stream that never repeats`, async (t) => {
    const f = loadFixture(name)
    const relay = await startRelay(f)
    t.teardown(() => relay.close())
    const s = source(f, [relay.url], relay.latest)
    const a = await s.generate(32768)
    t.equal(a.bytes.length, 32768)
    t.equal(a.round, relay.latest.round)
    t.equal(a.source, 'beacon-default')
    const b = await s.generate(64)
    t.notSame(Buffer.from(b.bytes), Buffer.from(a.bytes.subarray(0, 64)), 'the same round continues the stream, it does not restart it')
    t.same(relay.requests, [`/${f.chain.hash}/info`, `/${f.chain.hash}/public/latest`, `/${f.chain.hash}/public/latest`], 'chain info checked once')

    // the output is public: anyone with the beacon derives the same bytes
    const again = await source(f, [relay.url], relay.latest).generate(64)
    t.same(Buffer.from(again.bytes), Buffer.from(a.bytes.subarray(0, 64)))

    relay.latest = f.beacons[f.beacons.length - 2] as DrandBeacon
    await t.rejects(s.generate(64), /older than round/, 'a relay cannot roll the round back')
  })
}

t.test('a relay serving tampered beacons is refused', async (t) => {
  const f = loadFixture('default')
  const good = f.beacons[2] as DrandBeacon
  const relay = await startRelay(f, good)
  t.teardown(() => relay.close())
  const flip = (h: string, i: number): string => { const b = Buffer.from(h, 'hex'); b[i] = (b[i] as number) ^ 0x80; return b.toString('hex') }
  const tampered: Array<[string, DrandBeacon, RegExp]> = [
    ['flipped signature byte', { ...good, signature: flip(good.signature, 60) }, /BLS signature does not verify|malformed signature/],
    ['wrong round', { ...good, round: good.round + 1 }, /BLS signature does not verify/],
    ['wrong previous_signature', { ...good, previous_signature: flip(good.previous_signature as string, 60) }, /BLS signature does not verify|malformed/]
  ]
  for (const [name, beacon, why] of tampered) {
    relay.latest = beacon
    await t.rejects(source(f, [relay.url], good, { maxAgeSeconds: null }).generate(64), why, name)
  }
  relay.latest = good
  const ok = await source(f, [relay.url], good, { maxAgeSeconds: null }).generate(64)
  t.equal(ok.round, good.round, 'the untampered beacon still passes')
})

t.test('a relay whose chain info differs from the configured chain is refused', async (t) => {
  const f = loadFixture('quicknet')
  const relay = await startRelay(f)
  t.teardown(() => relay.close())
  relay.info = { ...relay.info, public_key: loadFixture('fastnet').chain.public_key }
  await t.rejects(source(f, [relay.url], relay.latest).generate(64), /relay chain info public_key .* differs from the configured/)
  relay.info = { ...f.chain, schemeID: 'bls-unchained-on-g1' }
  await t.rejects(source(f, [relay.url], relay.latest).generate(64), /schemeID bls-unchained-on-g1 differs/)
})

t.test('stale beacons are refused by the chain schedule', async (t) => {
  const f = loadFixture('quicknet')
  const relay = await startRelay(f)
  t.teardown(() => relay.close())
  const real = new DrandBeaconSource({ id: 'beacon-fastnet', chain: chainConfig(f, [relay.url]), timeoutMs: 2000, maxAgeSeconds: 300 })
  await t.rejects(real.generate(64), /is \d+ s old \(limit 300 s\): the relay is stale/)
})

t.test('relays: a dead one is skipped, none alive fails within the deadline', async (t) => {
  const f = loadFixture('quicknet')
  const relay = await startRelay(f)
  t.teardown(() => relay.close())
  const dead = http.createServer()
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve))
  const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`
  await new Promise<void>((resolve) => dead.close(() => resolve()))

  const viaSecond = await source(f, [deadUrl, relay.url], relay.latest).generate(64)
  t.equal(viaSecond.round, relay.latest.round)
  await t.rejects(source(f, [deadUrl], relay.latest).generate(64), /drand info: http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/)

  const silent = http.createServer(() => { /* never answers */ })
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { silent.closeAllConnections(); silent.close() })
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
  await t.rejects(source(f, [silentUrl], relay.latest, { timeoutMs: 150 }).generate(64), /no answer within 150 ms/)
})

t.test('in the aggregator: a verified beacon XOR the local source, named by both, round reported', async (t) => {
  const f = loadFixture('default')
  const relay = await startRelay(f)
  t.teardown(() => relay.close())
  const agg = makeAggregator([source(f, [relay.url], relay.latest), new FakeSource('self-hosted')], { minQuorum: 2 })
  await agg.runRound('fill')
  t.equal(agg.status, 'ok')
  const h = agg.health()
  t.equal(h.last_fill.source, 'aggregator:beacon-default+self-hosted')
  t.equal(h.last_fill.round, relay.latest.round)

  relay.latest = { ...relay.latest, randomness: '00'.repeat(32) }
  const report = await agg.runRound('fill')
  t.equal(agg.status, 'below_quorum', 'a beacon that fails verification does not count toward the quorum')
  t.match(report.failed['beacon-default'], /randomness is not sha256/)
})
