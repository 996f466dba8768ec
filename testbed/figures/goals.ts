// Issue 28's goals as named figures, each with its goal and a verdict: the block interval against
// the target and an exponential's spread, recovery after a hash-rate step, stale rate over its
// physical floor, propagation over hops × latency, compact blocks rebuilt without a round trip,
// and the bytes relaying a block or a transaction sent (relay-bytes.ts). Pure functions over a
// Recording (and the figures already made from it), so a report.json is judged again after a
// change here.
import type { Mark, Recording } from './recording.ts'
import { intervalSeries, staleRate } from './blocks.ts'
import type { Interval, PropagationFigures } from './blocks.ts'
import { hopDistances } from '../topology.ts'
import { mean, quantile, stddev } from './stats.ts'
import type { CompactRelayCounts } from '../../core/kernel/services.ts'
import { formatHashRate, networkHashRate } from './hashrate.ts'
import { blockBytesGoal, txBytesGoal } from './relay-bytes.ts'
import type { BlockBytesGoal, TxBytesGoal } from './relay-bytes.ts'

export { blockBytesGoal, txBytesGoal }
export type { BlockBytesGoal, TxBytesGoal }

export type Verdict = 'met' | 'missed' | 'not measured'

export interface GoalFigure {
  /** the figure, as issue 28's Goals table names it */
  name: string
  /** the goal, in words */
  goal: string
  /** the figure's value (a ratio or a count; null: not measured) */
  value: number | null
  /** the value as the table prints it, with what it was made of */
  measured: string
  verdict: Verdict
  /** why the verdict is what it is, or what limits it (samples, approximations) */
  note: string
  /** more lines the table prints under it (a second view of the same figure) */
  lines?: string[]
}

/** The intervals of the first WARMUP_BLOCKS blocks of a run are left out of the interval goal:
 *  the retarget moves at most ×2 per 10 blocks, so from a starting target up to 16× off (a
 *  one-thread miner on a loaded machine against testnet's 2^26 hashes) it has come within the
 *  band by the 40th block. */
export const WARMUP_BLOCKS = 40
/** the rolling window of the recovery figure: the retarget's cadence */
export const ROLLING_BLOCKS = 10
/** "back inside" means the rolling mean interval within these multiples of the target */
export const RECOVERY_BAND: readonly [number, number] = [0.8, 1.25]
export const RECOVERY_GOAL_BLOCKS = 40
/** the network's hash rate is measured as the mean over this long before and after the step */
export const HASH_RATE_WINDOW_MS = 120_000
/** a measured step ratio outside this is not the halving the goal names */
export const HALVING_BAND: readonly [number, number] = [0.4, 0.6]

const x = (v: number | null, digits = 2): string => v === null ? '-' : `${v.toFixed(digits)}×`
const pct = (v: number): string => `${(v * 100).toFixed(2)}%`
const inside = (v: number, [lo, hi]: readonly [number, number]): boolean => v >= lo && v <= hi

export interface IntervalGoal extends GoalFigure {
  warmupBlocks: number
  n: number
  meanOverTarget: number | null
  /** σ over the mean: an exponential's σ equals its mean, so 1 is memoryless mining */
  sigmaOverExponential: number | null
}

/** mean interval / target and σ / an exponential's σ (its mean), over the blocks after the warm-up */
export function intervalGoal (series: readonly Interval[], targetSeconds: number, warmupBlocks = WARMUP_BLOCKS): IntervalGoal {
  const xs = series.slice(warmupBlocks).map((i) => i.seconds)
  const m = mean(xs)
  const s = stddev(xs)
  const meanOverTarget = m === null ? null : m / targetSeconds
  const sigmaOverExponential = m === null || s === null || m === 0 ? null : s / m
  const base = { name: 'mean block interval / target; σ / exponential σ', goal: '0.9–1.1×, σ within 1.25× of an exponential\'s', warmupBlocks, n: xs.length, meanOverTarget, sigmaOverExponential, value: meanOverTarget }
  if (meanOverTarget === null || sigmaOverExponential === null || xs.length < 2) {
    return { ...base, measured: `- (${series.length} intervals, warm-up ${warmupBlocks})`, verdict: 'not measured', note: `fewer than ${warmupBlocks + 2} blocks in the run` }
  }
  const ok = inside(meanOverTarget, [0.9, 1.1]) && inside(sigmaOverExponential, [1 / 1.25, 1.25])
  return {
    ...base,
    measured: `${x(meanOverTarget)} (mean ${m?.toFixed(2)} s), σ ${x(sigmaOverExponential)} of an exponential's; n=${xs.length} after a ${warmupBlocks}-block warm-up`,
    verdict: ok ? 'met' : 'missed',
    note: xs.length < 200 ? `${xs.length} intervals, not the goal's 200: the mean's own noise is ±${(100 / Math.sqrt(xs.length)).toFixed(0)}% (1σ)` : ''
  }
}

/** the rolling mean of `window` intervals ending at each index from window − 1 on */
export function rollingMeans (xs: readonly number[], window: number): number[] {
  const out: number[] = []
  let sum = 0
  for (let i = 0; i < xs.length; i++) {
    sum += xs[i] as number
    if (i >= window) sum -= xs[i - window] as number
    if (i >= window - 1) out.push(sum / window)
  }
  return out
}

export interface RecoveryGoal extends GoalFigure {
  /** blocks after the step until the rolling mean (all of its window after the step) was back inside the band */
  blocks: number | null
  /** mean interval of the last ROLLING_BLOCKS before the step and the first ROLLING_BLOCKS after it, over the target */
  beforeOverTarget: number | null
  afterOverTarget: number | null
  /** the largest rolling mean after the step, over the target: did it leave the band at all */
  peakOverTarget: number | null
  /** the mean interval over the target of each run of ROLLING_BLOCKS blocks after the step (does it stay back) */
  byTens: number[]
  /** the network's measured hash rate (hashes/s) in the HASH_RATE_WINDOW_MS before and after the
   *  step (less where the run's start or the next step is nearer), and after over before: the step that really happened (null: no hash counts recorded) */
  hashRateBefore: number | null
  hashRateAfter: number | null
  hashRateRatio: number | null
}

/** the network's measured hash rate around a step: means over the window before and after it */
export interface HashRateStep { before: number | null; after: number | null; beforeSeconds: number; afterSeconds: number }

/** the hash rate around the step at `stepT` (ms, the recording's clock): the window before it
 *  (from the run's start at the earliest) and after it (up to `untilT`, the next step or the end) */
export function hashRateStep (rec: Recording, stepT: number, untilT: number, windowMs = HASH_RATE_WINDOW_MS): HashRateStep {
  const from = Math.max(rec.start, stepT - windowMs)
  const to = Math.min(untilT, rec.end, stepT + windowMs)
  return { before: networkHashRate(rec, from, stepT), after: networkHashRate(rec, stepT, to), beforeSeconds: (stepT - from) / 1000, afterSeconds: (to - stepT) / 1000 }
}

/** the first `mining … off` step: when the network's hash rate drops */
export function hashRateDrop (marks: readonly Mark[]): Mark | null {
  return marks.find((m) => m.kind === 'mining' && / off /.test(` ${m.label} `)) ?? null
}

/** blocks until the rolling interval is back inside 0.8–1.25× the target after the step at `stepMs`
 *  (ms after the run's start), counting the intervals that ended before `untilMs` (the next step) */
export function recoveryGoal (series: readonly Interval[], targetSeconds: number, stepMs: number | null, untilMs = Infinity, window = ROLLING_BLOCKS, hashRate: HashRateStep = { before: null, after: null, beforeSeconds: 0, afterSeconds: 0 }): RecoveryGoal {
  const hashRateRatio = hashRate.before === null || hashRate.after === null || hashRate.before === 0 ? null : hashRate.after / hashRate.before
  const base = { name: 'after the network\'s hash rate halves', goal: `back inside ${RECOVERY_BAND[0]}–${RECOVERY_BAND[1]}× within ${RECOVERY_GOAL_BLOCKS} blocks`, hashRateBefore: hashRate.before, hashRateAfter: hashRate.after, hashRateRatio }
  const none = { blocks: null, beforeOverTarget: null, afterOverTarget: null, peakOverTarget: null, byTens: [], value: null }
  if (stepMs === null) return { ...base, ...none, measured: '-', verdict: 'not measured', note: 'no `mining … off` step in this run' }
  const before = series.filter((i) => i.atMs < stepMs).slice(-window).map((i) => i.seconds)
  const after = series.filter((i) => i.atMs >= stepMs && i.atMs < untilMs).map((i) => i.seconds)
  const rolling = rollingMeans(after, window).map((v) => v / targetSeconds)
  const back = rolling.findIndex((v) => inside(v, RECOVERY_BAND))
  const blocks = back < 0 ? null : back + window
  const beforeOverTarget = before.length === 0 ? null : (mean(before) as number) / targetSeconds
  const afterOverTarget = after.length === 0 ? null : (mean(after.slice(0, window)) as number) / targetSeconds
  const peakOverTarget = rolling.length === 0 ? null : Math.max(...rolling)
  const byTens: number[] = []
  for (let i = 0; i + window <= after.length; i += window) byTens.push((mean(after.slice(i, i + window)) as number) / targetSeconds)
  const left = peakOverTarget !== null && peakOverTarget > RECOVERY_BAND[1]
  const step = hashRateRatio === null ? 'hash rate not recorded' : `hash rate ${formatHashRate(hashRate.before)} → ${formatHashRate(hashRate.after)} (${x(hashRateRatio)}; means over the ${Math.round(hashRate.beforeSeconds)} s before the step and the ${Math.round(hashRate.afterSeconds)} s after it)`
  const measured = `${blocks === null ? `not back in ${after.length} blocks` : `${blocks} blocks`}; ${step}; interval ${x(beforeOverTarget)} of target in the ${window} blocks before the step; by ${window}s after it ${byTens.map((v) => x(v)).join(' · ')}; rolling peak ${x(peakOverTarget)}`
  if (rolling.length === 0) return { ...base, ...none, beforeOverTarget, afterOverTarget, measured, verdict: 'not measured', note: `fewer than ${window} blocks between the step and the next` }
  const note = [
    hashRateRatio !== null && !inside(hashRateRatio, HALVING_BAND) ? `not a halving: the measured hash rate went to ${x(hashRateRatio)} of what it was (give the miners a duty that sums under the free cores: the scenario's mineDuty)` : '',
    left ? '' : `the rolling interval never left the band after the step: the hash rate fell less than the band (the ${window}-block rolling mean of an exponential has σ ≈ ${(100 / Math.sqrt(window)).toFixed(0)}%)`,
    beforeOverTarget !== null && !inside(beforeOverTarget, RECOVERY_BAND) ? 'the interval was outside the band before the step: the retarget had not settled' : ''
  ].filter((s) => s !== '').join('; ')
  return { ...base, blocks, beforeOverTarget, afterOverTarget, peakOverTarget, byTens, value: blocks, measured, verdict: blocks !== null && blocks <= RECOVERY_GOAL_BLOCKS ? 'met' : 'missed', note }
}

/** one-way latency between miners: the mean over miner pairs of their hop distance × the link latency (ms) */
export function minerLatencyMs (rec: Recording, latencyMs: number): number | null {
  const miners = rec.nodes.filter((n) => n.miner).map((n) => n.index)
  const ds: number[] = []
  for (const [k, a] of miners.entries()) {
    const hops = hopDistances(rec.links, rec.nodes.length, a)
    for (const b of miners.slice(k + 1)) {
      const h = hops[b] ?? Infinity
      if (Number.isFinite(h)) ds.push(h * latencyMs)
    }
  }
  return mean(ds)
}

export interface StaleGoal extends GoalFigure { rate: number | null; floor: number | null; minerLatencyMs: number | null }

/** stale rate over 1 − e^(−d/T): d the one-way latency between miners, T the target */
export function staleGoal (rec: Recording, latencyMs: number | null): StaleGoal {
  const base = { name: 'stale rate / physical floor 1 − e^(−d/T)', goal: '≤ 1.5×' }
  const s = staleRate(rec)
  const d = latencyMs === null ? null : minerLatencyMs(rec, latencyMs)
  if (s.rate === null || d === null || d === 0) {
    return { ...base, rate: s.rate, floor: null, minerLatencyMs: d, value: null, measured: '-', verdict: 'not measured', note: latencyMs === null ? 'the recording holds no link latency' : 'needs two miners on linked nodes, zero-latency links give no floor' }
  }
  const floor = 1 - Math.exp(-d / 1000 / rec.targetSeconds)
  const ratio = s.rate / floor
  const expected = floor * s.mined
  return {
    ...base,
    rate: s.rate,
    floor,
    minerLatencyMs: d,
    value: ratio,
    measured: `${x(ratio)}: ${s.stale} stale of ${s.mined} mined (${pct(s.rate)}) over a floor of ${pct(floor)} (d = ${d.toFixed(0)} ms, T = ${rec.targetSeconds} s)`,
    verdict: ratio <= 1.5 ? 'met' : 'missed',
    note: expected < 10 ? `the floor expects ${expected.toFixed(1)} stale blocks in ${s.mined}: one stale block more or less moves the ratio by ${x(1 / expected)}` : ''
  }
}

export interface PropagationGoal extends GoalFigure { p95: number | null; n: number }

/** p95 over blocks of (time to reach every node) / (the miner's hops to its farthest node × link latency) */
export function propagationGoal (rec: Recording, prop: PropagationFigures, latencyMs: number | null): PropagationGoal {
  const base = { name: 'time for a block to reach every node / (hops on the longest path × link latency), p95', goal: '≤ 1.5×' }
  if (latencyMs === null || latencyMs === 0) return { ...base, p95: null, n: 0, value: null, measured: '-', verdict: 'not measured', note: 'the recording holds no (non-zero) link latency' }
  const farthest = new Map<number, number>()
  const ratios: number[] = []
  for (const b of prop.toAllBlocks ?? []) {
    let hops = farthest.get(b.miner)
    if (hops === undefined) {
      hops = Math.max(0, ...hopDistances(rec.links, rec.nodes.length, b.miner).filter((h) => Number.isFinite(h)))
      farthest.set(b.miner, hops)
    }
    if (hops > 0) ratios.push(b.ms / (hops * latencyMs))
  }
  const p95 = quantile([...ratios].sort((a, b) => a - b), 0.95)
  if (p95 === null) return { ...base, p95, n: 0, value: null, measured: '-', verdict: 'not measured', note: 'no block reached every node outside a fault window' }
  const hopsSeen = [...new Set(farthest.values())].sort((a, b) => a - b).join('/')
  return {
    ...base,
    p95,
    n: ratios.length,
    value: p95,
    measured: `${x(p95)} (p95 of ${ratios.length} blocks; ${hopsSeen} hops × ${latencyMs} ms; to every node p95 ${prop.toAll.p95?.toFixed(0) ?? '-'} ms)`,
    verdict: p95 <= 1.5 ? 'met' : 'missed',
    note: ''
  }
}

export interface CompactGoal extends GoalFigure { counts: CompactRelayCounts | null }

/** compact blocks rebuilt from the mempool alone, over all compact blocks every node received */
export function compactGoal (rec: Recording): CompactGoal {
  const base = { name: 'blocks rebuilt with no extra round trip', goal: '≥ 90%' }
  if (rec.nodes.every((n) => n.compact === undefined)) return { ...base, counts: null, value: null, measured: '-', verdict: 'not measured', note: 'the recording holds no compact-block counts (made before the probe read them)' }
  const c = rec.nodes.reduce<CompactRelayCounts>((s, n) => ({ rebuilt: s.rebuilt + (n.compact?.rebuilt ?? 0), withRequest: s.withRequest + (n.compact?.withRequest ?? 0), wholeBlock: s.wholeBlock + (n.compact?.wholeBlock ?? 0) }), { rebuilt: 0, withRequest: 0, wholeBlock: 0 })
  const total = c.rebuilt + c.withRequest + c.wholeBlock
  if (total === 0) return { ...base, counts: c, value: null, measured: '-', verdict: 'not measured', note: 'no compact block was received' }
  const share = c.rebuilt / total
  return {
    ...base,
    counts: c,
    value: share,
    measured: `${pct(share)} (${c.rebuilt} rebuilt alone, ${c.withRequest} after a request, ${c.wholeBlock} whole, over every node)`,
    verdict: share >= 0.9 ? 'met' : 'missed',
    note: 'counted by each node since it started (a restarted node counts again from an empty mempool)'
  }
}

export interface Goals {
  interval: IntervalGoal
  recovery: RecoveryGoal
  stale: StaleGoal
  propagation: PropagationGoal
  compact: CompactGoal
  blockBytes: BlockBytesGoal
  txBytes: TxBytesGoal
}

/** in issue 28's order */
export function goalList (g: Goals): GoalFigure[] {
  return [g.interval, g.recovery, g.stale, g.propagation, g.blockBytes, g.compact, g.txBytes]
}

export function goalFigures (rec: Recording, prop: PropagationFigures, warmupBlocks = WARMUP_BLOCKS): Goals {
  const series = intervalSeries(rec)
  const drop = hashRateDrop(rec.marks)
  const next = drop === null ? undefined : rec.marks.find((m) => m.t > drop.t && ['mining', 'partition', 'kill', 'restart', 'links'].includes(m.kind))
  const latency = rec.latencyMs ?? null
  return {
    interval: intervalGoal(series, rec.targetSeconds, warmupBlocks),
    recovery: recoveryGoal(series, rec.targetSeconds, drop === null ? null : drop.t - rec.start, next === undefined ? Infinity : next.t - rec.start, ROLLING_BLOCKS,
      drop === null ? undefined : hashRateStep(rec, drop.t, next?.t ?? rec.end)),
    stale: staleGoal(rec, latency),
    propagation: propagationGoal(rec, prop, latency),
    compact: compactGoal(rec),
    blockBytes: blockBytesGoal(rec),
    txBytes: txBytesGoal(rec)
  }
}
