// Keccak-f[1600] on two states at once: lane i of both states is one v128 (the first state's
// lane in the low 64 bits), so every operation of the permutation runs on both in one
// WebAssembly SIMD instruction. The same two-rounds-per-pass layout as the scalar keccakF1600
// (keccak.ts), a lane-for-lane transcription of it with its round constants and rho offsets,
// except that chi is the plain b ^ (~b1 & b2) form: v128.andnot makes that one instruction,
// so the scalar core's lane complementing would only add NOTs here. The PoW vectors
// (test/vectors/pow.json) hold this to the scalar core and the JS twin.
//
// What the generated code costs (V8 on x64, measured in the PoW bench): the 25 lanes, five
// parities, five d and five b do not fit 16 XMM registers, so V8 spills, but the loop is
// bound by its ~190 vector ALU operations a round, nearly half of them rotations (WebAssembly
// has no 64-bit lane rotate: shl, shr_u, or). Hence: rotations by 8 and 56 are shifts too
// (an i8x16.shuffle made V8 rebuild its byte mask from two 64-bit immediates every time);
// the loop stays two rounds long (written out for 24 rounds it ran at half speed: the ~40 KB
// of code no longer fits the instruction caches); and two such states interleaved (four nonces
// a pass) measured no faster, the ALUs being already busy.

import { ROUND_CONSTANTS, RHO1, RHO2, RHO3, RHO4, RHO5, RHO6, RHO7, RHO8, RHO9, RHO10, RHO11, RHO12, RHO13, RHO14, RHO15, RHO16, RHO17, RHO18, RHO19, RHO20, RHO21, RHO22, RHO23, RHO24 } from './keccak'

export const STATE2_BYTES: i32 = 400

// a 64-bit lane rotate: two shifts and an OR (a doubling for the shift by one)
// @ts-ignore: decorator
@inline function rotl2 (x: v128, n: i32): v128 {
  return n == 1
    ? v128.or(i64x2.add(x, x), i64x2.shr_u(x, 63))
    : v128.or(i64x2.shl(x, n), i64x2.shr_u(x, 64 - n))
}

/**
 * Keccak-f[1600] of the two interleaved states at `from` (400 bytes, left as they are); writes
 * only the lanes a SHA3-512 digest is read from, 0..7, to `to` (128 bytes): the loop runs
 * rounds 0..21, then round 22 in full and of round 23 just those lanes, with no parities.
 */
export function keccakF1600x2Digest (from: usize, to: usize): void {
  let a0 = v128.load(from, 0), a1 = v128.load(from, 16), a2 = v128.load(from, 32), a3 = v128.load(from, 48), a4 = v128.load(from, 64)
  let a5 = v128.load(from, 80), a6 = v128.load(from, 96), a7 = v128.load(from, 112), a8 = v128.load(from, 128), a9 = v128.load(from, 144)
  let a10 = v128.load(from, 160), a11 = v128.load(from, 176), a12 = v128.load(from, 192), a13 = v128.load(from, 208), a14 = v128.load(from, 224)
  let a15 = v128.load(from, 240), a16 = v128.load(from, 256), a17 = v128.load(from, 272), a18 = v128.load(from, 288), a19 = v128.load(from, 304)
  let a20 = v128.load(from, 320), a21 = v128.load(from, 336), a22 = v128.load(from, 352), a23 = v128.load(from, 368), a24 = v128.load(from, 384)
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

  for (let round: usize = 0; round < 22; round += 2) {
    const rcEven = v128.load64_splat(ROUND_CONSTANTS + (round << 3))
    const rcOdd = v128.load64_splat(ROUND_CONSTANTS + (round << 3), 8)
    // even round: a -> e
    d0 = v128.xor(c4, rotl2(c1, 1)); d1 = v128.xor(c0, rotl2(c2, 1)); d2 = v128.xor(c1, rotl2(c3, 1))
    d3 = v128.xor(c2, rotl2(c4, 1)); d4 = v128.xor(c3, rotl2(c0, 1))
    b0 = v128.xor(a0, d0); b1 = rotl2(v128.xor(a6, d1), RHO6); b2 = rotl2(v128.xor(a12, d2), RHO12)
    b3 = rotl2(v128.xor(a18, d3), RHO18); b4 = rotl2(v128.xor(a24, d4), RHO24)
    e0 = v128.xor(v128.xor(b0, v128.andnot(b2, b1)), rcEven); e1 = v128.xor(b1, v128.andnot(b3, b2)); e2 = v128.xor(b2, v128.andnot(b4, b3))
    e3 = v128.xor(b3, v128.andnot(b0, b4)); e4 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = e0; c1 = e1; c2 = e2; c3 = e3; c4 = e4
    b0 = rotl2(v128.xor(a3, d3), RHO3); b1 = rotl2(v128.xor(a9, d4), RHO9); b2 = rotl2(v128.xor(a10, d0), RHO10)
    b3 = rotl2(v128.xor(a16, d1), RHO16); b4 = rotl2(v128.xor(a22, d2), RHO22)
    e5 = v128.xor(b0, v128.andnot(b2, b1)); e6 = v128.xor(b1, v128.andnot(b3, b2)); e7 = v128.xor(b2, v128.andnot(b4, b3))
    e8 = v128.xor(b3, v128.andnot(b0, b4)); e9 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, e5); c1 = v128.xor(c1, e6); c2 = v128.xor(c2, e7); c3 = v128.xor(c3, e8); c4 = v128.xor(c4, e9)
    b0 = rotl2(v128.xor(a1, d1), RHO1); b1 = rotl2(v128.xor(a7, d2), RHO7); b2 = rotl2(v128.xor(a13, d3), RHO13)
    b3 = rotl2(v128.xor(a19, d4), RHO19); b4 = rotl2(v128.xor(a20, d0), RHO20)
    e10 = v128.xor(b0, v128.andnot(b2, b1)); e11 = v128.xor(b1, v128.andnot(b3, b2)); e12 = v128.xor(b2, v128.andnot(b4, b3))
    e13 = v128.xor(b3, v128.andnot(b0, b4)); e14 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, e10); c1 = v128.xor(c1, e11); c2 = v128.xor(c2, e12); c3 = v128.xor(c3, e13); c4 = v128.xor(c4, e14)
    b0 = rotl2(v128.xor(a4, d4), RHO4); b1 = rotl2(v128.xor(a5, d0), RHO5); b2 = rotl2(v128.xor(a11, d1), RHO11)
    b3 = rotl2(v128.xor(a17, d2), RHO17); b4 = rotl2(v128.xor(a23, d3), RHO23)
    e15 = v128.xor(b0, v128.andnot(b2, b1)); e16 = v128.xor(b1, v128.andnot(b3, b2)); e17 = v128.xor(b2, v128.andnot(b4, b3))
    e18 = v128.xor(b3, v128.andnot(b0, b4)); e19 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, e15); c1 = v128.xor(c1, e16); c2 = v128.xor(c2, e17); c3 = v128.xor(c3, e18); c4 = v128.xor(c4, e19)
    b0 = rotl2(v128.xor(a2, d2), RHO2); b1 = rotl2(v128.xor(a8, d3), RHO8); b2 = rotl2(v128.xor(a14, d4), RHO14)
    b3 = rotl2(v128.xor(a15, d0), RHO15); b4 = rotl2(v128.xor(a21, d1), RHO21)
    e20 = v128.xor(b0, v128.andnot(b2, b1)); e21 = v128.xor(b1, v128.andnot(b3, b2)); e22 = v128.xor(b2, v128.andnot(b4, b3))
    e23 = v128.xor(b3, v128.andnot(b0, b4)); e24 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, e20); c1 = v128.xor(c1, e21); c2 = v128.xor(c2, e22); c3 = v128.xor(c3, e23); c4 = v128.xor(c4, e24)
    // odd round: e -> a
    d0 = v128.xor(c4, rotl2(c1, 1)); d1 = v128.xor(c0, rotl2(c2, 1)); d2 = v128.xor(c1, rotl2(c3, 1))
    d3 = v128.xor(c2, rotl2(c4, 1)); d4 = v128.xor(c3, rotl2(c0, 1))
    b0 = v128.xor(e0, d0); b1 = rotl2(v128.xor(e6, d1), RHO6); b2 = rotl2(v128.xor(e12, d2), RHO12)
    b3 = rotl2(v128.xor(e18, d3), RHO18); b4 = rotl2(v128.xor(e24, d4), RHO24)
    a0 = v128.xor(v128.xor(b0, v128.andnot(b2, b1)), rcOdd); a1 = v128.xor(b1, v128.andnot(b3, b2)); a2 = v128.xor(b2, v128.andnot(b4, b3))
    a3 = v128.xor(b3, v128.andnot(b0, b4)); a4 = v128.xor(b4, v128.andnot(b1, b0))
    b0 = rotl2(v128.xor(e3, d3), RHO3); b1 = rotl2(v128.xor(e9, d4), RHO9); b2 = rotl2(v128.xor(e10, d0), RHO10)
    b3 = rotl2(v128.xor(e16, d1), RHO16); b4 = rotl2(v128.xor(e22, d2), RHO22)
    a5 = v128.xor(b0, v128.andnot(b2, b1)); a6 = v128.xor(b1, v128.andnot(b3, b2)); a7 = v128.xor(b2, v128.andnot(b4, b3))
    a8 = v128.xor(b3, v128.andnot(b0, b4)); a9 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(a0, a5); c1 = v128.xor(a1, a6); c2 = v128.xor(a2, a7); c3 = v128.xor(a3, a8); c4 = v128.xor(a4, a9)
    b0 = rotl2(v128.xor(e1, d1), RHO1); b1 = rotl2(v128.xor(e7, d2), RHO7); b2 = rotl2(v128.xor(e13, d3), RHO13)
    b3 = rotl2(v128.xor(e19, d4), RHO19); b4 = rotl2(v128.xor(e20, d0), RHO20)
    a10 = v128.xor(b0, v128.andnot(b2, b1)); a11 = v128.xor(b1, v128.andnot(b3, b2)); a12 = v128.xor(b2, v128.andnot(b4, b3))
    a13 = v128.xor(b3, v128.andnot(b0, b4)); a14 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, a10); c1 = v128.xor(c1, a11); c2 = v128.xor(c2, a12); c3 = v128.xor(c3, a13); c4 = v128.xor(c4, a14)
    b0 = rotl2(v128.xor(e4, d4), RHO4); b1 = rotl2(v128.xor(e5, d0), RHO5); b2 = rotl2(v128.xor(e11, d1), RHO11)
    b3 = rotl2(v128.xor(e17, d2), RHO17); b4 = rotl2(v128.xor(e23, d3), RHO23)
    a15 = v128.xor(b0, v128.andnot(b2, b1)); a16 = v128.xor(b1, v128.andnot(b3, b2)); a17 = v128.xor(b2, v128.andnot(b4, b3))
    a18 = v128.xor(b3, v128.andnot(b0, b4)); a19 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, a15); c1 = v128.xor(c1, a16); c2 = v128.xor(c2, a17); c3 = v128.xor(c3, a18); c4 = v128.xor(c4, a19)
    b0 = rotl2(v128.xor(e2, d2), RHO2); b1 = rotl2(v128.xor(e8, d3), RHO8); b2 = rotl2(v128.xor(e14, d4), RHO14)
    b3 = rotl2(v128.xor(e15, d0), RHO15); b4 = rotl2(v128.xor(e21, d1), RHO21)
    a20 = v128.xor(b0, v128.andnot(b2, b1)); a21 = v128.xor(b1, v128.andnot(b3, b2)); a22 = v128.xor(b2, v128.andnot(b4, b3))
    a23 = v128.xor(b3, v128.andnot(b0, b4)); a24 = v128.xor(b4, v128.andnot(b1, b0))
    c0 = v128.xor(c0, a20); c1 = v128.xor(c1, a21); c2 = v128.xor(c2, a22); c3 = v128.xor(c3, a23); c4 = v128.xor(c4, a24)
  }

  const rcEven = v128.load64_splat(ROUND_CONSTANTS + (22 << 3))
  const rcOdd = v128.load64_splat(ROUND_CONSTANTS + (22 << 3), 8)
  // round 22: a -> e
  d0 = v128.xor(c4, rotl2(c1, 1)); d1 = v128.xor(c0, rotl2(c2, 1)); d2 = v128.xor(c1, rotl2(c3, 1))
  d3 = v128.xor(c2, rotl2(c4, 1)); d4 = v128.xor(c3, rotl2(c0, 1))
  b0 = v128.xor(a0, d0); b1 = rotl2(v128.xor(a6, d1), RHO6); b2 = rotl2(v128.xor(a12, d2), RHO12)
  b3 = rotl2(v128.xor(a18, d3), RHO18); b4 = rotl2(v128.xor(a24, d4), RHO24)
  e0 = v128.xor(v128.xor(b0, v128.andnot(b2, b1)), rcEven); e1 = v128.xor(b1, v128.andnot(b3, b2)); e2 = v128.xor(b2, v128.andnot(b4, b3))
  e3 = v128.xor(b3, v128.andnot(b0, b4)); e4 = v128.xor(b4, v128.andnot(b1, b0))
  c0 = e0; c1 = e1; c2 = e2; c3 = e3; c4 = e4
  b0 = rotl2(v128.xor(a3, d3), RHO3); b1 = rotl2(v128.xor(a9, d4), RHO9); b2 = rotl2(v128.xor(a10, d0), RHO10)
  b3 = rotl2(v128.xor(a16, d1), RHO16); b4 = rotl2(v128.xor(a22, d2), RHO22)
  e5 = v128.xor(b0, v128.andnot(b2, b1)); e6 = v128.xor(b1, v128.andnot(b3, b2)); e7 = v128.xor(b2, v128.andnot(b4, b3))
  e8 = v128.xor(b3, v128.andnot(b0, b4)); e9 = v128.xor(b4, v128.andnot(b1, b0))
  c0 = v128.xor(c0, e5); c1 = v128.xor(c1, e6); c2 = v128.xor(c2, e7); c3 = v128.xor(c3, e8); c4 = v128.xor(c4, e9)
  b0 = rotl2(v128.xor(a1, d1), RHO1); b1 = rotl2(v128.xor(a7, d2), RHO7); b2 = rotl2(v128.xor(a13, d3), RHO13)
  b3 = rotl2(v128.xor(a19, d4), RHO19); b4 = rotl2(v128.xor(a20, d0), RHO20)
  e10 = v128.xor(b0, v128.andnot(b2, b1)); e11 = v128.xor(b1, v128.andnot(b3, b2)); e12 = v128.xor(b2, v128.andnot(b4, b3))
  e13 = v128.xor(b3, v128.andnot(b0, b4)); e14 = v128.xor(b4, v128.andnot(b1, b0))
  c0 = v128.xor(c0, e10); c1 = v128.xor(c1, e11); c2 = v128.xor(c2, e12); c3 = v128.xor(c3, e13); c4 = v128.xor(c4, e14)
  b0 = rotl2(v128.xor(a4, d4), RHO4); b1 = rotl2(v128.xor(a5, d0), RHO5); b2 = rotl2(v128.xor(a11, d1), RHO11)
  b3 = rotl2(v128.xor(a17, d2), RHO17); b4 = rotl2(v128.xor(a23, d3), RHO23)
  e15 = v128.xor(b0, v128.andnot(b2, b1)); e16 = v128.xor(b1, v128.andnot(b3, b2)); e17 = v128.xor(b2, v128.andnot(b4, b3))
  e18 = v128.xor(b3, v128.andnot(b0, b4)); e19 = v128.xor(b4, v128.andnot(b1, b0))
  c0 = v128.xor(c0, e15); c1 = v128.xor(c1, e16); c2 = v128.xor(c2, e17); c3 = v128.xor(c3, e18); c4 = v128.xor(c4, e19)
  b0 = rotl2(v128.xor(a2, d2), RHO2); b1 = rotl2(v128.xor(a8, d3), RHO8); b2 = rotl2(v128.xor(a14, d4), RHO14)
  b3 = rotl2(v128.xor(a15, d0), RHO15); b4 = rotl2(v128.xor(a21, d1), RHO21)
  e20 = v128.xor(b0, v128.andnot(b2, b1)); e21 = v128.xor(b1, v128.andnot(b3, b2)); e22 = v128.xor(b2, v128.andnot(b4, b3))
  e23 = v128.xor(b3, v128.andnot(b0, b4)); e24 = v128.xor(b4, v128.andnot(b1, b0))
  c0 = v128.xor(c0, e20); c1 = v128.xor(c1, e21); c2 = v128.xor(c2, e22); c3 = v128.xor(c3, e23); c4 = v128.xor(c4, e24)
  // round 23, the last: e -> a, lanes 0..7 only (the digest), no parities
  d0 = v128.xor(c4, rotl2(c1, 1)); d1 = v128.xor(c0, rotl2(c2, 1)); d2 = v128.xor(c1, rotl2(c3, 1))
  d3 = v128.xor(c2, rotl2(c4, 1)); d4 = v128.xor(c3, rotl2(c0, 1))
  b0 = v128.xor(e0, d0); b1 = rotl2(v128.xor(e6, d1), RHO6); b2 = rotl2(v128.xor(e12, d2), RHO12)
  b3 = rotl2(v128.xor(e18, d3), RHO18); b4 = rotl2(v128.xor(e24, d4), RHO24)
  a0 = v128.xor(v128.xor(b0, v128.andnot(b2, b1)), rcOdd); a1 = v128.xor(b1, v128.andnot(b3, b2)); a2 = v128.xor(b2, v128.andnot(b4, b3))
  a3 = v128.xor(b3, v128.andnot(b0, b4)); a4 = v128.xor(b4, v128.andnot(b1, b0))
  b0 = rotl2(v128.xor(e3, d3), RHO3); b1 = rotl2(v128.xor(e9, d4), RHO9); b2 = rotl2(v128.xor(e10, d0), RHO10)
  b3 = rotl2(v128.xor(e16, d1), RHO16); b4 = rotl2(v128.xor(e22, d2), RHO22)
  a5 = v128.xor(b0, v128.andnot(b2, b1)); a6 = v128.xor(b1, v128.andnot(b3, b2)); a7 = v128.xor(b2, v128.andnot(b4, b3))

  v128.store(to, a0, 0); v128.store(to, a1, 16); v128.store(to, a2, 32); v128.store(to, a3, 48)
  v128.store(to, a4, 64); v128.store(to, a5, 80); v128.store(to, a6, 96); v128.store(to, a7, 112)
}
