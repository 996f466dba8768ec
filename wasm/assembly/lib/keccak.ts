// Keccak-f[1600] and the SHA-3 sponge over a 200-byte state kept in linear memory.
// Lanes are little-endian u64, which is both FIPS 202's byte order and WebAssembly's, so the
// state's bytes ARE the sponge bytes: input XORs straight into them and the digest is simply
// the state's first bytes. Nothing here allocates; callers own the memory they pass in.

export const STATE_BYTES: i32 = 200

// FIPS 202 round constants RC[0..23] for iota (keccak-simd.ts reads them too).
export const ROUND_CONSTANTS: usize = memory.data<u64>([
  0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
  0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
  0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
  0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
  0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
  0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008
])

// FIPS 202 rho offsets by lane index x + 5y (lane 0 is not rotated); keccak-simd.ts reads them too.
export const RHO1: i32 = 1, RHO2: i32 = 62, RHO3: i32 = 28, RHO4: i32 = 27, RHO5: i32 = 36, RHO6: i32 = 44,
  RHO7: i32 = 6, RHO8: i32 = 55, RHO9: i32 = 20, RHO10: i32 = 3, RHO11: i32 = 10, RHO12: i32 = 43,
  RHO13: i32 = 25, RHO14: i32 = 39, RHO15: i32 = 41, RHO16: i32 = 45, RHO17: i32 = 15, RHO18: i32 = 21,
  RHO19: i32 = 8, RHO20: i32 = 18, RHO21: i32 = 2, RHO22: i32 = 61, RHO23: i32 = 56, RHO24: i32 = 14

/**
 * Keccak-f[1600] in place. The 25 lanes live in locals for all 24 rounds (one load and one
 * store per lane per call). Each loop pass is two rounds written out lane by lane, a -> e then
 * e -> a, so no lane is copied between rounds:
 * - theta: chi of the previous round already accumulated the column parities c0..c4;
 * - rho and pi fused, one row of five at a time: b[y + 5((2x+3y) mod 5)] = rotl(a[x+5y] ^ d[x], r[x][y]);
 * - chi on that row, then iota on lane 0.
 * Lane complementing: lanes 1, 3, 8, 10, 11, 15, 18, 19, 23 and 24 are held inverted between
 * load and store. Theta leaves that set alone (every column holds an even number of them) and
 * chi maps it back onto itself using AND/OR forms with 7 NOTs per round instead of 25 (the set
 * and the forms come from an exhaustive search over masks; the test vectors check them).
 */
export function keccakF1600 (state: usize): void {
  let a0 = load<u64>(state, 0), a1 = ~load<u64>(state, 8), a2 = load<u64>(state, 16), a3 = ~load<u64>(state, 24)
  let a4 = load<u64>(state, 32), a5 = load<u64>(state, 40), a6 = load<u64>(state, 48), a7 = load<u64>(state, 56)
  let a8 = ~load<u64>(state, 64), a9 = load<u64>(state, 72), a10 = ~load<u64>(state, 80), a11 = ~load<u64>(state, 88)
  let a12 = load<u64>(state, 96), a13 = load<u64>(state, 104), a14 = load<u64>(state, 112), a15 = ~load<u64>(state, 120)
  let a16 = load<u64>(state, 128), a17 = load<u64>(state, 136), a18 = ~load<u64>(state, 144), a19 = ~load<u64>(state, 152)
  let a20 = load<u64>(state, 160), a21 = load<u64>(state, 168), a22 = load<u64>(state, 176), a23 = ~load<u64>(state, 184)
  let a24 = ~load<u64>(state, 192)
  let e0: u64 = 0, e1: u64 = 0, e2: u64 = 0, e3: u64 = 0, e4: u64 = 0, e5: u64 = 0, e6: u64 = 0
  let e7: u64 = 0, e8: u64 = 0, e9: u64 = 0, e10: u64 = 0, e11: u64 = 0, e12: u64 = 0, e13: u64 = 0
  let e14: u64 = 0, e15: u64 = 0, e16: u64 = 0, e17: u64 = 0, e18: u64 = 0, e19: u64 = 0
  let e20: u64 = 0, e21: u64 = 0, e22: u64 = 0, e23: u64 = 0, e24: u64 = 0
  let b0: u64 = 0, b1: u64 = 0, b2: u64 = 0, b3: u64 = 0, b4: u64 = 0
  let n0: u64 = 0, n1: u64 = 0, n4: u64 = 0
  let d0: u64 = 0, d1: u64 = 0, d2: u64 = 0, d3: u64 = 0, d4: u64 = 0
  let c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20, c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21, c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22
  let c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23, c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24

  for (let round: usize = 0; round < 24; round += 2) {
    const rcEven = load<u64>(ROUND_CONSTANTS + (round << 3))
    const rcOdd = load<u64>(ROUND_CONSTANTS + (round << 3), 8)
    // even round: a -> e
    d0 = c4 ^ rotl<u64>(c1, 1); d1 = c0 ^ rotl<u64>(c2, 1); d2 = c1 ^ rotl<u64>(c3, 1)
    d3 = c2 ^ rotl<u64>(c4, 1); d4 = c3 ^ rotl<u64>(c0, 1)
    b0 = a0 ^ d0; b1 = rotl<u64>(a6 ^ d1, RHO6); b2 = rotl<u64>(a12 ^ d2, RHO12)
    b3 = rotl<u64>(a18 ^ d3, RHO18); b4 = rotl<u64>(a24 ^ d4, RHO24)
    n1 = ~b1; n4 = ~b4
    e0 = b0 ^ (n1 & b2) ^ rcEven; e1 = b1 ^ (b2 | b3); e2 = b2 ^ (b3 & n4)
    e3 = b3 ^ (b4 & b0); e4 = b4 ^ (b0 | n1)
    c0 = e0; c1 = e1; c2 = e2; c3 = e3; c4 = e4
    b0 = rotl<u64>(a3 ^ d3, RHO3); b1 = rotl<u64>(a9 ^ d4, RHO9); b2 = rotl<u64>(a10 ^ d0, RHO10)
    b3 = rotl<u64>(a16 ^ d1, RHO16); b4 = rotl<u64>(a22 ^ d2, RHO22)
    n4 = ~b4
    e5 = b0 ^ (b1 | b2); e6 = b1 ^ (b2 & b3); e7 = b2 ^ (b3 | n4)
    e8 = b3 ^ (b4 | b0); e9 = b4 ^ (b0 & b1)
    c0 ^= e5; c1 ^= e6; c2 ^= e7; c3 ^= e8; c4 ^= e9
    b0 = rotl<u64>(a1 ^ d1, RHO1); b1 = rotl<u64>(a7 ^ d2, RHO7); b2 = rotl<u64>(a13 ^ d3, RHO13)
    b3 = rotl<u64>(a19 ^ d4, RHO19); b4 = rotl<u64>(a20 ^ d0, RHO20)
    n1 = ~b1
    e10 = b0 ^ (n1 & b2); e11 = b1 ^ (b2 | b3); e12 = b2 ^ (b3 & b4)
    e13 = b3 ^ (b4 | b0); e14 = b4 ^ (b0 & b1)
    c0 ^= e10; c1 ^= e11; c2 ^= e12; c3 ^= e13; c4 ^= e14
    b0 = rotl<u64>(a4 ^ d4, RHO4); b1 = rotl<u64>(a5 ^ d0, RHO5); b2 = rotl<u64>(a11 ^ d1, RHO11)
    b3 = rotl<u64>(a17 ^ d2, RHO17); b4 = rotl<u64>(a23 ^ d3, RHO23)
    n0 = ~b0
    e15 = b0 ^ (b1 | b2); e16 = b1 ^ (b2 & b3); e17 = b2 ^ (b3 | b4)
    e18 = ~(b3 ^ (b4 & b0)); e19 = b4 ^ (n0 & b1)
    c0 ^= e15; c1 ^= e16; c2 ^= e17; c3 ^= e18; c4 ^= e19
    b0 = rotl<u64>(a2 ^ d2, RHO2); b1 = rotl<u64>(a8 ^ d3, RHO8); b2 = rotl<u64>(a14 ^ d4, RHO14)
    b3 = rotl<u64>(a15 ^ d0, RHO15); b4 = rotl<u64>(a21 ^ d1, RHO21)
    n4 = ~b4
    e20 = b0 ^ (b1 & b2); e21 = b1 ^ (b2 | b3); e22 = b2 ^ (b3 & b4)
    e23 = b3 ^ (n4 & b0); e24 = b4 ^ (b0 | b1)
    c0 ^= e20; c1 ^= e21; c2 ^= e22; c3 ^= e23; c4 ^= e24
    // odd round: e -> a
    d0 = c4 ^ rotl<u64>(c1, 1); d1 = c0 ^ rotl<u64>(c2, 1); d2 = c1 ^ rotl<u64>(c3, 1)
    d3 = c2 ^ rotl<u64>(c4, 1); d4 = c3 ^ rotl<u64>(c0, 1)
    b0 = e0 ^ d0; b1 = rotl<u64>(e6 ^ d1, RHO6); b2 = rotl<u64>(e12 ^ d2, RHO12)
    b3 = rotl<u64>(e18 ^ d3, RHO18); b4 = rotl<u64>(e24 ^ d4, RHO24)
    n1 = ~b1; n4 = ~b4
    a0 = b0 ^ (n1 & b2) ^ rcOdd; a1 = b1 ^ (b2 | b3); a2 = b2 ^ (b3 & n4)
    a3 = b3 ^ (b4 & b0); a4 = b4 ^ (b0 | n1)
    c0 = a0; c1 = a1; c2 = a2; c3 = a3; c4 = a4
    b0 = rotl<u64>(e3 ^ d3, RHO3); b1 = rotl<u64>(e9 ^ d4, RHO9); b2 = rotl<u64>(e10 ^ d0, RHO10)
    b3 = rotl<u64>(e16 ^ d1, RHO16); b4 = rotl<u64>(e22 ^ d2, RHO22)
    n4 = ~b4
    a5 = b0 ^ (b1 | b2); a6 = b1 ^ (b2 & b3); a7 = b2 ^ (b3 | n4)
    a8 = b3 ^ (b4 | b0); a9 = b4 ^ (b0 & b1)
    c0 ^= a5; c1 ^= a6; c2 ^= a7; c3 ^= a8; c4 ^= a9
    b0 = rotl<u64>(e1 ^ d1, RHO1); b1 = rotl<u64>(e7 ^ d2, RHO7); b2 = rotl<u64>(e13 ^ d3, RHO13)
    b3 = rotl<u64>(e19 ^ d4, RHO19); b4 = rotl<u64>(e20 ^ d0, RHO20)
    n1 = ~b1
    a10 = b0 ^ (n1 & b2); a11 = b1 ^ (b2 | b3); a12 = b2 ^ (b3 & b4)
    a13 = b3 ^ (b4 | b0); a14 = b4 ^ (b0 & b1)
    c0 ^= a10; c1 ^= a11; c2 ^= a12; c3 ^= a13; c4 ^= a14
    b0 = rotl<u64>(e4 ^ d4, RHO4); b1 = rotl<u64>(e5 ^ d0, RHO5); b2 = rotl<u64>(e11 ^ d1, RHO11)
    b3 = rotl<u64>(e17 ^ d2, RHO17); b4 = rotl<u64>(e23 ^ d3, RHO23)
    n0 = ~b0
    a15 = b0 ^ (b1 | b2); a16 = b1 ^ (b2 & b3); a17 = b2 ^ (b3 | b4)
    a18 = ~(b3 ^ (b4 & b0)); a19 = b4 ^ (n0 & b1)
    c0 ^= a15; c1 ^= a16; c2 ^= a17; c3 ^= a18; c4 ^= a19
    b0 = rotl<u64>(e2 ^ d2, RHO2); b1 = rotl<u64>(e8 ^ d3, RHO8); b2 = rotl<u64>(e14 ^ d4, RHO14)
    b3 = rotl<u64>(e15 ^ d0, RHO15); b4 = rotl<u64>(e21 ^ d1, RHO21)
    n4 = ~b4
    a20 = b0 ^ (b1 & b2); a21 = b1 ^ (b2 | b3); a22 = b2 ^ (b3 & b4)
    a23 = b3 ^ (n4 & b0); a24 = b4 ^ (b0 | b1)
    c0 ^= a20; c1 ^= a21; c2 ^= a22; c3 ^= a23; c4 ^= a24
  }

  store<u64>(state, a0, 0); store<u64>(state, ~a1, 8); store<u64>(state, a2, 16); store<u64>(state, ~a3, 24)
  store<u64>(state, a4, 32); store<u64>(state, a5, 40); store<u64>(state, a6, 48); store<u64>(state, a7, 56)
  store<u64>(state, ~a8, 64); store<u64>(state, a9, 72); store<u64>(state, ~a10, 80); store<u64>(state, ~a11, 88)
  store<u64>(state, a12, 96); store<u64>(state, a13, 104); store<u64>(state, a14, 112); store<u64>(state, ~a15, 120)
  store<u64>(state, a16, 128); store<u64>(state, a17, 136); store<u64>(state, ~a18, 144); store<u64>(state, ~a19, 152)
  store<u64>(state, a20, 160); store<u64>(state, a21, 168); store<u64>(state, a22, 176); store<u64>(state, ~a23, 184)
  store<u64>(state, ~a24, 192)
}

/** Zeroes the state (a fresh sponge). */
export function resetState (state: usize): void {
  memory.fill(state, 0, STATE_BYTES)
}

/** XORs `length` bytes at `input` into the state from byte 0: whole lanes, then the odd bytes. */
export function xorIntoState (state: usize, input: usize, length: i32): void {
  const wholeLanes = length >>> 3
  for (let i = 0; i < wholeLanes; i++) {
    const at = <usize>(i << 3)
    store<u64>(state + at, load<u64>(state + at) ^ load<u64>(input + at))
  }
  for (let i = wholeLanes << 3; i < length; i++) {
    store<u8>(state + i, load<u8>(state + i) ^ load<u8>(input + i))
  }
}

/** XORs one byte into the state at byte offset `at`. */
// @ts-ignore: decorator
@inline export function xorByte (state: usize, at: i32, value: u8): void {
  store<u8>(state + at, load<u8>(state + at) ^ value)
}

/** Absorbs every whole `rate`-byte block of input[0..length) and returns the bytes consumed. */
export function absorbBlocks (state: usize, input: usize, length: i32, rate: i32): i32 {
  let done = 0
  while (length - done >= rate) {
    xorIntoState(state, input + done, rate)
    keccakF1600(state)
    done += rate
  }
  return done
}

/** SHA-3 padding (domain bits 01, then pad10*1) after `messageBytes` bytes of the last block. */
// @ts-ignore: decorator
@inline export function padBlock (state: usize, messageBytes: i32, rate: i32): void {
  xorByte(state, messageBytes, 0x06)
  xorByte(state, rate - 1, 0x80)
}

/**
 * Absorbs the final `length` (< rate) bytes with SHA-3 padding and permutes; the digest is
 * then the state's first bytes.
 */
export function absorbFinal (state: usize, input: usize, length: i32, rate: i32): void {
  xorIntoState(state, input, length)
  padBlock(state, length, rate)
  keccakF1600(state)
}
