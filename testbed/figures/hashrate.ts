// The miners' measured hash rate: each node's hash counter (MinerService.hashesTried, read by the
// probe every poll and added up over the node's restarts by the collector) turned into mean rates
// over any span. So a hash-rate step is a measured figure, not assumed from the miners stopped.
import type { HashSample, Recording } from './recording.ts'

/** the node's hash count at `t` (ms), linear between the samples around it; clamped to the first
 *  and last sample (a node hashes nothing the recording did not see) */
export function hashesAt (samples: readonly HashSample[], t: number): number | null {
  const first = samples[0]
  const last = samples.at(-1)
  if (first === undefined || last === undefined) return null
  if (t <= first.t) return first.hashes
  if (t >= last.t) return last.hashes
  let lo = 0
  let hi = samples.length - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if ((samples[mid] as HashSample).t <= t) lo = mid
    else hi = mid
  }
  const a = samples[lo] as HashSample
  const b = samples[hi] as HashSample
  return b.t === a.t ? b.hashes : a.hashes + (b.hashes - a.hashes) * (t - a.t) / (b.t - a.t)
}

/** one node's mean hashes per second over [from, to) (ms); null without samples */
export function nodeHashRate (samples: readonly HashSample[], from: number, to: number): number | null {
  if (to <= from) return null
  const a = hashesAt(samples, from)
  const b = hashesAt(samples, to)
  return a === null || b === null ? null : (b - a) * 1000 / (to - from)
}

/** the network's mean hashes per second over [from, to) (ms): the sum over every node with hash
 *  samples; null when the recording has none (made before the probe read the counter) */
export function networkHashRate (rec: Recording, from: number, to: number): number | null {
  let sum: number | null = null
  for (const n of rec.nodes) {
    const r = n.hashes === undefined ? null : nodeHashRate(n.hashes, from, to)
    if (r !== null) sum = (sum ?? 0) + r
  }
  return sum
}

/** mean rates over consecutive `bucketMs` spans from `from` to `to`: [ms at the span's end, hashes/s] */
export function hashRateSeries (rate: (a: number, b: number) => number | null, from: number, to: number, bucketMs = 10_000): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (let a = from; a + bucketMs <= to; a += bucketMs) {
    const r = rate(a, a + bucketMs)
    if (r !== null) out.push([a + bucketMs, r])
  }
  return out
}

export const formatHashRate = (h: number | null): string => h === null ? '-' : h >= 1e6 ? `${(h / 1e6).toFixed(2)} MH/s` : `${(h / 1e3).toFixed(0)} kH/s`
