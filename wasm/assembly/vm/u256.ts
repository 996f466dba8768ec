// 256-bit unsigned arithmetic on words held in linear memory as four little-endian u64 limbs
// (so a word's bytes are its little-endian encoding, and its u32 limbs are at ptr + 4*i).
// Every function takes pointers; the result pointer may alias an operand. Multiplication and
// division work on u32 limbs so every partial product fits a u64.

// scratch for the long operations (the VM is single-threaded, and these never nest)
const PRODUCT: usize = memory.data(64, 16) // up to 16 u32 limbs
const NUM: usize = memory.data(72, 16) // normalized dividend, up to 17 limbs
const DEN: usize = memory.data(32, 16) // normalized divisor, up to 8 limbs
const QUOT: usize = memory.data(64, 16)
const TMP_A: usize = memory.data(32, 16)
const TMP_B: usize = memory.data(32, 16)
const TMP_C: usize = memory.data(32, 16)

@inline export function setZero (r: usize): void {
  store<u64>(r, 0); store<u64>(r, 0, 8); store<u64>(r, 0, 16); store<u64>(r, 0, 24)
}

@inline export function setU64 (r: usize, v: u64): void {
  store<u64>(r, v); store<u64>(r, 0, 8); store<u64>(r, 0, 16); store<u64>(r, 0, 24)
}

@inline export function copyWord (r: usize, a: usize): void {
  store<u64>(r, load<u64>(a)); store<u64>(r, load<u64>(a, 8), 8)
  store<u64>(r, load<u64>(a, 16), 16); store<u64>(r, load<u64>(a, 24), 24)
}

@inline export function isZero (a: usize): bool {
  return (load<u64>(a) | load<u64>(a, 8) | load<u64>(a, 16) | load<u64>(a, 24)) == 0
}

/** true when the word is below 2^64 */
@inline export function fitsU64 (a: usize): bool {
  return (load<u64>(a, 8) | load<u64>(a, 16) | load<u64>(a, 24)) == 0
}

export function add (r: usize, a: usize, b: usize): void {
  const a0 = load<u64>(a), a1 = load<u64>(a, 8), a2 = load<u64>(a, 16), a3 = load<u64>(a, 24)
  const b0 = load<u64>(b), b1 = load<u64>(b, 8), b2 = load<u64>(b, 16), b3 = load<u64>(b, 24)
  const r0 = a0 + b0
  let carry = u64(r0 < a0)
  const s1 = a1 + b1
  const r1 = s1 + carry
  carry = u64(s1 < a1) | u64(r1 < s1)
  const s2 = a2 + b2
  const r2 = s2 + carry
  carry = u64(s2 < a2) | u64(r2 < s2)
  store<u64>(r, r0); store<u64>(r, r1, 8); store<u64>(r, r2, 16); store<u64>(r, a3 + b3 + carry, 24)
}

export function sub (r: usize, a: usize, b: usize): void {
  const a0 = load<u64>(a), a1 = load<u64>(a, 8), a2 = load<u64>(a, 16), a3 = load<u64>(a, 24)
  const b0 = load<u64>(b), b1 = load<u64>(b, 8), b2 = load<u64>(b, 16), b3 = load<u64>(b, 24)
  let borrow = u64(a0 < b0)
  const d1 = a1 - b1
  const r1 = d1 - borrow
  borrow = u64(a1 < b1) | u64(d1 < borrow)
  const d2 = a2 - b2
  const r2 = d2 - borrow
  borrow = u64(a2 < b2) | u64(d2 < borrow)
  store<u64>(r, a0 - b0); store<u64>(r, r1, 8); store<u64>(r, r2, 16); store<u64>(r, a3 - b3 - borrow, 24)
}

/** two's complement negation */
export function negate (r: usize, a: usize): void {
  const a0 = ~load<u64>(a), a1 = ~load<u64>(a, 8), a2 = ~load<u64>(a, 16), a3 = ~load<u64>(a, 24)
  const r0 = a0 + 1
  let carry = u64(r0 == 0)
  const r1 = a1 + carry
  carry = carry & u64(r1 == 0)
  const r2 = a2 + carry
  carry = carry & u64(r2 == 0)
  store<u64>(r, r0); store<u64>(r, r1, 8); store<u64>(r, r2, 16); store<u64>(r, a3 + carry, 24)
}

/** Full product of two 8-limb words into PRODUCT (16 u32 limbs); `limbs` = 8 keeps only the low half. */
function multiplyInto (a: usize, b: usize, limbs: i32): void {
  memory.fill(PRODUCT, 0, 64)
  for (let i = 0; i < 8; i++) {
    const ai = u64(load<u32>(a + (<usize>i << 2)))
    if (ai == 0) continue
    let carry: u64 = 0
    const jEnd = min(8, limbs - i)
    for (let j = 0; j < jEnd; j++) {
      const at = PRODUCT + (<usize>(i + j) << 2)
      const t = ai * u64(load<u32>(b + (<usize>j << 2))) + u64(load<u32>(at)) + carry
      store<u32>(at, u32(t))
      carry = t >> 32
    }
    if (i + jEnd < limbs) store<u32>(PRODUCT + (<usize>(i + jEnd) << 2), u32(carry))
  }
}

export function mul (r: usize, a: usize, b: usize): void {
  if (fitsU64(a) && fitsU64(b)) {
    const x = load<u64>(a), y = load<u64>(b)
    if ((x | y) >> 32 == 0) { setU64(r, x * y); return }
    // 64x64 -> 128 from 32-bit halves
    const xl = x & 0xffffffff, xh = x >> 32, yl = y & 0xffffffff, yh = y >> 32
    const ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh
    const mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff)
    store<u64>(r, (mid << 32) | (ll & 0xffffffff))
    store<u64>(r, hh + (lh >> 32) + (hl >> 32) + (mid >> 32), 8)
    store<u64>(r, 0, 16); store<u64>(r, 0, 24)
    return
  }
  multiplyInto(a, b, 8)
  copyWord(r, PRODUCT)
}

/** index of the highest non-zero u32 limb + 1 (0 for zero) among `limbs` limbs at p */
function usedLimbs (p: usize, limbs: i32): i32 {
  let n = limbs
  while (n > 0 && load<u32>(p + (<usize>(n - 1) << 2)) == 0) n--
  return n
}

/**
 * Knuth's algorithm D (as in Hacker's Delight, divmnu): the `numLimbs`-limb number at `num`
 * divided by the non-zero 8-limb word at `den`. Writes the quotient's low 8 limbs to `q`
 * (when q != 0) and the remainder to `rem` (when rem != 0).
 */
function divideLimbs (num: usize, numLimbs: i32, den: usize, q: usize, rem: usize): void {
  const n = usedLimbs(den, 8)
  const m = usedLimbs(num, numLimbs)
  memory.fill(QUOT, 0, 64)
  if (m < n) {
    if (q != 0) setZero(q)
    if (rem != 0) { setZero(rem); memory.copy(rem, num, <usize>m << 2) }
    return
  }
  if (n == 1) {
    const d = u64(load<u32>(den))
    let r: u64 = 0
    for (let j = m - 1; j >= 0; j--) {
      const cur = (r << 32) | u64(load<u32>(num + (<usize>j << 2)))
      store<u32>(QUOT + (<usize>j << 2), u32(cur / d))
      r = cur % d
    }
    if (q != 0) memory.copy(q, QUOT, 32)
    if (rem != 0) setU64(rem, r)
    return
  }
  const s = u32(clz<u32>(load<u32>(den + (<usize>(n - 1) << 2))))
  // normalize: shift so the divisor's top limb has its high bit set
  for (let i = n - 1; i > 0; i--) {
    const hi = load<u32>(den + (<usize>i << 2)), lo = load<u32>(den + (<usize>(i - 1) << 2))
    store<u32>(DEN + (<usize>i << 2), s == 0 ? hi : (hi << s) | (lo >> (32 - s)))
  }
  store<u32>(DEN, load<u32>(den) << s)
  store<u32>(NUM + (<usize>m << 2), s == 0 ? 0 : load<u32>(num + (<usize>(m - 1) << 2)) >> (32 - s))
  for (let i = m - 1; i > 0; i--) {
    const hi = load<u32>(num + (<usize>i << 2)), lo = load<u32>(num + (<usize>(i - 1) << 2))
    store<u32>(NUM + (<usize>i << 2), s == 0 ? hi : (hi << s) | (lo >> (32 - s)))
  }
  store<u32>(NUM, load<u32>(num) << s)

  const vTop = u64(load<u32>(DEN + (<usize>(n - 1) << 2)))
  const vNext = u64(load<u32>(DEN + (<usize>(n - 2) << 2)))
  const BASE: u64 = 0x100000000
  for (let j = m - n; j >= 0; j--) {
    const top = NUM + (<usize>(j + n) << 2)
    const numerator = (u64(load<u32>(top)) << 32) | u64(load<u32>(top - 4))
    let qhat = numerator / vTop
    let rhat = numerator % vTop
    while (qhat >= BASE || qhat * vNext > ((rhat << 32) | u64(load<u32>(top - 8)))) {
      qhat--
      rhat += vTop
      if (rhat >= BASE) break
    }
    // multiply and subtract
    let k: i64 = 0
    let t: i64 = 0
    for (let i = 0; i < n; i++) {
      const at = NUM + (<usize>(i + j) << 2)
      const p = qhat * u64(load<u32>(DEN + (<usize>i << 2)))
      t = i64(load<u32>(at)) - k - i64(p & 0xffffffff)
      store<u32>(at, u32(t))
      k = i64(p >> 32) - (t >> 32)
    }
    t = i64(load<u32>(top)) - k
    store<u32>(top, u32(t))
    if (t < 0) {
      // qhat was one too large: add the divisor back
      qhat--
      let carry: u64 = 0
      for (let i = 0; i < n; i++) {
        const at = NUM + (<usize>(i + j) << 2)
        const sum = u64(load<u32>(at)) + u64(load<u32>(DEN + (<usize>i << 2))) + carry
        store<u32>(at, u32(sum))
        carry = sum >> 32
      }
      store<u32>(top, load<u32>(top) + u32(carry))
    }
    if (j < 8) store<u32>(QUOT + (<usize>j << 2), u32(qhat))
  }
  if (q != 0) memory.copy(q, QUOT, 32)
  if (rem != 0) {
    setZero(rem)
    for (let i = 0; i < n; i++) {
      const lo = load<u32>(NUM + (<usize>i << 2)), hi = load<u32>(NUM + (<usize>(i + 1) << 2))
      store<u32>(rem + (<usize>i << 2), s == 0 ? lo : (lo >> s) | (hi << (32 - s)))
    }
  }
}

/** a / b and a % b (either output may be 0 = not wanted); b must not be zero */
function divmod (a: usize, b: usize, q: usize, rem: usize): void {
  if (fitsU64(a) && fitsU64(b)) {
    const x = load<u64>(a), y = load<u64>(b)
    if (q != 0) setU64(q, x / y)
    if (rem != 0) setU64(rem, x % y)
    return
  }
  divideLimbs(a, 8, b, q, rem)
}

export function div (r: usize, a: usize, b: usize): void {
  if (isZero(b)) setZero(r)
  else divmod(a, b, r, 0)
}

export function mod (r: usize, a: usize, b: usize): void {
  if (isZero(b)) setZero(r)
  else divmod(a, b, 0, r)
}

@inline function isNegative (a: usize): bool { return i64(load<u64>(a, 24)) < 0 }

export function sdiv (r: usize, a: usize, b: usize): void {
  if (isZero(b)) { setZero(r); return }
  const negA = isNegative(a), negB = isNegative(b)
  if (negA) negate(TMP_A, a); else copyWord(TMP_A, a)
  if (negB) negate(TMP_B, b); else copyWord(TMP_B, b)
  divmod(TMP_A, TMP_B, r, 0)
  if (negA != negB) negate(r, r)
}

export function smod (r: usize, a: usize, b: usize): void {
  if (isZero(b)) { setZero(r); return }
  const negA = isNegative(a)
  if (negA) negate(TMP_A, a); else copyWord(TMP_A, a)
  if (isNegative(b)) negate(TMP_B, b); else copyWord(TMP_B, b)
  divmod(TMP_A, TMP_B, 0, r)
  if (negA) negate(r, r)
}

export function addmod (r: usize, a: usize, b: usize, n: usize): void {
  if (isZero(n)) { setZero(r); return }
  // the 257-bit sum as 9 u32 limbs in PRODUCT
  let carry: u64 = 0
  for (let i = 0; i < 8; i++) {
    const at = <usize>i << 2
    const t = u64(load<u32>(a + at)) + u64(load<u32>(b + at)) + carry
    store<u32>(PRODUCT + at, u32(t))
    carry = t >> 32
  }
  store<u32>(PRODUCT + 32, u32(carry))
  divideLimbs(PRODUCT, 9, n, 0, r)
}

export function mulmod (r: usize, a: usize, b: usize, n: usize): void {
  if (isZero(n)) { setZero(r); return }
  multiplyInto(a, b, 16)
  divideLimbs(PRODUCT, 16, n, 0, r)
}

export function lt (a: usize, b: usize): bool {
  let x = load<u64>(a, 24), y = load<u64>(b, 24)
  if (x != y) return x < y
  x = load<u64>(a, 16); y = load<u64>(b, 16)
  if (x != y) return x < y
  x = load<u64>(a, 8); y = load<u64>(b, 8)
  if (x != y) return x < y
  return load<u64>(a) < load<u64>(b)
}

export function slt (a: usize, b: usize): bool {
  const x = load<u64>(a, 24) ^ 0x8000000000000000, y = load<u64>(b, 24) ^ 0x8000000000000000
  if (x != y) return x < y
  let p = load<u64>(a, 16), q = load<u64>(b, 16)
  if (p != q) return p < q
  p = load<u64>(a, 8); q = load<u64>(b, 8)
  if (p != q) return p < q
  return load<u64>(a) < load<u64>(b)
}

@inline export function eq (a: usize, b: usize): bool {
  return load<u64>(a) == load<u64>(b) && load<u64>(a, 8) == load<u64>(b, 8) &&
    load<u64>(a, 16) == load<u64>(b, 16) && load<u64>(a, 24) == load<u64>(b, 24)
}

/** number of bytes in the exponent's minimal big-endian encoding */
export function byteLength (a: usize): i32 {
  for (let i = 3; i >= 0; i--) {
    const limb = load<u64>(a + (<usize>i << 3))
    if (limb != 0) return i * 8 + ((64 - i32(clz<u64>(limb)) + 7) >> 3)
  }
  return 0
}

export function exp (r: usize, base: usize, exponent: usize): void {
  copyWord(TMP_C, base)
  copyWord(TMP_B, exponent)
  setU64(TMP_A, 1)
  const bits = byteLength(TMP_B) * 8
  for (let i = 0; i < bits; i++) {
    const limb = load<u64>(TMP_B + (<usize>(i >> 6) << 3))
    if (((limb >> u64(i & 63)) & 1) != 0) mul(TMP_A, TMP_A, TMP_C)
    if (i + 1 < bits) mul(TMP_C, TMP_C, TMP_C)
  }
  copyWord(r, TMP_A)
}

/** SIGNEXTEND: extend the sign of byte `b` (0 = least significant) of x */
export function signExtend (r: usize, b: usize, x: usize): void {
  if (!fitsU64(b) || load<u64>(b) >= 31) { copyWord(r, x); return }
  const byteIndex = i32(load<u64>(b))
  const bit = byteIndex * 8 + 7
  const negative = (load<u8>(x + <usize>byteIndex) & 0x80) != 0
  const fill: u64 = negative ? 0xffffffffffffffff : 0
  for (let i = 0; i < 4; i++) {
    const lo = i * 64
    const at = r + (<usize>i << 3)
    const limb = load<u64>(x + (<usize>i << 3))
    if (lo > bit) store<u64>(at, fill)
    else if (lo + 63 <= bit) store<u64>(at, limb)
    else {
      const keep = u64(bit - lo + 1) // bits of this limb kept, 1..63
      const mask = (u64(1) << keep) - 1
      store<u64>(at, (limb & mask) | (fill & ~mask))
    }
  }
}

/** BYTE: byte i (0 = most significant) of x */
export function byteAt (r: usize, i: usize, x: usize): void {
  if (!fitsU64(i) || load<u64>(i) >= 32) { setZero(r); return }
  const v = load<u8>(x + <usize>(31 - load<u64>(i)))
  setU64(r, u64(v))
}

/** shift amount as an i32 in 0..256 (256 meaning "everything shifted out") */
@inline function shiftOf (s: usize): i32 {
  return fitsU64(s) && load<u64>(s) < 256 ? i32(load<u64>(s)) : 256
}

export function shl (r: usize, s: usize, x: usize): void {
  const shift = shiftOf(s)
  if (shift >= 256) { setZero(r); return }
  const limbs = shift >> 6, bits = u64(shift & 63)
  const x0 = load<u64>(x), x1 = load<u64>(x, 8), x2 = load<u64>(x, 16), x3 = load<u64>(x, 24)
  store<u64>(TMP_A, x0); store<u64>(TMP_A, x1, 8); store<u64>(TMP_A, x2, 16); store<u64>(TMP_A, x3, 24)
  for (let i = 3; i >= 0; i--) {
    const from = i - limbs
    let v: u64 = 0
    if (from >= 0) {
      v = load<u64>(TMP_A + (<usize>from << 3)) << bits
      if (bits != 0 && from >= 1) v |= load<u64>(TMP_A + (<usize>(from - 1) << 3)) >> (64 - bits)
    }
    store<u64>(r + (<usize>i << 3), v)
  }
}

function shiftRight (r: usize, s: usize, x: usize, fill: u64): void {
  const shift = shiftOf(s)
  if (shift >= 256) { store<u64>(r, fill); store<u64>(r, fill, 8); store<u64>(r, fill, 16); store<u64>(r, fill, 24); return }
  const limbs = shift >> 6, bits = u64(shift & 63)
  copyWord(TMP_A, x)
  for (let i = 0; i < 4; i++) {
    const from = i + limbs
    let v: u64 = fill
    if (from <= 3) {
      v = load<u64>(TMP_A + (<usize>from << 3)) >> bits
      const next = from + 1 <= 3 ? load<u64>(TMP_A + (<usize>(from + 1) << 3)) : fill
      if (bits != 0) v |= next << (64 - bits)
    }
    store<u64>(r + (<usize>i << 3), v)
  }
}

export function shr (r: usize, s: usize, x: usize): void { shiftRight(r, s, x, 0) }

export function sar (r: usize, s: usize, x: usize): void {
  shiftRight(r, s, x, isNegative(x) ? 0xffffffffffffffff : 0)
}
