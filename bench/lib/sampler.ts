// Taking samples: a throughput sample runs a batch until a time budget is spent; runs of
// several contenders are interleaved (and their order rotated) so that a noisy neighbour
// slows every contender of a run, not only the one that happened to be measured then.
import { summarize } from './stats.ts'
import type { Stats } from './types.ts'

/** Runs `batch` (which returns how many operations it did) for at least `ms`; ops per second. */
export function rateSample (batch: () => number, ms: number): number {
  let ops = 0
  const started = performance.now()
  let elapsed = 0
  do {
    ops += batch()
    elapsed = performance.now() - started
  } while (elapsed < ms)
  return ops * 1000 / elapsed
}

export type Contender<T = number> = () => T | Promise<T>

export interface InterleaveOptions {
  runs: number
  /** warm-up rounds measured but thrown away (JIT tiers, caches, worker start) */
  warmup?: number
  onRound?: (round: number, total: number) => void
}

/**
 * Rounds for `interleave` when a family takes `perRun` rounds for each of the bench's runs:
 * goals near their threshold whose single samples a disturbed moment moves take the median of
 * more pairs. A quick run keeps one round a run.
 */
export function roundsFor (ctx: { runs: number; quick: boolean }, perRun: number): number {
  return ctx.quick ? ctx.runs : ctx.runs * perRun
}

/**
 * Samples every contender once per round, rotating which goes first, for warm-up + runs
 * rounds. Returns each contender's samples of the measured rounds, in round order, so that
 * sample i of two contenders come from the same round.
 */
export async function interleave<K extends string, T = number> (contenders: Record<K, Contender<T>>, opts: InterleaveOptions): Promise<Record<K, T[]>> {
  const names = Object.keys(contenders) as K[]
  const warmup = opts.warmup ?? 1
  const total = warmup + opts.runs
  const out = Object.fromEntries(names.map((n) => [n, [] as T[]])) as Record<K, T[]>
  for (let round = 0; round < total; round++) {
    opts.onRound?.(round, total)
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round) % names.length]!
      const value = await contenders[name]()
      if (round >= warmup) out[name].push(value)
    }
  }
  return out
}

export function statsOf<K extends string> (samples: Record<K, number[]>): Record<K, Stats> {
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v as number[])])) as Record<K, Stats>
}

/** rateSample for a batch that must be awaited. */
export async function asyncRateSample (batch: () => Promise<number>, ms: number): Promise<number> {
  let ops = 0
  const started = performance.now()
  let elapsed = 0
  do {
    ops += await batch()
    elapsed = performance.now() - started
  } while (elapsed < ms)
  return ops * 1000 / elapsed
}
