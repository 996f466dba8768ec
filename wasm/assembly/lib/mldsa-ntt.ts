// The number-theoretic transform of ML-DSA (FIPS 204 §7.5, Algorithms 41 and 42) over
// Z_q[X]/(X^256 + 1), q = 2^23 - 2^13 + 1, on 256 i32 coefficients in linear memory.
// Products are reduced the Montgomery way (R = 2^32): montgomeryReduce(a) = a·2^-32 mod± q.
// The twiddle factors are kept times 2^32, so a butterfly's montgomeryReduce(zeta·2^32 · b) is
// exactly zeta·b mod± q and the forward transform stays in the ordinary domain. Coefficients
// are centred representatives that grow within stated bounds (no reduction after additions).

export const Q: i32 = 8380417
/** q^-1 mod 2^32 */
const QINV: i32 = 58728449
/** 256^-1 mod q (FIPS 204 Algorithm 42's f) */
const INV256: i64 = 8347681
/** 1753, FIPS 204's 512th root of unity mod q */
const ROOT: i64 = 1753

/** zetas[k] = ROOT^BitRev8(k) · 2^32 mod± q, k = 0..255 (filled by initNtt). */
const ZETAS: usize = memory.data(256 * 4, 16)
/** 2^64 / 256 mod q: invNttToMont's final factor (filled by initNtt). */
let invScale: i64 = 0

// @ts-ignore: decorator
@inline export function montgomeryReduce (a: i64): i32 {
  // t ≡ a·q^-1 (mod 2^32), so a - t·q is a multiple of 2^32; |result| < q for |a| < 2^31·q
  const t = <i32>a * QINV
  return <i32>((a - <i64>t * <i64>Q) >> 32)
}

/** a mod q in [0, q), for any i32 a. */
// @ts-ignore: decorator
@inline export function freeze (a: i32): i32 {
  const r = a % Q
  return r + ((r >> 31) & Q)
}

function bitReverse8 (i: i32): i32 {
  let r = 0
  for (let b = 0; b < 8; b++) r |= ((i >> b) & 1) << (7 - b)
  return r
}

/** Computes the twiddle table; call once before any transform. */
export function initNtt (): void {
  const r32: i64 = (<i64>1 << 32) % <i64>Q // 2^32 mod q
  let power: i64 = 1 // ROOT^i
  for (let i = 0; i < 256; i++) {
    let z = (power * r32) % <i64>Q
    if (z > <i64>(Q >> 1)) z -= <i64>Q
    store<i32>(ZETAS + (<usize>bitReverse8(i) << 2), <i32>z)
    power = (power * ROOT) % <i64>Q
  }
  invScale = (((r32 * r32) % <i64>Q) * INV256) % <i64>Q
}

/**
 * Forward NTT in place (Algorithm 41: len 128 down to 1, zetas[1..255] in order). With inputs
 * below B in absolute value the outputs are below B + 8q.
 */
export function ntt (p: usize): void {
  let k: usize = 0
  for (let len: usize = 128; len > 0; len >>= 1) {
    const step = len << 2
    for (let start: usize = 0; start < 256; start += len << 1) {
      k++
      const zeta = <i64>load<i32>(ZETAS + (k << 2))
      const end = p + ((start + len) << 2)
      for (let a = p + (start << 2); a < end; a += 4) {
        const t = montgomeryReduce(zeta * <i64>load<i32>(a + step))
        const x = load<i32>(a)
        store<i32>(a + step, x - t)
        store<i32>(a, x + t)
      }
    }
  }
}

/**
 * Inverse NTT in place (Algorithm 42: len 1 up to 128, -zetas[255..1]), times 2^32: the result
 * is NTT^-1(p)·2^32 mod± q, below q in absolute value. Inputs must be below q in absolute
 * value (the sums double per layer: 256q < 2^31).
 */
export function invNttToMont (p: usize): void {
  let k: usize = 256
  for (let len: usize = 1; len < 256; len <<= 1) {
    const step = len << 2
    for (let start: usize = 0; start < 256; start += len << 1) {
      k--
      const zeta = -<i64>load<i32>(ZETAS + (k << 2))
      const end = p + ((start + len) << 2)
      for (let a = p + (start << 2); a < end; a += 4) {
        const x = load<i32>(a)
        const y = load<i32>(a + step)
        store<i32>(a, x + y)
        store<i32>(a + step, montgomeryReduce(zeta * <i64>(x - y)))
      }
    }
  }
  const f = invScale
  for (let a = p; a < p + 1024; a += 4) store<i32>(a, montgomeryReduce(f * <i64>load<i32>(a)))
}
