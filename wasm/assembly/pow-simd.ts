// Proof-of-work core, WebAssembly SIMD: the midstate of lib/pow-midstate.ts, then two nonces
// per Keccak-f pass, one in each 64-bit half of every v128 lane (lib/keccak-simd.ts). Same
// interface and results as the scalar pow.ts; core/pow/pow-wasm.ts picks this one when the
// engine validates SIMD.
import { STATE_BYTES } from './lib/keccak'
import { keccakF1600x2Digest, STATE2_BYTES } from './lib/keccak-simd'
import { TEMPLATE, WORK, fitsOneBlock, meetsDifficultyAt, searchScalar, tailLength, templateVersion } from './lib/pow-midstate'
export { inputPointer, digestPointer, chunkBytes, prefixBegin, prefixUpdate, prefixEnd, hashHeader } from './lib/pow-midstate'

// The template with every lane doubled (both halves equal), rebuilt when the prefix changes;
// a pass rewrites only the one or two lanes the nonces go into, so it never copies the state.
const INPUT2: usize = memory.data(STATE2_BYTES, 16)
// The pass's two digests: lanes 0..7, low and high halves.
const DIGEST2: usize = memory.data(128, 16)
let input2Version: u32 = 0 // templateVersion starts at 0 and is bumped before any search

function buildInput2 (): void {
  for (let i = 0; i < STATE_BYTES; i += 8) {
    v128.store(INPUT2 + (<usize>i << 1), v128.load64_splat(TEMPLATE + <usize>i))
  }
  input2Version = templateVersion
}

/** Nonces n and n + 1 in one pass; their digests are DIGEST2's lanes 0..7, low and high halves. */
// @ts-ignore: decorator
@inline function hashPair (nonce: u64): void {
  // as in hashNonce: the big-endian nonce as a little-endian lane, straddling at most two
  // lanes; template lane XOR nonce, for both halves
  const lo = bswap<u64>(nonce)
  const hi = bswap<u64>(nonce + 1)
  const lane = <usize>(tailLength >>> 3)
  const shift = <u64>((tailLength & 7) << 3)
  const from = TEMPLATE + (lane << 3)
  const at = INPUT2 + (lane << 4)
  v128.store(at, v128.xor(v128.load64_splat(from), i64x2.replace_lane(i64x2.splat(lo << shift), 1, hi << shift)))
  if (shift != 0) {
    v128.store(at, v128.xor(v128.load64_splat(from, 8), i64x2.replace_lane(i64x2.splat(lo >>> (64 - shift)), 1, hi >>> (64 - shift))), 16)
  }
  keccakF1600x2Digest(INPUT2, DIGEST2)
}

/**
 * Whether the digest whose first lane is `lane0` can meet `difficulty`: exact up to 16 hex
 * digits (the leading zero nibbles of the big-endian bytes are clz(bswap(lane0)) / 4), and a
 * necessary condition beyond, where the full check follows.
 */
// @ts-ignore: decorator
@inline function candidate (lane0: u64, difficulty: i32): bool {
  return difficulty <= 16 ? <i32>(clz<u64>(bswap<u64>(lane0)) >>> 2) >= difficulty : lane0 == 0
}

/** Copies half `which` (0 low, 1 high) of DIGEST2 to WORK (the digest) and checks it in full. */
function meetsAt (which: usize, difficulty: i32): bool {
  for (let i: usize = 0; i < 8; i++) store<u64>(WORK + (i << 3), load<u64>(DIGEST2 + (i << 4) + (which << 3)))
  return meetsDifficultyAt(WORK, difficulty)
}

/**
 * Tries nonces start .. start + count - 1 in order and returns the index of the first whose
 * hash meets `difficulty` (its digest left at digestPointer()), or -1.
 */
export function search (start: f64, count: i32, difficulty: i32): i32 {
  const first = <u64>start
  // a prefix whose nonce crosses into a second block (not the 272-byte header) stays scalar
  if (!fitsOneBlock()) return searchScalar(first, count, difficulty)
  if (input2Version != templateVersion) buildInput2()
  let i = 0
  for (; i + 1 < count; i += 2) {
    hashPair(first + <u64>i)
    // only the first lane of each digest is read, from the vector, unless it could win
    const lane0 = v128.load(DIGEST2)
    if (candidate(i64x2.extract_lane(lane0, 0), difficulty) && meetsAt(0, difficulty)) return i
    if (candidate(i64x2.extract_lane(lane0, 1), difficulty) && meetsAt(1, difficulty)) return i + 1
  }
  if (i < count) return searchScalar(first + <u64>i, 1, difficulty) == 0 ? i : -1
  return -1
}
