// min / median / max of measured runs, and ratios of two figures taken run by run.
import type { Stats } from './types.ts'

export function summarize (samples: readonly number[]): Stats {
  if (samples.length === 0) throw new RangeError('no samples to summarize')
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return { min: sorted[0]!, median, max: sorted[sorted.length - 1]!, samples: [...samples] }
}

/** Ratio a[i] / b[i] for every run i: both were measured back to back in run i. */
export function pairedRatios (a: readonly number[], b: readonly number[]): Stats {
  if (a.length !== b.length) throw new RangeError(`runs differ: ${a.length} vs ${b.length}`)
  return summarize(a.map((x, i) => x / b[i]!))
}
