// Proof-of-work core, WebAssembly SIMD: the midstate of lib/pow-midstate.ts, then two nonces
// per Keccak-f pass, one in each 64-bit half of every v128 lane (lib/keccak-simd.ts). Same
// interface and results as the scalar pow.ts; core/pow/pow-wasm.ts picks this one when the
// engine validates SIMD.
import { STATE_BYTES } from './lib/keccak'
import { keccakF1600x2, STATE2_BYTES } from './lib/keccak-simd'
import { TEMPLATE, WORK, fitsOneBlock, meetsDifficultyAt, searchScalar, tailLength, templateVersion } from './lib/pow-midstate'
export { inputPointer, digestPointer, chunkBytes, prefixBegin, prefixUpdate, prefixEnd, hashHeader } from './lib/pow-midstate'

// The template with every lane doubled (both halves equal), rebuilt when the prefix changes,
// and the two-state working copy the nonces are XORed into.
const TEMPLATE2: usize = memory.data(STATE2_BYTES, 16)
const WORK2: usize = memory.data(STATE2_BYTES, 16)
let template2Version: u32 = 0 // templateVersion starts at 0 and is bumped before any search

function buildTemplate2 (): void {
  for (let i = 0; i < STATE_BYTES; i += 8) {
    v128.store(TEMPLATE2 + (<usize>i << 1), v128.load64_splat(TEMPLATE + <usize>i))
  }
  template2Version = templateVersion
}

/** Nonces n and n + 1 in one pass; their digests are WORK2's lanes 0..7, low and high halves. */
function hashPair (nonce: u64): void {
  memory.copy(WORK2, TEMPLATE2, STATE2_BYTES)
  // as in hashNonce: the big-endian nonce as a little-endian lane, straddling at most two lanes
  const lo = bswap<u64>(nonce)
  const hi = bswap<u64>(nonce + 1)
  const lane = <usize>(tailLength >>> 3)
  const shift = <u64>((tailLength & 7) << 3)
  const at = WORK2 + (lane << 4)
  v128.store(at, v128.xor(v128.load(at), i64x2.replace_lane(i64x2.splat(lo << shift), 1, hi << shift)))
  if (shift != 0) {
    v128.store(at, v128.xor(v128.load(at, 16), i64x2.replace_lane(i64x2.splat(lo >>> (64 - shift)), 1, hi >>> (64 - shift))), 16)
  }
  keccakF1600x2(WORK2)
}

/** Copies half `which` (0 low, 1 high) of WORK2's first 8 lanes to WORK: the digest. */
function takeDigest (which: usize): void {
  for (let i: usize = 0; i < 8; i++) store<u64>(WORK + (i << 3), load<u64>(WORK2 + (i << 4) + (which << 3)))
}

/**
 * Tries nonces start .. start + count - 1 in order and returns the index of the first whose
 * hash meets `difficulty` (its digest left at digestPointer()), or -1.
 */
export function search (start: f64, count: i32, difficulty: i32): i32 {
  const first = <u64>start
  // a prefix whose nonce crosses into a second block (not the 272-byte header) stays scalar
  if (!fitsOneBlock()) return searchScalar(first, count, difficulty)
  if (template2Version != templateVersion) buildTemplate2()
  let i = 0
  for (; i + 1 < count; i += 2) {
    hashPair(first + <u64>i)
    takeDigest(0)
    if (meetsDifficultyAt(WORK, difficulty)) return i
    takeDigest(1)
    if (meetsDifficultyAt(WORK, difficulty)) return i + 1
  }
  if (i < count) return searchScalar(first + <u64>i, 1, difficulty) == 0 ? i : -1
  return -1
}
