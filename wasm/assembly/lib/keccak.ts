// Keccak-f[1600] and the SHA-3 sponge over a 200-byte state kept in linear memory.
// Lanes are little-endian u64, which is both FIPS 202's byte order and WebAssembly's, so the
// state's bytes ARE the sponge bytes: input XORs straight into them and the digest is simply
// the state's first bytes. Nothing here allocates; callers own the memory they pass in.

export const STATE_BYTES: i32 = 200

// FIPS 202 round constants RC[0..23] for iota.
const ROUND_CONSTANTS: usize = memory.data<u64>([
  0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
  0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
  0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
  0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
  0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
  0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008
])

/**
 * Keccak-f[1600] in place. The 25 lanes live in locals for all 24 rounds (one load and one
 * store per lane per call); each round is written out lane by lane, with rho and pi fused
 * into one step: b[y + 5*((2x+3y) mod 5)] = rotl(a[x + 5y] ^ d[x], r[x][y]).
 */
export function keccakF1600 (state: usize): void {
  let a0 = load<u64>(state, 0); let a1 = load<u64>(state, 8); let a2 = load<u64>(state, 16)
  let a3 = load<u64>(state, 24); let a4 = load<u64>(state, 32); let a5 = load<u64>(state, 40)
  let a6 = load<u64>(state, 48); let a7 = load<u64>(state, 56); let a8 = load<u64>(state, 64)
  let a9 = load<u64>(state, 72); let a10 = load<u64>(state, 80); let a11 = load<u64>(state, 88)
  let a12 = load<u64>(state, 96); let a13 = load<u64>(state, 104); let a14 = load<u64>(state, 112)
  let a15 = load<u64>(state, 120); let a16 = load<u64>(state, 128); let a17 = load<u64>(state, 136)
  let a18 = load<u64>(state, 144); let a19 = load<u64>(state, 152); let a20 = load<u64>(state, 160)
  let a21 = load<u64>(state, 168); let a22 = load<u64>(state, 176); let a23 = load<u64>(state, 184)
  let a24 = load<u64>(state, 192)

  for (let round: usize = 0; round < 24; round++) {
    // theta: column parities, then each column's d from its neighbours
    const c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20
    const c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21
    const c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22
    const c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23
    const c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24
    const d0 = c4 ^ rotl<u64>(c1, 1)
    const d1 = c0 ^ rotl<u64>(c2, 1)
    const d2 = c1 ^ rotl<u64>(c3, 1)
    const d3 = c2 ^ rotl<u64>(c4, 1)
    const d4 = c3 ^ rotl<u64>(c0, 1)

    // rho + pi
    const b0 = a0 ^ d0
    const b1 = rotl<u64>(a6 ^ d1, 44)
    const b2 = rotl<u64>(a12 ^ d2, 43)
    const b3 = rotl<u64>(a18 ^ d3, 21)
    const b4 = rotl<u64>(a24 ^ d4, 14)
    const b5 = rotl<u64>(a3 ^ d3, 28)
    const b6 = rotl<u64>(a9 ^ d4, 20)
    const b7 = rotl<u64>(a10 ^ d0, 3)
    const b8 = rotl<u64>(a16 ^ d1, 45)
    const b9 = rotl<u64>(a22 ^ d2, 61)
    const b10 = rotl<u64>(a1 ^ d1, 1)
    const b11 = rotl<u64>(a7 ^ d2, 6)
    const b12 = rotl<u64>(a13 ^ d3, 25)
    const b13 = rotl<u64>(a19 ^ d4, 8)
    const b14 = rotl<u64>(a20 ^ d0, 18)
    const b15 = rotl<u64>(a4 ^ d4, 27)
    const b16 = rotl<u64>(a5 ^ d0, 36)
    const b17 = rotl<u64>(a11 ^ d1, 10)
    const b18 = rotl<u64>(a17 ^ d2, 15)
    const b19 = rotl<u64>(a23 ^ d3, 56)
    const b20 = rotl<u64>(a2 ^ d2, 62)
    const b21 = rotl<u64>(a8 ^ d3, 55)
    const b22 = rotl<u64>(a14 ^ d4, 39)
    const b23 = rotl<u64>(a15 ^ d0, 41)
    const b24 = rotl<u64>(a21 ^ d1, 2)

    // chi (row by row) and iota
    a0 = b0 ^ (~b1 & b2) ^ load<u64>(ROUND_CONSTANTS + (round << 3))
    a1 = b1 ^ (~b2 & b3)
    a2 = b2 ^ (~b3 & b4)
    a3 = b3 ^ (~b4 & b0)
    a4 = b4 ^ (~b0 & b1)
    a5 = b5 ^ (~b6 & b7)
    a6 = b6 ^ (~b7 & b8)
    a7 = b7 ^ (~b8 & b9)
    a8 = b8 ^ (~b9 & b5)
    a9 = b9 ^ (~b5 & b6)
    a10 = b10 ^ (~b11 & b12)
    a11 = b11 ^ (~b12 & b13)
    a12 = b12 ^ (~b13 & b14)
    a13 = b13 ^ (~b14 & b10)
    a14 = b14 ^ (~b10 & b11)
    a15 = b15 ^ (~b16 & b17)
    a16 = b16 ^ (~b17 & b18)
    a17 = b17 ^ (~b18 & b19)
    a18 = b18 ^ (~b19 & b15)
    a19 = b19 ^ (~b15 & b16)
    a20 = b20 ^ (~b21 & b22)
    a21 = b21 ^ (~b22 & b23)
    a22 = b22 ^ (~b23 & b24)
    a23 = b23 ^ (~b24 & b20)
    a24 = b24 ^ (~b20 & b21)
  }

  store<u64>(state, a0, 0); store<u64>(state, a1, 8); store<u64>(state, a2, 16)
  store<u64>(state, a3, 24); store<u64>(state, a4, 32); store<u64>(state, a5, 40)
  store<u64>(state, a6, 48); store<u64>(state, a7, 56); store<u64>(state, a8, 64)
  store<u64>(state, a9, 72); store<u64>(state, a10, 80); store<u64>(state, a11, 88)
  store<u64>(state, a12, 96); store<u64>(state, a13, 104); store<u64>(state, a14, 112)
  store<u64>(state, a15, 120); store<u64>(state, a16, 128); store<u64>(state, a17, 136)
  store<u64>(state, a18, 144); store<u64>(state, a19, 152); store<u64>(state, a20, 160)
  store<u64>(state, a21, 168); store<u64>(state, a22, 176); store<u64>(state, a23, 184)
  store<u64>(state, a24, 192)
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

/**
 * Absorbs the final `length` (< rate) bytes with SHA-3 padding (domain bits 01, then pad10*1)
 * and permutes; the digest is then the state's first bytes.
 */
export function absorbFinal (state: usize, input: usize, length: i32, rate: i32): void {
  xorIntoState(state, input, length)
  xorByte(state, length, 0x06)
  xorByte(state, rate - 1, 0x80)
  keccakF1600(state)
}
