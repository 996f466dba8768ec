// Proof-of-work core, WebAssembly SIMD: the midstate of lib/pow-midstate.ts, then three nonces
// per Keccak-f pass (lib/keccak-simd.ts): two in the 64-bit halves of v128 lanes, the third
// in i64 lanes, interleaved so that the vector and the integer units work at once. Same
// interface and results as the scalar pow.ts; core/pow/pow-wasm.ts picks this one when the
// engine validates SIMD.
import { STATE_BYTES } from './lib/keccak'
import { keccakF1600x3Digest, SCRATCH_BYTES, STATE2_BYTES } from './lib/keccak-simd'
import { TEMPLATE, WORK, fitsOneBlock, meetsTargetAt, searchScalar, tailLength, targetHead, templateVersion } from './lib/pow-midstate'
export { inputPointer, digestPointer, targetPointer, chunkBytes, prefixBegin, prefixUpdate, prefixEnd, hashHeader } from './lib/pow-midstate'

const DIGEST_BYTES: i32 = 64

// The permutation's inputs: the template with every lane doubled (both halves equal), and a
// plain copy, rebuilt when the prefix changes. A pass rewrites only the one or two lanes the
// nonces go into, so it never copies a state.
const INPUT2: usize = memory.data(STATE2_BYTES, 16)
const INPUT1: usize = memory.data(STATE_BYTES, 16)
// The pass's digests: lanes 0..7 of the pair (low and high halves), and of the third.
const DIGEST2: usize = memory.data(DIGEST_BYTES << 1, 16)
const DIGEST1: usize = memory.data(DIGEST_BYTES, 16)
// Where the permutation keeps its working states (lib/keccak-simd.ts: memory, not locals).
const SCRATCH: usize = memory.data(SCRATCH_BYTES, 16)
let inputsVersion: u32 = 0 // templateVersion starts at 0 and is bumped before any search

function buildInputs (): void {
  for (let i = 0; i < STATE_BYTES; i += 8) {
    v128.store(INPUT2 + (<usize>i << 1), v128.load64_splat(TEMPLATE + <usize>i))
  }
  memory.copy(INPUT1, TEMPLATE, STATE_BYTES)
  inputsVersion = templateVersion
}

/** Nonces n, n + 1 (DIGEST2, low and high halves) and n + 2 (DIGEST1) in one pass. */
// @ts-ignore: decorator
@inline function hashTriple (nonce: u64): void {
  // as in hashNonce: the big-endian nonce as a little-endian lane, straddling at most two
  // lanes; each input's nonce lanes are the template's XOR the nonce
  const n0 = bswap<u64>(nonce)
  const n1 = bswap<u64>(nonce + 1)
  const n2 = bswap<u64>(nonce + 2)
  const lane = <usize>(tailLength >>> 3)
  const shift = <u64>((tailLength & 7) << 3)
  const from = TEMPLATE + (lane << 3)
  const at2 = INPUT2 + (lane << 4)
  const at1 = INPUT1 + (lane << 3)
  v128.store(at2, v128.xor(v128.load64_splat(from), i64x2.replace_lane(i64x2.splat(n0 << shift), 1, n1 << shift)))
  store<u64>(at1, load<u64>(from) ^ (n2 << shift))
  if (shift != 0) {
    v128.store(at2, v128.xor(v128.load64_splat(from, 8), i64x2.replace_lane(i64x2.splat(n0 >>> (64 - shift)), 1, n1 >>> (64 - shift))), 16)
    store<u64>(at1, load<u64>(from, 8) ^ (n2 >>> (64 - shift)), 8)
  }
  keccakF1600x3Digest(INPUT2, DIGEST2, INPUT1, DIGEST1, SCRATCH)
}

/**
 * Whether the digest whose first lane is `lane0` can be at most the target whose first 64
 * bits are `head`: its first 64 bits big-endian (bswap of the lane) must not exceed them; a
 * digest below them wins outright, a tie needs the full compare that follows.
 */
// @ts-ignore: decorator
@inline function candidate (lane0: u64, head: u64): bool {
  return bswap<u64>(lane0) <= head
}

/** Copies half `which` (0 low, 1 high) of DIGEST2 to WORK (the digest) and checks it in full. */
function meetsInPair (which: usize): bool {
  for (let i: usize = 0; i < 8; i++) store<u64>(WORK + (i << 3), load<u64>(DIGEST2 + (i << 4) + (which << 3)))
  return meetsTargetAt(WORK)
}

/** Copies DIGEST1 to WORK (the digest) and checks it in full. */
function meetsThird (): bool {
  memory.copy(WORK, DIGEST1, DIGEST_BYTES)
  return meetsTargetAt(WORK)
}

/**
 * Tries nonces start .. start + count - 1 in order and returns the index of the first whose
 * hash is at most the target at targetPointer() (its digest left at digestPointer()), or -1.
 */
export function search (start: f64, count: i32): i32 {
  const first = <u64>start
  // a prefix whose nonce crosses into a second block (not the 272-byte header) stays scalar
  if (!fitsOneBlock()) return searchScalar(first, count)
  if (inputsVersion != templateVersion) buildInputs()
  const head = targetHead()
  let i = 0
  for (; i + 2 < count; i += 3) {
    hashTriple(first + <u64>i)
    // only the first lane of each digest is read until it could win
    const pair = v128.load(DIGEST2)
    if (candidate(i64x2.extract_lane(pair, 0), head) && meetsInPair(0)) return i
    if (candidate(i64x2.extract_lane(pair, 1), head) && meetsInPair(1)) return i + 1
    if (candidate(load<u64>(DIGEST1), head) && meetsThird()) return i + 2
  }
  for (; i < count; i++) {
    if (searchScalar(first + <u64>i, 1) == 0) return i
  }
  return -1
}
