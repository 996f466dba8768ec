// Keccak-f[1600] and the SHA-3 sponge in plain JS, for the JS twins of the WASM cores.
// JS has no fast 64-bit integers, so each lane is two int32 halves, stored interleaved
// [lo0, hi0, lo1, hi1, ...] in an Int32Array(50): on a little-endian view that is exactly the
// sponge's byte order, so word w holds state bytes 4w..4w+3 (least significant first).
// The permutation keeps all 50 halves in locals for the 24 rounds and writes each round out
// lane by lane (rho and pi fused: b[y + 5((2x + 3y) mod 5)] = rotl(a[x + 5y] ^ d[x], r[x][y])).

export const STATE_WORDS = 50

// FIPS 202 round constants as (lo, hi) pairs.
const ROUND_CONSTANTS = new Int32Array([
  0x00000001, 0x00000000, 0x00008082, 0x00000000, 0x0000808a, 0x80000000, 0x80008000, 0x80000000,
  0x0000808b, 0x00000000, 0x80000001, 0x00000000, 0x80008081, 0x80000000, 0x00008009, 0x80000000,
  0x0000008a, 0x00000000, 0x00000088, 0x00000000, 0x80008009, 0x00000000, 0x8000000a, 0x00000000,
  0x8000808b, 0x00000000, 0x0000008b, 0x80000000, 0x00008089, 0x80000000, 0x00008003, 0x80000000,
  0x00008002, 0x80000000, 0x00000080, 0x80000000, 0x0000800a, 0x00000000, 0x8000000a, 0x80000000,
  0x80008081, 0x80000000, 0x00008080, 0x80000000, 0x80000001, 0x00000000, 0x80008008, 0x80000000
])

/** Keccak-f[1600] in place over a 50-word state. */
export function keccakF1600 (s: Int32Array): void {
  let a0l = s[0]!, a0h = s[1]!, a1l = s[2]!, a1h = s[3]!, a2l = s[4]!, a2h = s[5]!,
    a3l = s[6]!, a3h = s[7]!, a4l = s[8]!, a4h = s[9]!, a5l = s[10]!, a5h = s[11]!,
    a6l = s[12]!, a6h = s[13]!, a7l = s[14]!, a7h = s[15]!, a8l = s[16]!, a8h = s[17]!,
    a9l = s[18]!, a9h = s[19]!, a10l = s[20]!, a10h = s[21]!, a11l = s[22]!, a11h = s[23]!,
    a12l = s[24]!, a12h = s[25]!, a13l = s[26]!, a13h = s[27]!, a14l = s[28]!, a14h = s[29]!,
    a15l = s[30]!, a15h = s[31]!, a16l = s[32]!, a16h = s[33]!, a17l = s[34]!, a17h = s[35]!,
    a18l = s[36]!, a18h = s[37]!, a19l = s[38]!, a19h = s[39]!, a20l = s[40]!, a20h = s[41]!,
    a21l = s[42]!, a21h = s[43]!, a22l = s[44]!, a22h = s[45]!, a23l = s[46]!, a23h = s[47]!,
    a24l = s[48]!, a24h = s[49]!

  for (let r = 0; r < 48; r += 2) {
    // theta: column parities, then each column's d from its neighbours
    const c0l = a0l ^ a5l ^ a10l ^ a15l ^ a20l, c0h = a0h ^ a5h ^ a10h ^ a15h ^ a20h
    const c1l = a1l ^ a6l ^ a11l ^ a16l ^ a21l, c1h = a1h ^ a6h ^ a11h ^ a16h ^ a21h
    const c2l = a2l ^ a7l ^ a12l ^ a17l ^ a22l, c2h = a2h ^ a7h ^ a12h ^ a17h ^ a22h
    const c3l = a3l ^ a8l ^ a13l ^ a18l ^ a23l, c3h = a3h ^ a8h ^ a13h ^ a18h ^ a23h
    const c4l = a4l ^ a9l ^ a14l ^ a19l ^ a24l, c4h = a4h ^ a9h ^ a14h ^ a19h ^ a24h
    const d0l = c4l ^ (c1l << 1 | c1h >>> 31), d0h = c4h ^ (c1h << 1 | c1l >>> 31)
    const d1l = c0l ^ (c2l << 1 | c2h >>> 31), d1h = c0h ^ (c2h << 1 | c2l >>> 31)
    const d2l = c1l ^ (c3l << 1 | c3h >>> 31), d2h = c1h ^ (c3h << 1 | c3l >>> 31)
    const d3l = c2l ^ (c4l << 1 | c4h >>> 31), d3h = c2h ^ (c4h << 1 | c4l >>> 31)
    const d4l = c3l ^ (c0l << 1 | c0h >>> 31), d4h = c3h ^ (c0h << 1 | c0l >>> 31)
    // rho + pi: b[y + 5((2x + 3y) mod 5)] = rotl(a[x + 5y] ^ d[x], r[x][y])
    const b0l = a0l ^ d0l, b0h = a0h ^ d0h
    const t1l = a6l ^ d1l, t1h = a6h ^ d1h // rotl 44
    const b1l = t1h << 12 | t1l >>> 20, b1h = t1l << 12 | t1h >>> 20
    const t2l = a12l ^ d2l, t2h = a12h ^ d2h // rotl 43
    const b2l = t2h << 11 | t2l >>> 21, b2h = t2l << 11 | t2h >>> 21
    const t3l = a18l ^ d3l, t3h = a18h ^ d3h // rotl 21
    const b3l = t3l << 21 | t3h >>> 11, b3h = t3h << 21 | t3l >>> 11
    const t4l = a24l ^ d4l, t4h = a24h ^ d4h // rotl 14
    const b4l = t4l << 14 | t4h >>> 18, b4h = t4h << 14 | t4l >>> 18
    const t5l = a3l ^ d3l, t5h = a3h ^ d3h // rotl 28
    const b5l = t5l << 28 | t5h >>> 4, b5h = t5h << 28 | t5l >>> 4
    const t6l = a9l ^ d4l, t6h = a9h ^ d4h // rotl 20
    const b6l = t6l << 20 | t6h >>> 12, b6h = t6h << 20 | t6l >>> 12
    const t7l = a10l ^ d0l, t7h = a10h ^ d0h // rotl 3
    const b7l = t7l << 3 | t7h >>> 29, b7h = t7h << 3 | t7l >>> 29
    const t8l = a16l ^ d1l, t8h = a16h ^ d1h // rotl 45
    const b8l = t8h << 13 | t8l >>> 19, b8h = t8l << 13 | t8h >>> 19
    const t9l = a22l ^ d2l, t9h = a22h ^ d2h // rotl 61
    const b9l = t9h << 29 | t9l >>> 3, b9h = t9l << 29 | t9h >>> 3
    const t10l = a1l ^ d1l, t10h = a1h ^ d1h // rotl 1
    const b10l = t10l << 1 | t10h >>> 31, b10h = t10h << 1 | t10l >>> 31
    const t11l = a7l ^ d2l, t11h = a7h ^ d2h // rotl 6
    const b11l = t11l << 6 | t11h >>> 26, b11h = t11h << 6 | t11l >>> 26
    const t12l = a13l ^ d3l, t12h = a13h ^ d3h // rotl 25
    const b12l = t12l << 25 | t12h >>> 7, b12h = t12h << 25 | t12l >>> 7
    const t13l = a19l ^ d4l, t13h = a19h ^ d4h // rotl 8
    const b13l = t13l << 8 | t13h >>> 24, b13h = t13h << 8 | t13l >>> 24
    const t14l = a20l ^ d0l, t14h = a20h ^ d0h // rotl 18
    const b14l = t14l << 18 | t14h >>> 14, b14h = t14h << 18 | t14l >>> 14
    const t15l = a4l ^ d4l, t15h = a4h ^ d4h // rotl 27
    const b15l = t15l << 27 | t15h >>> 5, b15h = t15h << 27 | t15l >>> 5
    const t16l = a5l ^ d0l, t16h = a5h ^ d0h // rotl 36
    const b16l = t16h << 4 | t16l >>> 28, b16h = t16l << 4 | t16h >>> 28
    const t17l = a11l ^ d1l, t17h = a11h ^ d1h // rotl 10
    const b17l = t17l << 10 | t17h >>> 22, b17h = t17h << 10 | t17l >>> 22
    const t18l = a17l ^ d2l, t18h = a17h ^ d2h // rotl 15
    const b18l = t18l << 15 | t18h >>> 17, b18h = t18h << 15 | t18l >>> 17
    const t19l = a23l ^ d3l, t19h = a23h ^ d3h // rotl 56
    const b19l = t19h << 24 | t19l >>> 8, b19h = t19l << 24 | t19h >>> 8
    const t20l = a2l ^ d2l, t20h = a2h ^ d2h // rotl 62
    const b20l = t20h << 30 | t20l >>> 2, b20h = t20l << 30 | t20h >>> 2
    const t21l = a8l ^ d3l, t21h = a8h ^ d3h // rotl 55
    const b21l = t21h << 23 | t21l >>> 9, b21h = t21l << 23 | t21h >>> 9
    const t22l = a14l ^ d4l, t22h = a14h ^ d4h // rotl 39
    const b22l = t22h << 7 | t22l >>> 25, b22h = t22l << 7 | t22h >>> 25
    const t23l = a15l ^ d0l, t23h = a15h ^ d0h // rotl 41
    const b23l = t23h << 9 | t23l >>> 23, b23h = t23l << 9 | t23h >>> 23
    const t24l = a21l ^ d1l, t24h = a21h ^ d1h // rotl 2
    const b24l = t24l << 2 | t24h >>> 30, b24h = t24h << 2 | t24l >>> 30
    // chi, row by row; iota on lane 0
    a0l = b0l ^ (~b1l & b2l); a0h = b0h ^ (~b1h & b2h)
    a1l = b1l ^ (~b2l & b3l); a1h = b1h ^ (~b2h & b3h)
    a2l = b2l ^ (~b3l & b4l); a2h = b2h ^ (~b3h & b4h)
    a3l = b3l ^ (~b4l & b0l); a3h = b3h ^ (~b4h & b0h)
    a4l = b4l ^ (~b0l & b1l); a4h = b4h ^ (~b0h & b1h)
    a5l = b5l ^ (~b6l & b7l); a5h = b5h ^ (~b6h & b7h)
    a6l = b6l ^ (~b7l & b8l); a6h = b6h ^ (~b7h & b8h)
    a7l = b7l ^ (~b8l & b9l); a7h = b7h ^ (~b8h & b9h)
    a8l = b8l ^ (~b9l & b5l); a8h = b8h ^ (~b9h & b5h)
    a9l = b9l ^ (~b5l & b6l); a9h = b9h ^ (~b5h & b6h)
    a10l = b10l ^ (~b11l & b12l); a10h = b10h ^ (~b11h & b12h)
    a11l = b11l ^ (~b12l & b13l); a11h = b11h ^ (~b12h & b13h)
    a12l = b12l ^ (~b13l & b14l); a12h = b12h ^ (~b13h & b14h)
    a13l = b13l ^ (~b14l & b10l); a13h = b13h ^ (~b14h & b10h)
    a14l = b14l ^ (~b10l & b11l); a14h = b14h ^ (~b10h & b11h)
    a15l = b15l ^ (~b16l & b17l); a15h = b15h ^ (~b16h & b17h)
    a16l = b16l ^ (~b17l & b18l); a16h = b16h ^ (~b17h & b18h)
    a17l = b17l ^ (~b18l & b19l); a17h = b17h ^ (~b18h & b19h)
    a18l = b18l ^ (~b19l & b15l); a18h = b18h ^ (~b19h & b15h)
    a19l = b19l ^ (~b15l & b16l); a19h = b19h ^ (~b15h & b16h)
    a20l = b20l ^ (~b21l & b22l); a20h = b20h ^ (~b21h & b22h)
    a21l = b21l ^ (~b22l & b23l); a21h = b21h ^ (~b22h & b23h)
    a22l = b22l ^ (~b23l & b24l); a22h = b22h ^ (~b23h & b24h)
    a23l = b23l ^ (~b24l & b20l); a23h = b23h ^ (~b24h & b20h)
    a24l = b24l ^ (~b20l & b21l); a24h = b24h ^ (~b20h & b21h)

    a0l ^= ROUND_CONSTANTS[r]!; a0h ^= ROUND_CONSTANTS[r + 1]!
  }

  s[0] = a0l; s[1] = a0h; s[2] = a1l; s[3] = a1h; s[4] = a2l; s[5] = a2h
  s[6] = a3l; s[7] = a3h; s[8] = a4l; s[9] = a4h; s[10] = a5l; s[11] = a5h
  s[12] = a6l; s[13] = a6h; s[14] = a7l; s[15] = a7h; s[16] = a8l; s[17] = a8h
  s[18] = a9l; s[19] = a9h; s[20] = a10l; s[21] = a10h; s[22] = a11l; s[23] = a11h
  s[24] = a12l; s[25] = a12h; s[26] = a13l; s[27] = a13h; s[28] = a14l; s[29] = a14h
  s[30] = a15l; s[31] = a15h; s[32] = a16l; s[33] = a16h; s[34] = a17l; s[35] = a17h
  s[36] = a18l; s[37] = a18h; s[38] = a19l; s[39] = a19h; s[40] = a20l; s[41] = a20h
  s[42] = a21l; s[43] = a21h; s[44] = a22l; s[45] = a22h; s[46] = a23l; s[47] = a23h
  s[48] = a24l; s[49] = a24h
}

/** XORs data[offset .. offset + length) into the state starting at state byte 0. */
export function xorBytes (s: Int32Array, data: Uint8Array, offset: number, length: number): void {
  let i = 0
  for (let w = 0; i + 4 <= length; i += 4, w++) {
    const p = offset + i
    s[w] = s[w]! ^ (data[p]! | data[p + 1]! << 8 | data[p + 2]! << 16 | data[p + 3]! << 24)
  }
  for (; i < length; i++) s[i >> 2] = s[i >> 2]! ^ (data[offset + i]! << ((i & 3) << 3))
}

/** XORs one byte into the state at byte offset `at`. */
export function xorByte (s: Int32Array, at: number, value: number): void {
  s[at >> 2] = s[at >> 2]! ^ (value << ((at & 3) << 3))
}

/** SHA-3 padding (domain bits 01, then pad10*1) after `messageBytes` bytes of the last block. */
export function padBlock (s: Int32Array, messageBytes: number, rate: number): void {
  xorByte(s, messageBytes, 0x06)
  xorByte(s, rate - 1, 0x80)
}

/** Absorbs all of `data` (whole blocks, then the padded remainder) into a fresh or running state. */
export function absorbAll (s: Int32Array, data: Uint8Array, rate: number): void {
  let offset = 0
  for (; data.length - offset >= rate; offset += rate) {
    xorBytes(s, data, offset, rate)
    keccakF1600(s)
  }
  xorBytes(s, data, offset, data.length - offset)
  padBlock(s, data.length - offset, rate)
  keccakF1600(s)
}

/** Copies the state's first `length` bytes (the digest after absorbAll) into a new array. */
export function stateBytes (s: Int32Array, length: number): Uint8Array {
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) out[i] = s[i >> 2]! >>> ((i & 3) << 3)
  return out
}
