// Health statistics of an entropy sample, as carried in the attestation envelope
// (DESIGN 3: health = {monobit_ratio, fano_factor, pool_size, timestamp}). The chain accepts
// monobit_ratio in [0.40, 0.60] and fano_factor in [0.5, 1.5]; both statistics are defined so
// that uniformly random bytes land near the middle of those bounds even for the 64 bytes a
// miner draws per block (see docs/entropy.md for the measured spread).

/** Bits per counting window of the Fano factor. */
export const FANO_WINDOW_BITS = 2

const ONES = new Uint8Array(256).map((_, v) => {
  let c = 0
  for (let x = v; x !== 0; x >>= 1) c += x & 1
  return c
})

/** Fraction of one bits: 0.5 for unbiased data. An empty sample has no defined ratio: 0. */
export function monobitRatio (bytes: Uint8Array): number {
  if (bytes.length === 0) return 0
  let ones = 0
  for (const b of bytes) ones += ONES[b] as number
  return ones / (bytes.length * 8)
}

/**
 * Fano factor of the count of one bits per 2-bit window, relative to independent bits.
 *
 * A raw Fano factor (variance / mean) of a binomial count over w bits is 1 − p, i.e. 0.5 for
 * fair bits, whatever w. Dividing by the observed (1 − p̂) gives the index of dispersion
 * relative to a binomial: 1.0 for independent fair bits, above 1 when neighbouring bits agree
 * too often (clumping: 00/11 runs), below 1 when they alternate too regularly (0101…). The
 * 2-bit window keeps 4 windows per byte, so the estimate is tight on a 64-byte sample
 * (standard deviation ≈ 0.063, the bounds are ±8σ away) and on 32 KB (≈ 0.003).
 *
 * Degenerate samples (no ones, no zeros, or fewer than two windows) have no dispersion to
 * measure and return 0, which every bound rejects.
 */
export function fanoFactor (bytes: Uint8Array): number {
  const windowsPerByte = 8 / FANO_WINDOW_BITS
  const n = bytes.length * windowsPerByte
  if (n < 2) return 0
  const mask = (1 << FANO_WINDOW_BITS) - 1
  let sum = 0
  let sumSq = 0
  for (const b of bytes) {
    for (let k = 0; k < windowsPerByte; k++) {
      const c = ONES[(b >> (k * FANO_WINDOW_BITS)) & mask] as number
      sum += c
      sumSq += c * c
    }
  }
  const mean = sum / n
  const p = mean / FANO_WINDOW_BITS
  if (p === 0 || p === 1) return 0
  const variance = (sumSq - n * mean * mean) / (n - 1)
  return variance / (mean * (1 - p))
}

export interface HealthStats {
  monobit_ratio: number
  fano_factor: number
}

export interface HealthBounds {
  monobit: readonly [number, number]
  fano: readonly [number, number]
}

export function healthSnapshot (bytes: Uint8Array): HealthStats {
  return { monobit_ratio: monobitRatio(bytes), fano_factor: fanoFactor(bytes) }
}

/** Why a sample fails the bounds, or null when it passes. */
export function healthViolation (stats: HealthStats, bounds: HealthBounds): string | null {
  const [mLo, mHi] = bounds.monobit
  const [fLo, fHi] = bounds.fano
  if (!(stats.monobit_ratio >= mLo && stats.monobit_ratio <= mHi)) return `monobit_ratio ${stats.monobit_ratio.toFixed(4)} outside [${mLo}, ${mHi}]`
  if (!(stats.fano_factor >= fLo && stats.fano_factor <= fHi)) return `fano_factor ${stats.fano_factor.toFixed(4)} outside [${fLo}, ${fHi}]`
  return null
}
