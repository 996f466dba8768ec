// Issue 28's goal figures from hand-made intervals and recordings: every value checked against
// what the inputs say, and each verdict on both sides of its goal.
import t from 'tap'
import { compactGoal, goalFigures, hashRateDrop, hashRateStep, intervalGoal, minerLatencyMs, propagationGoal, recoveryGoal, rollingMeans, staleGoal } from '../../testbed/figures/goals.ts'
import type { Interval, PropagationFigures } from '../../testbed/figures/blocks.ts'
import { computeFigures } from '../../testbed/figures/index.ts'
import { figuresTable } from '../../testbed/report/table.ts'
import type { HashSample, NodeRecord, Recording } from '../../testbed/figures/recording.ts'
import type { ChainBlock, NodeEvent } from '../../testbed/events.ts'
import { seededRandom } from '../helpers/random.ts'

const T0 = 1_000_000
const series = (xs: readonly number[], stepEvery = 5000): Interval[] => xs.map((seconds, i) => ({ height: i + 1, atMs: (i + 1) * stepEvery, seconds }))
const node = (index: number, extra: Partial<NodeRecord> = {}): NodeRecord => ({ index, miner: false, p2pPort: 20_000 + index, events: [], samples: [], exits: [], bytesSent: 0, hashRate: 0, ...extra })
const ring = (n: number): Array<[number, number]> => Array.from({ length: n }, (_, i) => [i, (i + 1) % n])

/** n nodes in a ring, the first `miners` mining; `mined` blocks mined during the run, the final chain the first `kept` of them */
function ringRecording (n: number, miners: number, mined: number, kept: number, extra: Partial<Recording> = {}): Recording {
  const nodes = Array.from({ length: n }, (_, i) => node(i, { miner: i < miners }))
  const chain: ChainBlock[] = [{ height: 0, hash: 'g', previous_hash: '', timestamp: 0, miner: '', txids: [] }]
  for (let h = 1; h <= mined; h++) {
    const ev: NodeEvent = { t: T0 + h * 5000, type: 'block_mined', hash: `b${h}`, height: h }
    nodes[0]?.events.push(ev)
    if (h <= kept) chain.push({ height: h, hash: `b${h}`, previous_hash: h === 1 ? 'g' : `b${h - 1}`, timestamp: (T0 + h * 5000) / 1000, miner: 'm', txids: [] })
  }
  return { scenario: 'hand-made', targetSeconds: 5, latencyMs: 50, start: T0, end: T0 + (mined + 1) * 5000, nodes, links: ring(n), marks: [{ t: T0, kind: 'start', label: 'start' }], finalChain: chain, pending: [], ...extra }
}

t.test('the interval goal: mean over target and σ over the mean, after the warm-up', async (t) => {
  // warm-up of 2 slow blocks left out; then 5, 5, 5, 5: mean 1×, σ 0 (far too regular to be mining)
  const even = intervalGoal(series([40, 30, 5, 5, 5, 5]), 5, 2)
  t.match(even, { n: 4, meanOverTarget: 1, sigmaOverExponential: 0, verdict: 'missed', warmupBlocks: 2 })
  // exponential samples (seeded): mean ≈ σ ≈ the target
  const random = seededRandom(7)
  const expo = Array.from({ length: 4000 }, () => -5 * Math.log(1 - random()))
  const g = intervalGoal(series(expo), 5, 40)
  t.equal(g.n, 3960)
  t.ok(Math.abs((g.meanOverTarget as number) - 1) < 0.05, `mean ${g.meanOverTarget}`)
  t.ok(Math.abs((g.sigmaOverExponential as number) - 1) < 0.05, `σ ${g.sigmaOverExponential}`)
  t.equal(g.verdict, 'met')
  t.equal(g.note, '', 'over 200 samples: no note on their number')
  t.match(intervalGoal(series(expo.slice(0, 140)), 5, 40).note, /100 intervals, not the goal's 200/)
  t.match(intervalGoal(series(expo.map((v) => v * 2)), 5, 40), { verdict: 'missed' }, 'twice the target misses')
  t.match(intervalGoal(series([5, 5]), 5, 40), { verdict: 'not measured', meanOverTarget: null })
})

t.test('rolling means', async (t) => {
  t.same(rollingMeans([1, 2, 3, 4, 5], 2), [1.5, 2.5, 3.5, 4.5])
  t.same(rollingMeans([1], 2), [])
})

t.test('recovery after a hash-rate drop: blocks until the rolling interval is back in the band', async (t) => {
  // 10 blocks at the target (the 10th ends at 50 s), the step at 52 s, then 10 at 2× the target, then back to 1×
  const xs = [...Array(10).fill(5), ...Array(10).fill(10), ...Array(20).fill(5)] as number[]
  const s = series(xs)
  // rolling windows after the step (10 wide): the window ending at post-step block k holds
  // 10 − (k − 10) blocks at 10 s; its mean is within 1.25× (6.25 s) once at most 2 of them are slow
  const g = recoveryGoal(s, 5, 52_000, Infinity, 10)
  t.equal(g.blocks, 18)
  t.equal(g.beforeOverTarget, 1)
  t.equal(g.afterOverTarget, 2)
  t.equal(g.peakOverTarget, 2)
  t.same(g.byTens, [2, 1, 1], 'each 10 blocks after the step, over the target')
  t.match(g.measured, /by 10s after it 2\.00× · 1\.00× · 1\.00×/)
  t.equal(g.verdict, 'met')
  t.equal(g.note, '')
  // the next step bounds what counts: only 15 blocks after the drop, never back
  const cut = recoveryGoal(s, 5, 52_000, 130_000, 10)
  t.match(cut, { blocks: null, verdict: 'missed' })
  t.match(cut.measured, /not back in 15 blocks/)
  // a drop that never takes the rolling interval out of the band is met, with a note saying so
  t.match(recoveryGoal(series(Array(30).fill(5)), 5, 50_000), { blocks: 10, verdict: 'met', note: /never left the band/ })
  t.match(recoveryGoal(s, 5, null), { verdict: 'not measured' })
  t.match(recoveryGoal(s, 5, 190_000), { verdict: 'not measured' }, 'fewer than a window after the step')
  t.equal(hashRateDrop([{ t: 1, kind: 'mining', label: '+30 s mining on on nodes 2' }, { t: 2, kind: 'mining', label: '+40 s mining off on nodes 2,3' }])?.t, 2)
  t.equal(hashRateDrop([{ t: 1, kind: 'kill', label: 'off' }]), null)
})

/** a hash counter sampled every 2 s from T0 for `seconds`, hashing at `rate(sec)` per second */
function counter (seconds: number, rate: (sec: number) => number): HashSample[] {
  const out: HashSample[] = []
  for (let s = 0, hashes = 0; s <= seconds; hashes += rate(s) * 2, s += 2) out.push({ t: T0 + s * 1000, hashes })
  return out
}

t.test('the recovery figure prints the hash-rate step measured from the miners\' counters', async (t) => {
  const s = series([...Array(10).fill(5), ...Array(10).fill(10), ...Array(20).fill(5)] as number[])
  const halved = recoveryGoal(s, 5, 52_000, Infinity, 10, { before: 4_000_000, after: 2_000_000, beforeSeconds: 120, afterSeconds: 120 })
  t.match(halved, { blocks: 18, hashRateBefore: 4e6, hashRateAfter: 2e6, hashRateRatio: 0.5, verdict: 'met', note: '' })
  t.match(halved.measured, /^18 blocks; hash rate 4\.00 MH\/s → 2\.00 MH\/s \(0\.50×; means over the 120 s before the step and the 120 s after it\)/)
  const weak = recoveryGoal(s, 5, 52_000, Infinity, 10, { before: 4e6, after: 3.2e6, beforeSeconds: 120, afterSeconds: 120 })
  t.match(weak.note, /^not a halving: the measured hash rate went to 0\.80× of what it was/, 'a step that is no halving says so')
  t.match(recoveryGoal(s, 5, 52_000), { hashRateRatio: null, measured: /hash rate not recorded/ }, 'a recording without counts')

  // 4 miners at 1 kH/s; 2 and 3 stop at 150 s; the run ends at 305 s
  const rec = ringRecording(6, 4, 60, 60)
  const step = T0 + 150_000
  rec.marks.push({ t: step, kind: 'mining', label: '+150 s mining off on nodes 2,3', nodes: [2, 3] })
  rec.nodes.forEach((n, i) => { n.hashes = counter(305, (sec) => i >= 4 || (i >= 2 && sec >= 150) ? 0 : 1000) })
  t.same(hashRateStep(rec, step, rec.end), { before: 4000, after: 2000, beforeSeconds: 120, afterSeconds: 120 }, 'means over the 120 s each side')
  t.same(hashRateStep(rec, step, step + 60_000), { before: 4000, after: 2000, beforeSeconds: 120, afterSeconds: 60 }, 'the next step ends the after window')
  t.match(hashRateStep(rec, T0 + 30_000, rec.end), { before: 4000, beforeSeconds: 30 }, 'the before window starts no earlier than the run')
  const f = computeFigures(rec)
  t.match(f.goals.recovery, { hashRateBefore: 4000, hashRateAfter: 2000, hashRateRatio: 0.5 })
  t.match(figuresTable(f), /after the network's hash rate halves[^\n]*\n[^\n]*hash rate 4 kH\/s → 2 kH\/s \(0\.50×; means over the 120 s before the step and the 120 s after it\)/)
})

t.test('stale rate over the floor 1 − e^(−d/T), d from the miners\' hops × the latency', async (t) => {
  // a ring of 6 with miners 0, 1, 2: pairs at 1, 1 and 2 hops → d = 4/3 × 50 ms
  const rec = ringRecording(6, 3, 100, 98)
  t.equal(minerLatencyMs(rec, 50), 200 / 3)
  const g = staleGoal(rec, 50)
  const floor = 1 - Math.exp(-(200 / 3) / 1000 / 5)
  t.equal(g.floor, floor)
  t.equal(g.rate, 0.02)
  t.equal(g.value, 0.02 / floor)
  t.equal(g.verdict, 'missed', `2% over a ${(floor * 100).toFixed(2)}% floor is over 1.5×`)
  t.match(g.note, /the floor expects 1\.3 stale blocks in 100/)
  t.match(staleGoal(ringRecording(6, 3, 100, 100), 50), { value: 0, verdict: 'met' })
  t.match(staleGoal(ringRecording(6, 1, 100, 100), 50), { verdict: 'not measured' }, 'one miner: no floor')
  t.match(staleGoal(rec, null), { verdict: 'not measured', note: /no link latency/ })
})

t.test('propagation over hops × latency: p95 of each block\'s own ratio', async (t) => {
  const rec = ringRecording(6, 3, 0, 0)
  const prop = { toAllBlocks: Array.from({ length: 20 }, (_, i) => ({ miner: i % 3, ms: 150 + i * 10 })), toAll: { n: 20, p50: 0, p95: 330, max: 340, mean: 0 } } as unknown as PropagationFigures
  const g = propagationGoal(rec, prop, 50)
  // in a ring of 6 every node's farthest node is 3 hops away: ratios (150 … 340) / 150
  t.equal(g.n, 20)
  t.ok(Math.abs((g.p95 as number) - 330.5 / 150) < 1e-9, `p95 ${g.p95}`)
  t.equal(g.verdict, 'missed')
  t.match(propagationGoal(rec, { ...prop, toAllBlocks: [{ miner: 0, ms: 200 }] }, 50), { p95: 200 / 150, verdict: 'met' })
  t.match(propagationGoal(rec, prop, null), { verdict: 'not measured' })
})

t.test('compact blocks rebuilt alone, summed over nodes', async (t) => {
  const rec = ringRecording(3, 1, 0, 0)
  t.match(compactGoal(rec), { verdict: 'not measured', note: /no compact-block counts/ })
  rec.nodes[1] = { ...(rec.nodes[1] as NodeRecord), compact: { rebuilt: 17, withRequest: 1, wholeBlock: 0 } }
  rec.nodes[2] = { ...(rec.nodes[2] as NodeRecord), compact: { rebuilt: 10, withRequest: 1, wholeBlock: 1 } }
  t.match(compactGoal(rec), { value: 27 / 30, verdict: 'met', counts: { rebuilt: 27, withRequest: 2, wholeBlock: 1 } })
  rec.nodes[2] = { ...(rec.nodes[2] as NodeRecord), compact: { rebuilt: 9, withRequest: 2, wholeBlock: 1 } }
  t.match(compactGoal(rec), { value: 26 / 30, verdict: 'missed' })
})

t.test('the goals in the figures and the table', async (t) => {
  const rec = ringRecording(6, 3, 60, 60)
  rec.nodes[3] = { ...(rec.nodes[3] as NodeRecord), compact: { rebuilt: 5, withRequest: 0, wholeBlock: 0 } }
  const f = computeFigures(rec)
  t.equal(f.goals.interval.n, 59 - 40, 'intervals of blocks made in the run, after the warm-up')
  t.match(f.goals, { recovery: { verdict: 'not measured' }, compact: { verdict: 'met' }, stale: { value: 0 } })
  t.same(goalFigures(rec, f.propagation, 0).interval.n, 59)
  const table = figuresTable(f)
  t.match(table, /issue 28 goals \(interval warm-up: the first 40 blocks of the run\)/)
  t.match(table, /MET\s+blocks rebuilt with no extra round trip \(goal ≥ 90%\)/)
  t.match(table, /MISSED mean block interval \/ target/, 'exactly 5 s apart: σ 0 is no exponential')
  t.match(table, /n\/m\s+after the network's hash rate halves/)
})
