// The proof-of-work target (protocol version 2): a block is valid work when its SHA3-512 hash,
// read as a 512-bit big-endian integer, is at most the target. The header carries the target
// in a 4-byte compact form, `bits` (docs/protocol.md, "Block header and proof-of-work"):
//   bits = E << 24 | M,  target = M × 256^(E − 3),  3 ≤ E ≤ 64,  0x010000 ≤ M ≤ 0xffffff
// E is the target's length in bytes and M its three leading bytes: Bitcoin's nBits without the
// sign bit (a target is never negative, so the bit is a whole mantissa bit wasted there). Each
// representable target has exactly one encoding (M's top byte non-zero); any other u32 is
// refused, so no two headers differ only in how they spell the same target.
export const TARGET_BITS = 512
export const TARGET_BYTES = TARGET_BITS / 8
const TWO_512 = 1n << 512n

/** Why a `bits` value is not a canonical compact target, or undefined when it is. */
export function bitsProblem (bits: unknown): string | undefined {
  if (typeof bits !== 'number' || !Number.isInteger(bits) || bits < 0 || bits > 0xffffffff) return 'bits must be an integer in [0, 2^32)'
  const exponent = bits >>> 24
  if (exponent < 3 || exponent > TARGET_BYTES) return `bits exponent ${exponent} outside [3, ${TARGET_BYTES}]`
  if ((bits & 0xff0000) === 0) return 'bits mantissa has a zero leading byte (non-canonical)'
  return undefined
}

/** The target a canonical `bits` stands for; throws RangeError on anything else. */
export function decodeBits (bits: number): bigint {
  const problem = bitsProblem(bits)
  if (problem !== undefined) throw new RangeError(problem)
  return BigInt(bits & 0xffffff) << BigInt(8 * ((bits >>> 24) - 3))
}

/** The canonical `bits` of the largest representable target ≤ `target` (2^16 ≤ target < 2^512). */
export function encodeBits (target: bigint): number {
  if (target < 0x10000n || target >= TWO_512) throw new RangeError('target must lie in [2^16, 2^512)')
  const exponent = Math.ceil(target.toString(2).length / 8)
  const mantissa = Number(target >> BigInt(8 * (exponent - 3)))
  return (exponent * 2 ** 24) + mantissa
}

/**
 * The leading zero hex digits of the target written as 128 hex digits: the `difficulty` every
 * SPEC surface shows (an int). A hash that meets the target has at least this many.
 */
export function difficultyOfTarget (target: bigint): number {
  return Math.floor((TARGET_BITS - (target === 0n ? 0 : target.toString(2).length)) / 4)
}

export function difficultyOfBits (bits: number): number { return difficultyOfTarget(decodeBits(bits)) }

/** The largest target whose hashes need `difficulty` leading zero hex digits: 16^(128 − d) − 1. */
export function targetForDifficulty (difficulty: number): bigint {
  return (1n << BigInt(TARGET_BITS - 4 * difficulty)) - 1n
}

/** Expected hashes to meet the target: 2^512 / (target + 1). Fork choice sums this. */
export function workOfTarget (target: bigint): bigint { return TWO_512 / (target + 1n) }

export function workOfBits (bits: number): bigint { return workOfTarget(decodeBits(bits)) }

/** The target as 64 big-endian bytes: what a PoW core compares hashes against. */
export function targetBytes (target: bigint): Uint8Array {
  const hex = target.toString(16).padStart(TARGET_BYTES * 2, '0')
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

/** The 64-byte big-endian form of a `bits`' target (the PoW cores' argument). */
export function bitsTargetBytes (bits: number): Uint8Array { return targetBytes(decodeBits(bits)) }

/** The 64-byte form of targetForDifficulty(d): what leading-zero tests and benches search against. */
export function difficultyTargetBytes (difficulty: number): Uint8Array { return targetBytes(targetForDifficulty(difficulty)) }

/** The canonical bits of the easiest target of `difficulty` leading zero hex digits (1 ≤ d ≤ 124). */
export function bitsForDifficulty (difficulty: number): number { return encodeBits(targetForDifficulty(difficulty)) }
