// Keccak-f[1600] on two states at once: lane i of both states is one v128 at state + 16 i
// (the first state's lane in the low 64 bits), so every operation of the permutation runs on
// both in one WebAssembly SIMD instruction. The same two-rounds-per-pass layout as the scalar
// keccakF1600 (keccak.ts), a lane-for-lane transcription of it, except that chi is the plain
// b ^ (~b1 & b2) form: v128.andnot makes that one instruction, so the scalar core's lane
// complementing would only add NOTs here. The PoW vectors (test/vectors/pow.json) hold this
// to the scalar core and the JS twin.

export const STATE2_BYTES: i32 = 400

// FIPS 202 round constants RC[0..23] for iota (a copy of keccak.ts's: each module keeps its own data).
const ROUND_CONSTANTS: usize = memory.data<u64>([
  0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
  0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
  0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
  0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
  0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
  0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008
])

// WebAssembly has no 64-bit lane rotate: two shifts and an OR (a doubling for the shift by
// one), or one byte shuffle for the rotations by whole bytes (8 and 56)
// @ts-ignore: decorator
@inline function rotl2 (x: v128, n: i32): v128 {
  if (n == 8) return i8x16.shuffle(x, x, 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14)
  if (n == 56) return i8x16.shuffle(x, x, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8)
  return n == 1
    ? v128.or(i64x2.add(x, x), i64x2.shr_u(x, 63))
    : v128.or(i64x2.shl(x, n), i64x2.shr_u(x, 64 - n))
}

/** Keccak-f[1600] in place on the two interleaved states at `state` (400 bytes). */
export function keccakF1600x2 (state: usize): void {
  let a0 = v128.load(state, 0), a1 = v128.load(state, 16), a2 = v128.load(state, 32), a3 = v128.load(state, 48), a4 = v128.load(state, 64)
  let a5 = v128.load(state, 80), a6 = v128.load(state, 96), a7 = v128.load(state, 112), a8 = v128.load(state, 128), a9 = v128.load(state, 144)
  let a10 = v128.load(state, 160), a11 = v128.load(state, 176), a12 = v128.load(state, 192), a13 = v128.load(state, 208), a14 = v128.load(state, 224)
  let a15 = v128.load(state, 240), a16 = v128.load(state, 256), a17 = v128.load(state, 272), a18 = v128.load(state, 288), a19 = v128.load(state, 304)
  let a20 = v128.load(state, 320), a21 = v128.load(state, 336), a22 = v128.load(state, 352), a23 = v128.load(state, 368), a24 = v128.load(state, 384)
  const zero = i64x2.splat(0)
  let e0 = zero, e1 = zero, e2 = zero, e3 = zero, e4 = zero, e5 = zero, e6 = zero, e7 = zero, e8 = zero, e9 = zero, e10 = zero, e11 = zero, e12 = zero
  let e13 = zero, e14 = zero, e15 = zero, e16 = zero, e17 = zero, e18 = zero, e19 = zero, e20 = zero, e21 = zero, e22 = zero, e23 = zero, e24 = zero
  let b0 = zero, b1 = zero, b2 = zero, b3 = zero, b4 = zero
  let d0 = zero, d1 = zero, d2 = zero, d3 = zero, d4 = zero
  let c0 = v128.xor(v128.xor(v128.xor(v128.xor(a0, a5), a10), a15), a20)
  let c1 = v128.xor(v128.xor(v128.xor(v128.xor(a1, a6), a11), a16), a21)
  let c2 = v128.xor(v128.xor(v128.xor(v128.xor(a2, a7), a12), a17), a22)
  let c3 = v128.xor(v128.xor(v128.xor(v128.xor(a3, a8), a13), a18), a23)
  let c4 = v128.xor(v128.xor(v128.xor(v128.xor(a4, a9), a14), a19), a24)

  for (let round: usize = 0; round < 24; round += 2) {
    const rcEven = v128.load64_splat(ROUND_CONSTANTS + (round << 3))
    const rcOdd = v128.load64_splat(ROUND_CONSTANTS + (round << 3), 8)
    // even round: a -> e
    d0 = v128.xor(c4, rotl2(c1, 1)); d1 = v128.xor(c0, rotl2(c2, 1)); d2 = v128.xor(c1, rotl2(c3, 1))
    d3 = v128.xor(c2, rotl2(c4, 1)); d4 = v128.xor(c3, rotl2(c0, 1))
    b0 = v128.xor(a0, d0); b1 = rotl2(v128.xor(a6, d1), 44); b2 = rotl2(v128.xor(a12, d2), 43)
    b3 = rotl2(v128.xor(a18, d3), 21); b4 = rotl2(v128.xor(a24, d4), 14)
    e0 = v128.xor(v128.xor(b0, v128.andnot(b2, b1)), rcEven); e1 = v128.xor(b1, v128.andnot(b3, b2)); e2 = v128.xor(b2, v128.andnot(b4, b3))
    e3 = v128.xor(b3, v128.andnot(b0, b4)); e4 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = e0; c1 = e1; c2 = e2; c3 = e3; c4 = e4
    b0 = rotl2(v128.xor(a3, d3), 28); b1 = rotl2(v128.xor(a9, d4), 20); b2 = rotl2(v128.xor(a10, d0), 3)
    b3 = rotl2(v128.xor(a16, d1), 45); b4 = rotl2(v128.xor(a22, d2), 61)
    e5 = v128.xor(b0, v128.andnot(b2, b1)); e6 = v128.xor(b1, v128.andnot(b3, b2)); e7 = v128.xor(b2, v128.andnot(b4, b3))
    e8 = v128.xor(b3, v128.andnot(b0, b4)); e9 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, e5); c1 = v128.xor(c1, e6); c2 = v128.xor(c2, e7); c3 = v128.xor(c3, e8); c4 = v128.xor(c4, e9)
    b0 = rotl2(v128.xor(a1, d1), 1); b1 = rotl2(v128.xor(a7, d2), 6); b2 = rotl2(v128.xor(a13, d3), 25)
    b3 = rotl2(v128.xor(a19, d4), 8); b4 = rotl2(v128.xor(a20, d0), 18)
    e10 = v128.xor(b0, v128.andnot(b2, b1)); e11 = v128.xor(b1, v128.andnot(b3, b2)); e12 = v128.xor(b2, v128.andnot(b4, b3))
    e13 = v128.xor(b3, v128.andnot(b0, b4)); e14 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, e10); c1 = v128.xor(c1, e11); c2 = v128.xor(c2, e12); c3 = v128.xor(c3, e13); c4 = v128.xor(c4, e14)
    b0 = rotl2(v128.xor(a4, d4), 27); b1 = rotl2(v128.xor(a5, d0), 36); b2 = rotl2(v128.xor(a11, d1), 10)
    b3 = rotl2(v128.xor(a17, d2), 15); b4 = rotl2(v128.xor(a23, d3), 56)
    e15 = v128.xor(b0, v128.andnot(b2, b1)); e16 = v128.xor(b1, v128.andnot(b3, b2)); e17 = v128.xor(b2, v128.andnot(b4, b3))
    e18 = v128.xor(b3, v128.andnot(b0, b4)); e19 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, e15); c1 = v128.xor(c1, e16); c2 = v128.xor(c2, e17); c3 = v128.xor(c3, e18); c4 = v128.xor(c4, e19)
    b0 = rotl2(v128.xor(a2, d2), 62); b1 = rotl2(v128.xor(a8, d3), 55); b2 = rotl2(v128.xor(a14, d4), 39)
    b3 = rotl2(v128.xor(a15, d0), 41); b4 = rotl2(v128.xor(a21, d1), 2)
    e20 = v128.xor(b0, v128.andnot(b2, b1)); e21 = v128.xor(b1, v128.andnot(b3, b2)); e22 = v128.xor(b2, v128.andnot(b4, b3))
    e23 = v128.xor(b3, v128.andnot(b0, b4)); e24 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, e20); c1 = v128.xor(c1, e21); c2 = v128.xor(c2, e22); c3 = v128.xor(c3, e23); c4 = v128.xor(c4, e24)
    // odd round: e -> a
    d0 = v128.xor(c4, rotl2(c1, 1)); d1 = v128.xor(c0, rotl2(c2, 1)); d2 = v128.xor(c1, rotl2(c3, 1))
    d3 = v128.xor(c2, rotl2(c4, 1)); d4 = v128.xor(c3, rotl2(c0, 1))
    b0 = v128.xor(e0, d0); b1 = rotl2(v128.xor(e6, d1), 44); b2 = rotl2(v128.xor(e12, d2), 43)
    b3 = rotl2(v128.xor(e18, d3), 21); b4 = rotl2(v128.xor(e24, d4), 14)
    a0 = v128.xor(v128.xor(b0, v128.andnot(b2, b1)), rcOdd); a1 = v128.xor(b1, v128.andnot(b3, b2)); a2 = v128.xor(b2, v128.andnot(b4, b3))
    a3 = v128.xor(b3, v128.andnot(b0, b4)); a4 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = a0; c1 = a1; c2 = a2; c3 = a3; c4 = a4
    b0 = rotl2(v128.xor(e3, d3), 28); b1 = rotl2(v128.xor(e9, d4), 20); b2 = rotl2(v128.xor(e10, d0), 3)
    b3 = rotl2(v128.xor(e16, d1), 45); b4 = rotl2(v128.xor(e22, d2), 61)
    a5 = v128.xor(b0, v128.andnot(b2, b1)); a6 = v128.xor(b1, v128.andnot(b3, b2)); a7 = v128.xor(b2, v128.andnot(b4, b3))
    a8 = v128.xor(b3, v128.andnot(b0, b4)); a9 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, a5); c1 = v128.xor(c1, a6); c2 = v128.xor(c2, a7); c3 = v128.xor(c3, a8); c4 = v128.xor(c4, a9)
    b0 = rotl2(v128.xor(e1, d1), 1); b1 = rotl2(v128.xor(e7, d2), 6); b2 = rotl2(v128.xor(e13, d3), 25)
    b3 = rotl2(v128.xor(e19, d4), 8); b4 = rotl2(v128.xor(e20, d0), 18)
    a10 = v128.xor(b0, v128.andnot(b2, b1)); a11 = v128.xor(b1, v128.andnot(b3, b2)); a12 = v128.xor(b2, v128.andnot(b4, b3))
    a13 = v128.xor(b3, v128.andnot(b0, b4)); a14 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, a10); c1 = v128.xor(c1, a11); c2 = v128.xor(c2, a12); c3 = v128.xor(c3, a13); c4 = v128.xor(c4, a14)
    b0 = rotl2(v128.xor(e4, d4), 27); b1 = rotl2(v128.xor(e5, d0), 36); b2 = rotl2(v128.xor(e11, d1), 10)
    b3 = rotl2(v128.xor(e17, d2), 15); b4 = rotl2(v128.xor(e23, d3), 56)
    a15 = v128.xor(b0, v128.andnot(b2, b1)); a16 = v128.xor(b1, v128.andnot(b3, b2)); a17 = v128.xor(b2, v128.andnot(b4, b3))
    a18 = v128.xor(b3, v128.andnot(b0, b4)); a19 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, a15); c1 = v128.xor(c1, a16); c2 = v128.xor(c2, a17); c3 = v128.xor(c3, a18); c4 = v128.xor(c4, a19)
    b0 = rotl2(v128.xor(e2, d2), 62); b1 = rotl2(v128.xor(e8, d3), 55); b2 = rotl2(v128.xor(e14, d4), 39)
    b3 = rotl2(v128.xor(e15, d0), 41); b4 = rotl2(v128.xor(e21, d1), 2)
    a20 = v128.xor(b0, v128.andnot(b2, b1)); a21 = v128.xor(b1, v128.andnot(b3, b2)); a22 = v128.xor(b2, v128.andnot(b4, b3))
    a23 = v128.xor(b3, v128.andnot(b0, b4)); a24 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, a20); c1 = v128.xor(c1, a21); c2 = v128.xor(c2, a22); c3 = v128.xor(c3, a23); c4 = v128.xor(c4, a24)

  }

  v128.store(state, a0, 0); v128.store(state, a1, 16); v128.store(state, a2, 32); v128.store(state, a3, 48); v128.store(state, a4, 64)
  v128.store(state, a5, 80); v128.store(state, a6, 96); v128.store(state, a7, 112); v128.store(state, a8, 128); v128.store(state, a9, 144)
  v128.store(state, a10, 160); v128.store(state, a11, 176); v128.store(state, a12, 192); v128.store(state, a13, 208); v128.store(state, a14, 224)
  v128.store(state, a15, 240); v128.store(state, a16, 256); v128.store(state, a17, 272); v128.store(state, a18, 288); v128.store(state, a19, 304)
  v128.store(state, a20, 320); v128.store(state, a21, 336); v128.store(state, a22, 352); v128.store(state, a23, 368); v128.store(state, a24, 384)
}
