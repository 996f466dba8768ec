// Difficulty schedule, protocol version 2 (docs/protocol.md "Difficulty schedule"; the
// reasoning and the simulator's figures are there and in docs/chain.md).
//
// Every `difficultyInterval` (10) blocks the target moves by the factor
//   2^((span − interval × T) / τ),   τ = retargetHalfLife × T,
// where span is how long the last interval took, measured between medians of eleven
// timestamps (median time past): MTP(parent) − MTP(the block `interval` below the parent).
// This is BCH's aserti3-2d exponential taken relative to the parent's target at the 10-block
// cadence: uncapped it telescopes into ASERT anchored at the first retarget (the chain keeps
// the schedule on average, no accumulated error); the exponent is clamped to ±maxRetargetLog2
// per retarget (the bounded step), which also means a network that was stopped for a day
// eases by at most that factor per interval instead of paying the lost day back in a burst of
// easy blocks. The medians make one miner's timestamp (up to 120 s ahead) move the span by at
// most a rank, not by its own lie. 2^x is aserti3-2d's integer cubic (fixed point, 16 bits of
// fraction), so every node computes the same bits with no floating point but the span's
// millisecond rounding.
import type { NetworkParams } from './params.ts'
import { decodeBits, encodeBits, workOfBits } from './target.ts'

/** timestamps a median time past is taken over */
export const MTP_BLOCKS = 11

/** How many timestamps (the parent's and its ancestors', oldest first) nextBits reads at a retarget. */
export function retargetTimestampCount (params: NetworkParams): number {
  return params.difficultyInterval + MTP_BLOCKS
}

/** The median (the upper one of an even count) of timestamps, a copy sorted. */
export function medianTime (timestamps: readonly number[]): number {
  const sorted = [...timestamps].sort((a, b) => a - b)
  return sorted[sorted.length >> 1]!
}

const FRACTION_BITS = 16n
const ONE = 1n << FRACTION_BITS

/** target × 2^(exponent / 65536), exponent an integer; aserti3-2d's cubic for the fraction. */
export function scaleTarget (target: bigint, exponent: bigint): bigint {
  const shifts = exponent >> FRACTION_BITS // floor, also for negative exponents
  const frac = exponent - (shifts << FRACTION_BITS) // [0, 65536)
  const factor = ONE + ((195766423245049n * frac + 971821376n * frac * frac + 5127n * frac * frac * frac + (1n << 47n)) >> 48n)
  const scaled = target * factor
  return shifts >= FRACTION_BITS ? scaled << (shifts - FRACTION_BITS) : scaled >> (FRACTION_BITS - shifts)
}

/** floor(a / b) for BigInts (b > 0); BigInt division truncates toward zero */
const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b))

/**
 * The `bits` the block at `height` must carry.
 * @param parentBits the bits of block height − 1
 * @param timestamps the timestamps of the parent and up to retargetTimestampCount − 1 of its
 *   ancestors, oldest first (read only at a retarget)
 */
export function nextBits (params: NetworkParams, height: number, parentBits: number, timestamps: () => readonly number[]): number {
  if (params.fixedDifficulty || height <= 1) return params.initialBits
  const interval = params.difficultyInterval
  // the first span needs the medians of two whole intervals past genesis
  if (height % interval !== 0 || height < 2 * interval) return parentBits
  const ts = timestamps()
  const end = ts.length
  if (end < interval + 1) throw new RangeError(`a retarget at height ${height} needs ${interval + 1} timestamps, got ${end}`)
  const last = medianTime(ts.slice(Math.max(0, end - MTP_BLOCKS), end))
  const first = medianTime(ts.slice(Math.max(0, end - interval - MTP_BLOCKS), end - interval))
  const spanMs = BigInt(Math.round((last - first) * 1000))
  const targetMs = BigInt(params.blockTimeTarget * 1000)
  const tauMs = targetMs * BigInt(params.retargetHalfLife)
  const bound = BigInt(params.maxRetargetLog2) << FRACTION_BITS
  let exponent = floorDiv((spanMs - BigInt(interval) * targetMs) << FRACTION_BITS, tauMs)
  if (exponent > bound) exponent = bound
  if (exponent < -bound) exponent = -bound
  let target = scaleTarget(decodeBits(parentBits), exponent)
  const easiest = decodeBits(params.easiestBits)
  const hardest = decodeBits(params.hardestBits)
  if (target > easiest) target = easiest
  if (target < hardest) target = hardest
  return encodeBits(target)
}

/** Work of one block: the hashes its target takes on average, 2^512 / (target + 1). */
export function blockWork (bits: number): bigint {
  return workOfBits(bits)
}
