// ML-DSA-87 (FIPS 204) signature verification with a cache of expanded public keys.
//
// A verify re-derives three things from the public key alone: the matrix Â = ExpandA(ρ)
// (56 polynomials by SHAKE128 rejection sampling, the bulk of a verify), NTT(t1·2^d) and
// tr = SHAKE256(pk, 64). This core keeps them per key in a fixed arena of CACHE_SLOTS entries
// (least recently used evicted), found by a hash of the key and then compared on all
// PUBLIC_KEY_BYTES bytes, so a key that differs in any byte never shares an entry. A verify
// under a cached key then costs: decode the signature (hint encoding, ‖z‖∞ < γ1 − β),
// SampleInBall, NTT of c and of z, Â·ẑ − ĉ·t̂1, 8 inverse NTTs, UseHint, w1Encode and the
// two SHAKE256 calls for μ and c̃'.
//
// "Pure" ML-DSA with an empty context (what node:crypto and @noble/post-quantum verify):
// μ = SHAKE256(tr ‖ 0x00 ‖ 0x00 ‖ M, 64). JS writes the key to publicKeyPointer(), the
// signature to signaturePointer() and the message to messagePointer() (in chunks of
// messageChunkBytes() for a long one), then calls verify(length), or verifyBegin(),
// absorbMessage(length) per chunk and verifyFinish(). Every buffer is static: nothing
// allocates, and the memory never grows after instantiation.
import { keccakF1600, resetState, STATE_BYTES } from './lib/keccak'
import { SHAKE128_RATE, SHAKE256_RATE, shakeAbsorb, shakeFinish } from './lib/shake'
import { Q, freeze, initNtt, invNttToMont, montgomeryReduce, ntt } from './lib/mldsa-ntt'

// ML-DSA-87 parameters (FIPS 204 Table 1)
const K: i32 = 8
const L: i32 = 7
const TAU: i32 = 60
const BETA: i32 = 120
const GAMMA1: i32 = 1 << 19
const GAMMA2: i32 = (Q - 1) / 32
const OMEGA: i32 = 75
const D: i32 = 13
const Z_BOUND: i32 = GAMMA1 - BETA

// Encodings (FIPS 204 Table 2 and Algorithms 22-27)
const PUBLIC_KEY_BYTES: i32 = 2592 // ρ (32) ‖ t1: 8 polynomials × 256 × 10 bits
const SIGNATURE_BYTES: i32 = 4627 // c̃ (64) ‖ z: 7 × 256 × 20 bits ‖ h: ω + k bytes
const C_TILDE_BYTES: i32 = 64
const Z_OFFSET: i32 = C_TILDE_BYTES
const Z_POLY_BYTES: i32 = 640
const HINT_OFFSET: i32 = Z_OFFSET + L * Z_POLY_BYTES // 4544
const T1_OFFSET: i32 = 32
const T1_POLY_BYTES: i32 = 320
const TR_BYTES: i32 = 64
const MU_BYTES: i32 = 64
const W1_POLY_BYTES: i32 = 128 // 256 × 4 bits
const POLY: usize = 1024 // 256 i32 coefficients

// One cache entry: Â (row-major, 56 polynomials in [0, q)), NTT(t1·2^d) (8, in [0, q)), tr, the key.
const ENTRY_A: usize = 0
const ENTRY_T1: usize = ENTRY_A + <usize>(K * L) * POLY
const ENTRY_TR: usize = ENTRY_T1 + <usize>K * POLY
const ENTRY_KEY: usize = ENTRY_TR + <usize>TR_BYTES
const ENTRY_BYTES: usize = (ENTRY_KEY + <usize>PUBLIC_KEY_BYTES + 15) & ~<usize>15 // 68,192
const CACHE_SLOTS: i32 = 128

const MESSAGE_CHUNK_BYTES: i32 = 16384

// I/O buffers (JS writes these)
const PUBLIC_KEY: usize = memory.data(PUBLIC_KEY_BYTES + 16, 16) // + 16: 8-byte reads of the last bytes stay inside
const SIGNATURE: usize = memory.data((SIGNATURE_BYTES + 15) & ~15, 16) // rounded up: 8-byte reads stay inside
const MESSAGE: usize = memory.data(MESSAGE_CHUNK_BYTES, 16)
// working state
const MU_STATE: usize = memory.data(STATE_BYTES, 16)
const XOF_STATE: usize = memory.data(STATE_BYTES, 16)
const Z: usize = memory.data(<i32>(<usize>L * POLY), 16)
const CHALLENGE: usize = memory.data(<i32>POLY, 16)
const W: usize = memory.data(<i32>POLY, 16)
const W1: usize = memory.data(256, 16)
const COMMIT_INPUT: usize = memory.data(MU_BYTES + K * W1_POLY_BYTES, 16) // μ ‖ w1Encode(w1')
// the key cache
const CACHE: usize = memory.data(<i32>(ENTRY_BYTES * <usize>CACHE_SLOTS), 16)
const SLOT_HASH: usize = memory.data(CACHE_SLOTS * 8, 16)
const SLOT_USED: usize = memory.data(CACHE_SLOTS * 8, 16) // last use (a counter); 0 = empty

let clock: u64 = 0
let hits: u32 = 0
let misses: u32 = 0
let evictions: u32 = 0
let entry: usize = 0 // the current verify's cache entry
let muPosition: i32 = 0

initNtt()

export function publicKeyPointer (): usize { return PUBLIC_KEY }
export function signaturePointer (): usize { return SIGNATURE }
export function messagePointer (): usize { return MESSAGE }
export function messageChunkBytes (): i32 { return MESSAGE_CHUNK_BYTES }
export function cacheSlots (): i32 { return CACHE_SLOTS }
export function cacheHits (): u32 { return hits }
export function cacheMisses (): u32 { return misses }
export function cacheEvictions (): u32 { return evictions }

/** Empties the key cache and zeroes its counters. */
export function cacheClear (): void {
  memory.fill(SLOT_USED, 0, CACHE_SLOTS * 8)
  hits = 0
  misses = 0
  evictions = 0
}

// ---- signature decoding ----

/**
 * HintBitUnpack's checks (FIPS 204 Algorithm 21): each polynomial's end index is at least the
 * previous one's and at most ω, indices strictly increase within a polynomial, and the unused
 * index bytes are zero. (At most ω hints follows from the end indices.)
 */
function hintsWellFormed (): bool {
  const hints = SIGNATURE + <usize>HINT_OFFSET
  let index = 0
  for (let i = 0; i < K; i++) {
    const end = <i32>load<u8>(hints + <usize>(OMEGA + i))
    if (end < index || end > OMEGA) return false
    const first = index
    for (; index < end; index++) {
      if (index > first && load<u8>(hints + <usize>(index - 1)) >= load<u8>(hints + <usize>index)) return false
    }
  }
  for (; index < OMEGA; index++) if (load<u8>(hints + <usize>index) != 0) return false
  return true
}

/**
 * z = BitUnpack(·, γ1 − 1, γ1) (Algorithm 19: each 20-bit value v is γ1 − v) into Z; false if
 * any coefficient has |z| ≥ γ1 − β.
 */
function decodeZ (): bool {
  let input = SIGNATURE + <usize>Z_OFFSET
  let out = Z
  const end = Z + <usize>L * POLY
  let bad = 0
  for (; out < end; out += 8, input += 5) {
    const v = load<u64>(input) // 5 bytes used: two coefficients
    const z0 = GAMMA1 - <i32>(v & 0xfffff)
    const z1 = GAMMA1 - <i32>((v >> 20) & 0xfffff)
    store<i32>(out, z0)
    store<i32>(out, z1, 4)
    // |z| ≥ bound ⟺ z ≥ bound or z ≤ −bound
    bad |= <i32>(z0 >= Z_BOUND) | <i32>(z0 <= -Z_BOUND) | <i32>(z1 >= Z_BOUND) | <i32>(z1 <= -Z_BOUND)
  }
  return bad == 0
}

// ---- the key cache ----

/** Bits of keyHash a slot keeps: 64, or fewer in tests, down to 0 (every key collides). */
let hashMask: u64 = u64.MAX_VALUE

/** Keeps `bits` (0..64) bits of each key's hash, and empties the cache: tests force collisions with 0. */
export function cacheHashBits (bits: i32): void {
  hashMask = bits >= 64 ? u64.MAX_VALUE : bits <= 0 ? 0 : (<u64>1 << <u64>bits) - 1
  cacheClear()
}

/** Where to look first, never a verdict: a slot matches only when all the key's bytes do. */
function keyHash (key: usize): u64 {
  let h: u64 = 0x243f6a8885a308d3
  for (let p = key; p < key + <usize>PUBLIC_KEY_BYTES; p += 8) {
    h = rotl<u64>(h ^ load<u64>(p), 27) * 0x9e3779b97f4a7c15
  }
  return (h ^ (h >> 29)) & hashMask
}

function keysEqual (a: usize, b: usize): bool {
  let diff: u64 = 0
  for (let i: usize = 0; i < <usize>PUBLIC_KEY_BYTES; i += 8) diff |= load<u64>(a + i) ^ load<u64>(b + i)
  return diff == 0
}

/** RejNTTPoly(ρ ‖ s ‖ r) (Algorithm 30 with CoeffFromThreeBytes, Algorithm 14) into `out`. */
function rejNttPoly (rho: usize, s: i32, r: i32, out: usize): void {
  resetState(XOF_STATE)
  shakeAbsorb(XOF_STATE, 0, SHAKE128_RATE, rho, 32)
  store<u8>(XOF_STATE + 32, <u8>s) // the state is zero past ρ: storing is absorbing
  store<u8>(XOF_STATE + 33, <u8>r)
  shakeFinish(XOF_STATE, 34, SHAKE128_RATE)
  let position = 0
  const end = out + POLY
  while (out < end) {
    if (position == SHAKE128_RATE) { // 168 = 56 × 3: candidates never straddle blocks
      keccakF1600(XOF_STATE)
      position = 0
    }
    const b = XOF_STATE + <usize>position
    const t = <i32>load<u8>(b) | (<i32>load<u8>(b, 1) << 8) | ((<i32>load<u8>(b, 2) & 0x7f) << 16)
    position += 3
    if (t < Q) {
      store<i32>(out, t)
      out += 4
    }
  }
}

/** Fills cache entry `e` from the key in PUBLIC_KEY: the key, tr, Â and NTT(t1·2^d). */
function expandKey (e: usize): void {
  memory.copy(e + ENTRY_KEY, PUBLIC_KEY, PUBLIC_KEY_BYTES)
  // tr = H(pk, 64)
  resetState(XOF_STATE)
  shakeFinish(XOF_STATE, shakeAbsorb(XOF_STATE, 0, SHAKE256_RATE, PUBLIC_KEY, PUBLIC_KEY_BYTES), SHAKE256_RATE)
  memory.copy(e + ENTRY_TR, XOF_STATE, TR_BYTES)
  // Â = ExpandA(ρ): Â[r][s] = RejNTTPoly(ρ ‖ IntegerToBytes(s, 1) ‖ IntegerToBytes(r, 1))
  for (let r = 0; r < K; r++) {
    for (let s = 0; s < L; s++) rejNttPoly(PUBLIC_KEY, s, r, e + ENTRY_A + <usize>(r * L + s) * POLY)
  }
  // t1 = SimpleBitUnpack(·, 2^10 − 1) (Algorithm 23), then NTT(t1·2^d) reduced to [0, q)
  for (let r = 0; r < K; r++) {
    const t = e + ENTRY_T1 + <usize>r * POLY
    let input = PUBLIC_KEY + <usize>(T1_OFFSET + r * T1_POLY_BYTES)
    for (let out = t; out < t + POLY; out += 16, input += 5) {
      const v = load<u64>(input) // 5 bytes used: four coefficients
      store<i32>(out, <i32>(v & 0x3ff) << D)
      store<i32>(out, <i32>((v >> 10) & 0x3ff) << D, 4)
      store<i32>(out, <i32>((v >> 20) & 0x3ff) << D, 8)
      store<i32>(out, <i32>((v >> 30) & 0x3ff) << D, 12)
    }
    ntt(t)
    for (let p = t; p < t + POLY; p += 4) store<i32>(p, freeze(load<i32>(p)))
  }
}

/** The cache entry of the key in PUBLIC_KEY, expanded into the least recently used slot if absent. */
function entryFor (): usize {
  const h = keyHash(PUBLIC_KEY)
  let slot = -1
  for (let i = 0; i < CACHE_SLOTS; i++) {
    const at = <usize>i << 3
    if (load<u64>(SLOT_USED + at) != 0 && load<u64>(SLOT_HASH + at) == h &&
        keysEqual(CACHE + <usize>i * ENTRY_BYTES + ENTRY_KEY, PUBLIC_KEY)) {
      slot = i
      break
    }
  }
  if (slot >= 0) {
    hits++
  } else {
    let oldest: u64 = u64.MAX_VALUE
    for (let i = 0; i < CACHE_SLOTS; i++) {
      const used = load<u64>(SLOT_USED + (<usize>i << 3))
      if (used < oldest) {
        oldest = used
        slot = i
      }
    }
    if (oldest != 0) evictions++
    misses++
    const at = <usize>slot << 3
    store<u64>(SLOT_USED + at, 0) // empty until filled
    expandKey(CACHE + <usize>slot * ENTRY_BYTES)
    store<u64>(SLOT_HASH + at, h)
  }
  store<u64>(SLOT_USED + (<usize>slot << 3), ++clock)
  return CACHE + <usize>slot * ENTRY_BYTES
}

// ---- verification ----

/** SampleInBall(c̃) (Algorithm 29) into CHALLENGE: τ coefficients ±1, the rest 0. */
function sampleInBall (): void {
  resetState(XOF_STATE)
  shakeFinish(XOF_STATE, shakeAbsorb(XOF_STATE, 0, SHAKE256_RATE, SIGNATURE, C_TILDE_BYTES), SHAKE256_RATE)
  memory.fill(CHALLENGE, 0, <i32>POLY)
  let signs = load<u64>(XOF_STATE)
  let position = 8
  for (let i = 256 - TAU; i < 256; i++) {
    let j: i32
    do {
      if (position == SHAKE256_RATE) {
        keccakF1600(XOF_STATE)
        position = 0
      }
      j = <i32>load<u8>(XOF_STATE + <usize>position)
      position++
    } while (j > i)
    store<i32>(CHALLENGE + (<usize>i << 2), load<i32>(CHALLENGE + (<usize>j << 2)))
    store<i32>(CHALLENGE + (<usize>j << 2), 1 - 2 * <i32>(signs & 1))
    signs >>= 1
  }
}

/**
 * Row r of w'_approx = NTT^-1(Â·ẑ − ĉ·t̂1) into W, reduced to [0, q). The sum of 7 + 1 products
 * stays below 2^31·q (|Â|, |t̂1| < q; |ẑ| < 2^19 + 8q; |ĉ| < 1 + 8q), so one Montgomery
 * reduction per coefficient suffices; it leaves a factor 2^-32 that invNttToMont removes.
 */
function approxRow (r: i32): void {
  const a = entry + ENTRY_A + <usize>(r * L) * POLY
  const t = entry + ENTRY_T1 + <usize>r * POLY
  for (let o: usize = 0; o < POLY; o += 4) {
    let s = -<i64>load<i32>(CHALLENGE + o) * <i64>load<i32>(t + o)
    s += <i64>load<i32>(a + o) * <i64>load<i32>(Z + o)
    s += <i64>load<i32>(a + o, 1024) * <i64>load<i32>(Z + o, 1024)
    s += <i64>load<i32>(a + o, 2048) * <i64>load<i32>(Z + o, 2048)
    s += <i64>load<i32>(a + o, 3072) * <i64>load<i32>(Z + o, 3072)
    s += <i64>load<i32>(a + o, 4096) * <i64>load<i32>(Z + o, 4096)
    s += <i64>load<i32>(a + o, 5120) * <i64>load<i32>(Z + o, 5120)
    s += <i64>load<i32>(a + o, 6144) * <i64>load<i32>(Z + o, 6144)
    store<i32>(W + o, montgomeryReduce(s))
  }
  invNttToMont(W)
  for (let o: usize = 0; o < POLY; o += 4) {
    const x = load<i32>(W + o)
    store<i32>(W + o, x + ((x >> 31) & Q))
  }
}

// Decompose (Algorithm 36) for γ2 = (q − 1)/32 on w in [0, q): r1 = ⌊(w + γ2 − 1)/2γ2⌋ gives
// r0 = w − r1·2γ2 in (−γ2, γ2]. r1 = 16 (w > q − 1 − γ2) is the case Decompose folds to
// (0, r0 − 1); there r0 ≤ 0 already, so only r1 needs folding (mod 16), and a hint gives 15.

/** HighBits(w) (Algorithm 37) for w in [0, q). */
// @ts-ignore: decorator
@inline function highBits (w: u32): u32 {
  return ((w + <u32>GAMMA2 - 1) / <u32>(2 * GAMMA2)) & 15
}

/** UseHint(1, w) (Algorithm 40, m = 16) for w in [0, q): r1 + 1 if r0 > 0, else r1 − 1 (mod 16). */
// @ts-ignore: decorator
@inline function hintedHighBits (w: i32): i32 {
  const r1 = <i32>((<u32>w + <u32>GAMMA2 - 1) / <u32>(2 * GAMMA2))
  const r0 = w - r1 * 2 * GAMMA2
  return (r0 > 0 ? r1 + 1 : r1 - 1) & 15
}

/** UseHint(h, r) for r in [0, q), h in {0, 1}: the functions verification uses, exported for tests. */
export function useHint (h: i32, r: i32): i32 {
  return h != 0 ? hintedHighBits(r) : <i32>highBits(<u32>r)
}

/** w1' = UseHint(h_r, W) into W1, then w1Encode's 4-bit packing of row r into COMMIT_INPUT. */
function useHintAndPack (r: i32, hintFrom: i32, hintTo: i32): void {
  for (let n: usize = 0; n < 256; n++) store<u8>(W1 + n, <u8>highBits(<u32>load<i32>(W + (n << 2))))
  const hints = SIGNATURE + <usize>HINT_OFFSET
  for (let i = hintFrom; i < hintTo; i++) {
    const n = <usize>load<u8>(hints + <usize>i)
    store<u8>(W1 + n, <u8>hintedHighBits(load<i32>(W + (n << 2))))
  }
  const out = COMMIT_INPUT + <usize>(MU_BYTES + r * W1_POLY_BYTES)
  for (let i: usize = 0; i < <usize>W1_POLY_BYTES; i++) {
    store<u8>(out + i, load<u8>(W1 + (i << 1)) | (load<u8>(W1 + (i << 1) + 1) << 4))
  }
}

/**
 * Decodes and checks the signature, finds (or expands) the key's cache entry and starts
 * μ = H(tr ‖ 0 ‖ 0 ‖ M). 0 when the signature is malformed (the verify has failed).
 */
export function verifyBegin (): i32 {
  if (!hintsWellFormed() || !decodeZ()) return 0
  entry = entryFor()
  resetState(MU_STATE)
  // tr, then M' = IntegerToBytes(0, 1) ‖ IntegerToBytes(|ctx| = 0, 1) ‖ M: the two zero bytes
  // change no state byte, they only advance the position (66 < rate)
  muPosition = shakeAbsorb(MU_STATE, 0, SHAKE256_RATE, entry + ENTRY_TR, TR_BYTES) + 2
  return 1
}

/** Absorbs MESSAGE[0..length) into μ. */
export function absorbMessage (length: i32): void {
  muPosition = shakeAbsorb(MU_STATE, muPosition, SHAKE256_RATE, MESSAGE, length)
}

/** Finishes a verify begun by verifyBegin: 1 when c̃' = c̃. */
export function verifyFinish (): i32 {
  shakeFinish(MU_STATE, muPosition, SHAKE256_RATE)
  memory.copy(COMMIT_INPUT, MU_STATE, MU_BYTES)
  sampleInBall()
  ntt(CHALLENGE)
  for (let j = 0; j < L; j++) ntt(Z + <usize>j * POLY)
  const hints = SIGNATURE + <usize>HINT_OFFSET
  let hintFrom = 0
  for (let r = 0; r < K; r++) {
    approxRow(r)
    const hintTo = <i32>load<u8>(hints + <usize>(OMEGA + r))
    useHintAndPack(r, hintFrom, hintTo)
    hintFrom = hintTo
  }
  // c̃' = H(μ ‖ w1Encode(w1'), 64)
  resetState(XOF_STATE)
  shakeFinish(XOF_STATE, shakeAbsorb(XOF_STATE, 0, SHAKE256_RATE, COMMIT_INPUT, MU_BYTES + K * W1_POLY_BYTES), SHAKE256_RATE)
  let diff: u64 = 0
  for (let i: usize = 0; i < <usize>C_TILDE_BYTES; i += 8) diff |= load<u64>(XOF_STATE + i) ^ load<u64>(SIGNATURE + i)
  return <i32>(diff == 0)
}

/** One-shot verify of a message of `length` ≤ messageChunkBytes() bytes in MESSAGE. */
export function verify (length: i32): i32 {
  if (verifyBegin() == 0) return 0
  absorbMessage(length)
  return verifyFinish()
}
