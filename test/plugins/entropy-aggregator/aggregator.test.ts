import t from 'tap'
import { FakeSource, knownStream, makeAggregator, until } from './helpers.ts'
import { xorMix } from '../../../plugins/entropy-aggregator/mixer.ts'
import { EntropyError, EntropyErrorCode } from '../../../plugins/entropy-aggregator/errors.ts'

const codeOf = (fn: () => unknown): string | undefined => {
  try { fn() } catch (err) { return err instanceof EntropyError ? err.code : `not an EntropyError: ${String(err)}` }
  return undefined
}

t.test('two sources up: served bytes are the XOR of both, named by both', async (t) => {
  const beacon = new FakeSource('beacon-default')
  const local = new FakeSource('self-hosted')
  beacon.round = 4242
  const agg = makeAggregator([beacon, local], { minQuorum: 2 })
  const report = await agg.runRound('fill')
  t.same(report.answered, ['beacon-default', 'self-hosted'])
  t.equal(report.added, 32768)
  t.equal(agg.status, 'ok')
  const expected = xorMix([knownStream('beacon-default').next(32768), knownStream('self-hosted').next(32768)])
  const draw = agg.take(100)
  t.same(Buffer.from(draw.bytes), Buffer.from(expected.subarray(0, 100)))
  t.equal(draw.source, 'aggregator:beacon-default+self-hosted')
  t.same(draw.rounds, { 'beacon-default': 4242 })
  t.equal(draw.device, 'fake beacon-default xor fake self-hosted')
  const h = agg.health()
  t.equal(h.last_fill.source, 'aggregator:beacon-default+self-hosted')
  t.equal(h.last_fill.round, 4242)
  t.equal(h.pool.available_bytes, 32768 - 100)
})

t.test('one of two up with quorum 2: fails closed, then recovers when the second returns', async (t) => {
  const beacon = new FakeSource('beacon-default')
  const local = new FakeSource('self-hosted')
  const agg = makeAggregator([beacon, local], { minQuorum: 2 })
  const changes: string[] = []
  agg.onStatusChange((s) => changes.push(s))
  await agg.runRound('fill')
  t.equal(agg.status, 'ok')

  beacon.up = false
  const report = await agg.runRound('fill')
  t.equal(report.quorum, false)
  t.same(report.answered, ['self-hosted'])
  t.equal(agg.status, 'below_quorum')
  t.match(agg.reason, '1 of 2 sources answered, min_quorum is 2 (beacon-default: beacon-default is down)')
  t.ok(agg.pool.available > 0, 'the pool still holds bytes …')
  t.equal(codeOf(() => agg.take(64)), EntropyErrorCode.BELOW_QUORUM, '… but nothing is served below quorum')
  await t.rejects(agg.draw(64, 1000), { code: EntropyErrorCode.BELOW_QUORUM }, 'draw fails at once, it does not wait')
  t.equal(report.added, 0, 'a round below quorum adds nothing to the pool')
  t.equal(agg.health().status, 'below_quorum')

  beacon.up = true
  await agg.runRound('probe')
  t.equal(agg.status, 'ok')
  t.equal(agg.reason, null)
  t.equal(agg.take(64).bytes.length, 64)
  t.same(changes, ['ok', 'below_quorum', 'ok'])
})

t.test('the composition names only the sources that actually contributed', async (t) => {
  const beacon = new FakeSource('beacon-default')
  const local = new FakeSource('self-hosted')
  beacon.up = false
  const agg = makeAggregator([beacon, local], { minQuorum: 1, capacity: 40_000, batchBytes: 20_000 })
  await agg.runRound('fill')
  t.equal(agg.status, 'ok')
  t.equal(agg.health().source, 'aggregator:self-hosted')
  const alone = agg.take(64)
  t.equal(alone.source, 'aggregator:self-hosted')
  t.same(Buffer.from(alone.bytes), Buffer.from(knownStream('self-hosted').next(64)), 'with one contributor the bytes are its own output')

  beacon.up = true
  await agg.runRound('fill')
  t.equal(agg.health().source, 'aggregator:beacon-default+self-hosted')
  t.equal(agg.take(20_000 - 64).source, 'aggregator:self-hosted', 'the rest of the first batch is still self-hosted only')
  t.equal(agg.take(64).source, 'aggregator:beacon-default+self-hosted')
})

t.test('a one-source server speaks as that source', async (t) => {
  const agg = makeAggregator([new FakeSource('self-hosted')])
  await agg.runRound('fill')
  t.equal(agg.take(64).source, 'self-hosted')
  t.equal(agg.health().source, 'self-hosted')
})

t.test('background refill below 50%, never above capacity', async (t) => {
  const local = new FakeSource('self-hosted')
  const agg = makeAggregator([local, new FakeSource('beacon-default')], { capacity: 1000, batchBytes: 800 })
  t.teardown(() => agg.stop())
  await agg.start(5000)
  t.equal(agg.pool.available, 800, 'warm-up filled one batch')
  // take() wakes the sleeping task synchronously, and a round asks its sources before its first
  // await: whether a take started a refill is settled by the end of the event loop's turn
  const endOfTurn = async (): Promise<void> => { await new Promise((resolve) => setImmediate(resolve)) }
  await endOfTurn() // the task is asleep until the next probe
  const callsBefore = local.calls
  agg.take(350)
  t.equal(agg.pool.available, 450, 'below the 50% threshold now')
  await endOfTurn()
  t.equal(local.calls, callsBefore + 1, 'the take woke the background task, which asked the sources at once')
  await until(() => agg.pool.available > 450, 5000, 'background refill')
  t.equal(agg.pool.available, 1000, 'refilled, cut at the capacity')
  await endOfTurn()
  const callsFull = local.calls
  agg.take(100)
  await endOfTurn()
  t.equal(local.calls, callsFull, 'above the threshold: the sources were not asked')
  t.equal(agg.pool.available, 900, 'above the threshold: no refill')
})

t.test('bytes are never served twice, across many draws and refills', async (t) => {
  // 16-byte draws from 128-byte batches: each draw lies inside one batch, i.e. one contiguous
  // piece of the source's stream (a fill asks 1 KB and keeps the batch, the rest is dropped)
  const agg = makeAggregator([new FakeSource('self-hosted')], { capacity: 256, batchBytes: 128 })
  t.teardown(() => agg.stop())
  await agg.start(5000)
  const stream = Buffer.from(knownStream('self-hosted').next(200_000))
  const seen = new Set<string>()
  let cursor = 0
  let ordered = 0
  for (let i = 0; i < 150; i++) {
    const chunk = Buffer.from((await agg.draw(16, 5000)).bytes)
    seen.add(chunk.toString('hex'))
    const at = stream.indexOf(chunk, cursor)
    if (at >= cursor) ordered++
    cursor = at + chunk.length
  }
  t.equal(seen.size, 150, 'every draw differs')
  t.equal(ordered, 150, 'each draw comes from the stream after every earlier draw')
  t.ok(cursor > 150 * 16, 'the refills moved through the stream')
})

t.test('a source that answers garbage or too slowly counts as down', async (t) => {
  const stuck = new FakeSource('beacon-fastnet')
  stuck.zeros = true
  const slow = new FakeSource('beacon-default')
  slow.hang = true
  const local = new FakeSource('self-hosted')
  const agg = makeAggregator([stuck, slow, local], { minQuorum: 1, timeoutMs: 100 })
  const report = await agg.runRound('fill')
  t.same(report.answered, ['self-hosted'])
  t.match(report.failed['beacon-fastnet'], /output fails the health check: monobit_ratio 0\.0000/)
  t.equal(report.failed['beacon-default'], 'no answer within 100 ms')
  t.equal(agg.take(64).source, 'aggregator:self-hosted')
  const states = Object.fromEntries(agg.health().sources.map((s) => [s.id, s.ok]))
  t.same(states, { 'beacon-fastnet': false, 'beacon-default': false, 'self-hosted': true })
})

t.test('a failed source is left out until its backoff expires', async (t) => {
  let now = 1_000_000
  const beacon = new FakeSource('beacon-default')
  const local = new FakeSource('self-hosted')
  beacon.up = false
  const agg = makeAggregator([beacon, local], { backoff: { baseMs: 1000, maxMs: 8000 }, now: () => now })
  await agg.runRound('fill')
  t.equal(beacon.calls, 1)
  const second = await agg.runRound('probe')
  t.equal(beacon.calls, 1, 'not asked during its backoff')
  t.match(second.failed['beacon-default'], /beacon-default is down \(retry in 1 s\)/)
  now += 1000
  await agg.runRound('probe')
  t.equal(beacon.calls, 2, 'asked again once due')
  now += 1000
  await agg.runRound('probe')
  t.equal(beacon.calls, 2, 'the second failure doubled the backoff')
  now += 1000
  beacon.up = true
  await agg.runRound('probe')
  t.equal(beacon.calls, 3)
  t.equal(agg.health().sources[0]?.ok, true)
})

t.test('warm-up is bounded; requests before the first round are refused', async (t) => {
  const slow = new FakeSource('beacon-default')
  slow.hang = true
  const agg = makeAggregator([slow], { timeoutMs: 10_000 })
  await agg.start(50)
  t.equal(agg.status, 'warming_up', 'start returned before the round finished')
  t.equal(codeOf(() => agg.take(64)), EntropyErrorCode.WARMING_UP)
  await agg.stop()
  t.equal(agg.status, 'stopped')
  t.equal(codeOf(() => agg.take(64)), EntropyErrorCode.STOPPED)
  t.equal(slow.calls, 1)
})

t.test('pool too low for a draw: bounded wait for the refill, then a clear error', async (t) => {
  const local = new FakeSource('self-hosted')
  const agg = makeAggregator([local], { capacity: 2000, batchBytes: 1000, refillThreshold: 0.1 })
  await agg.runRound('fill')
  t.equal(agg.pool.available, 1000)
  t.equal(codeOf(() => agg.take(1500)), EntropyErrorCode.POOL_LOW)
  local.up = false
  await t.rejects(agg.draw(1500, 100), { code: EntropyErrorCode.POOL_LOW })
  t.equal(codeOf(() => agg.take(2001)), EntropyErrorCode.BAD_REQUEST)
  t.equal(codeOf(() => agg.take(0)), EntropyErrorCode.BAD_REQUEST)
  await agg.stop()
})

t.test('a draw larger than the pool holds waits for the background task to fill it', async (t) => {
  const agg = makeAggregator([new FakeSource('self-hosted')], { capacity: 2000, batchBytes: 1000, refillThreshold: 0.1 })
  t.teardown(() => agg.stop())
  await agg.start(5000)
  t.equal(agg.pool.available, 1000)
  const d = await agg.draw(1500, 5000)
  t.equal(d.bytes.length, 1500)
})

t.test('the constructor refuses impossible settings', async (t) => {
  t.throws(() => makeAggregator([]), /at least one source/)
  t.throws(() => makeAggregator([new FakeSource('self-hosted')], { minQuorum: 2 }), /min_quorum must be 1\.\.1/)
  t.throws(() => makeAggregator([new FakeSource('self-hosted'), new FakeSource('self-hosted')]), /each source may appear once/)
})

t.test('a status listener that throws does not stop the background task', async (t) => {
  const local = new FakeSource('self-hosted')
  const agg = makeAggregator([local], { capacity: 2000, batchBytes: 1000 })
  t.teardown(() => agg.stop())
  agg.onStatusChange(() => { throw new Error('bad subscriber') })
  await agg.start(5000)
  t.equal(agg.status, 'ok')
  agg.take(600)
  await until(() => agg.pool.available === 1400, 5000, 'refill after the throwing listener')
  t.pass('still refilling')
})
