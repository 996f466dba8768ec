// Small statistics over samples: quantiles by linear interpolation, mean, standard deviation.

export interface Summary { n: number; p50: number | null; p95: number | null; max: number | null; mean: number | null }

export function quantile (sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  const a = sorted[lo] as number
  const b = sorted[hi] as number
  return a + (b - a) * (pos - lo)
}

export function mean (xs: readonly number[]): number | null {
  return xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length
}

/** population standard deviation */
export function stddev (xs: readonly number[]): number | null {
  const m = mean(xs)
  if (m === null) return null
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length)
}

export function summarize (xs: readonly number[]): Summary {
  const sorted = [...xs].sort((a, b) => a - b)
  return { n: sorted.length, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.length === 0 ? null : sorted[sorted.length - 1] as number, mean: mean(sorted) }
}
