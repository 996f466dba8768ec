// The proof-of-work midstate shared by both PoW cores (pow.ts scalar, pow-simd.ts three nonces
// per permutation pass): header = prefix ‖ nonce (uint64 big-endian), hash = SHA3-512(header). The
// prefix is absorbed once (midstate); each nonce then costs one Keccak-f when tail + 8 nonce
// bytes + padding fit the last 72-byte block, two otherwise.
import { STATE_BYTES, absorbBlocks, keccakF1600, padBlock, resetState, xorByte, xorIntoState } from './keccak'

const RATE: i32 = 72
const NONCE_BYTES: i32 = 8
// A multiple of RATE, so JS can stream long prefixes through INPUT block-aligned.
const CHUNK_BYTES: i32 = RATE * 900
const INPUT: usize = memory.data(CHUNK_BYTES, 16)
// The midstate (state after the prefix's whole blocks) with the tail, and the padding when
// the nonce block is the last one, XORed in: everything but the nonce.
export const TEMPLATE: usize = memory.data(STATE_BYTES, 16)
// Per-nonce working state; after a hash its first 64 bytes are the digest.
export const WORK: usize = memory.data(STATE_BYTES, 16)
// The target a search compares digests against: 64 bytes, a 512-bit big-endian integer
// (core/chain/target.ts), written by JS before each search.
const TARGET_BYTES: i32 = 64
export const TARGET: usize = memory.data(TARGET_BYTES, 16)

export let tailLength: i32 = 0
/** Bumped by every new prefix, so a core holding copies of TEMPLATE knows when to rebuild them. */
export let templateVersion: u32 = 0

export function inputPointer (): usize { return INPUT }
export function digestPointer (): usize { return WORK }
export function chunkBytes (): i32 { return CHUNK_BYTES }
export function targetPointer (): usize { return TARGET }

/** Starts loading a new prefix. */
export function prefixBegin (): void {
  resetState(TEMPLATE)
}

/** Absorbs INPUT[0..length) into the midstate; `length` must be a multiple of 72. */
export function prefixUpdate (length: i32): void {
  absorbBlocks(TEMPLATE, INPUT, length, RATE)
}

/** Takes the prefix's final INPUT[0..length) (length < 72) and builds the nonce template. */
export function prefixEnd (length: i32): void {
  templateVersion++
  tailLength = length
  xorIntoState(TEMPLATE, INPUT, length)
  if (fitsOneBlock()) padBlock(TEMPLATE, length + NONCE_BYTES, RATE)
}

// @ts-ignore: decorator
@inline export function fitsOneBlock (): bool {
  // at least one byte must remain after the nonce for the 0x06 domain/padding byte
  return tailLength + NONCE_BYTES < RATE
}

/** SHA3-512(prefix ‖ nonce) into WORK. */
export function hashNonce (nonce: u64): void {
  memory.copy(WORK, TEMPLATE, STATE_BYTES)
  if (fitsOneBlock()) {
    // the nonce's big-endian bytes, read as a little-endian lane, straddle at most two lanes
    const lanes = bswap<u64>(nonce)
    const at = WORK + (<usize>(tailLength >>> 3) << 3)
    const shift = <u64>((tailLength & 7) << 3)
    store<u64>(at, load<u64>(at) ^ (lanes << shift))
    if (shift != 0) store<u64>(at, load<u64>(at, 8) ^ (lanes >>> (64 - shift)), 8)
    keccakF1600(WORK)
    return
  }
  // the nonce crosses into a second block: its first bytes end block one, the rest begin block two
  const inFirst = RATE - tailLength
  for (let i = 0; i < inFirst; i++) xorByte(WORK, tailLength + i, nonceByte(nonce, i))
  keccakF1600(WORK)
  for (let i = inFirst; i < NONCE_BYTES; i++) xorByte(WORK, i - inFirst, nonceByte(nonce, i))
  padBlock(WORK, NONCE_BYTES - inFirst, RATE)
  keccakF1600(WORK)
}

// @ts-ignore: decorator
@inline function nonceByte (nonce: u64, index: i32): u8 {
  return <u8>(nonce >>> (<u64>(7 - index) << 3))
}

/** The target's first 64 bits as an integer: a digest whose first 64 bits are below it wins. */
// @ts-ignore: decorator
@inline export function targetHead (): u64 {
  return bswap<u64>(load<u64>(TARGET))
}

/**
 * True when the digest at `digest`, read as a 512-bit big-endian integer, is at most TARGET.
 * Digest and target bytes are in lane byte order, so bswap turns each lane into the next 64
 * bits of the big-endian integer.
 */
export function meetsTargetAt (digest: usize): bool {
  for (let lane: usize = 0; lane < 8; lane++) {
    const hash = bswap<u64>(load<u64>(digest + (lane << 3)))
    const target = bswap<u64>(load<u64>(TARGET + (lane << 3)))
    if (hash != target) return hash < target
  }
  return true
}

/** Hashes prefix ‖ nonce; the digest is at digestPointer(). Nonces are integers below 2^53. */
export function hashHeader (nonce: f64): void {
  hashNonce(<u64>nonce)
}

/**
 * Scalar search: tries nonces start .. start + count - 1 in order and returns the index of the
 * first whose hash is at most TARGET (its digest left at digestPointer()), or -1. Only the
 * first 64 bits are compared until they tie with the target's.
 */
export function searchScalar (first: u64, count: i32): i32 {
  const head = targetHead()
  for (let i = 0; i < count; i++) {
    hashNonce(first + <u64>i)
    const lane0 = bswap<u64>(load<u64>(WORK))
    if (lane0 < head || (lane0 == head && meetsTargetAt(WORK))) return i
  }
  return -1
}
