// Writes test/core/fixtures/mldsa-degenerate-key.json once: ML-DSA-87 signatures that FIPS 204
// accepts, under a public key whose t1 is all zero, with hints on the coefficients where
// Decompose and UseHint have their edges (r0 = 0, r0 = γ2, r0 = 1, r0 = −γ2 + 1, w = 0,
// w = q − 1 − γ2 and the fold above it, w = q − 1), ω hints, and z at ±(γ1 − β − 1) throughout.
//
// Honest signatures cannot be steered to those edges, but with t1 = 0 verification computes
// w' = NTT^-1(Â·NTT(z)) and never uses c: anyone can pick z and the hints, compute
// w1' = UseHint(h, w') and c̃ = H(μ ‖ w1Encode(w1')), and the signature verifies. That is how a
// key owner would probe verifiers for a chain split, so every ML-DSA core must agree on these.
// This file computes w' with its own small FIPS 204 arithmetic (NTT, ExpandA, Decompose), searches
// random z for each edge, and writes a case only when node:crypto and @noble/post-quantum both
// accept it. Run: node_modules/.bin/node test/core/crypto/write-mldsa-degenerate-key.ts
import crypto from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { ml_dsa87 } from '@noble/post-quantum/ml-dsa.js'
import { getMldsaCore } from '../../../core/crypto/mldsa.ts'

const Q = 8380417
const N = 256
const K = 8
const L = 7
const GAMMA1 = 1 << 19
const GAMMA2 = (Q - 1) / 32
const OMEGA = 75
const EDGE = GAMMA1 - 120 - 1
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const shake = (algorithm: 'shake128' | 'shake256', bytes: number, ...parts: Uint8Array[]): Buffer => {
  const h = crypto.createHash(algorithm, { outputLength: bytes })
  for (const p of parts) h.update(p)
  return h.digest()
}
const mod = (a: number): number => ((a % Q) + Q) % Q // exact for |a| < 2^53: products of two values below q are

// zetas[k] = 1753^BitRev8(k) mod q (FIPS 204 §7.5)
const zetas = new Array<number>(N)
for (let i = 0, power = 1; i < N; i++, power = (power * 1753) % Q) {
  let k = 0
  for (let b = 0; b < 8; b++) k |= ((i >> b) & 1) << (7 - b)
  zetas[k] = power
}

function ntt (w: number[]): number[] { // Algorithm 41
  const a = w.map(mod)
  let m = 0
  for (let len = 128; len >= 1; len >>= 1) {
    for (let start = 0; start < N; start += 2 * len) {
      const z = zetas[++m]!
      for (let j = start; j < start + len; j++) {
        const t = (z * a[j + len]!) % Q
        a[j + len] = mod(a[j]! - t)
        a[j] = (a[j]! + t) % Q
      }
    }
  }
  return a
}

function nttInverse (w: number[]): number[] { // Algorithm 42
  const a = [...w]
  let m = 256
  for (let len = 1; len < N; len <<= 1) {
    for (let start = 0; start < N; start += 2 * len) {
      const z = Q - zetas[--m]!
      for (let j = start; j < start + len; j++) {
        const t = a[j]!
        a[j] = (t + a[j + len]!) % Q
        a[j + len] = (z * mod(t - a[j + len]!)) % Q
      }
    }
  }
  return a.map((x) => (x * 8347681) % Q)
}

function expandA (rho: Uint8Array): number[][][] { // Algorithms 32 and 30
  return Array.from({ length: K }, (_, r) => Array.from({ length: L }, (_, s) => {
    const stream = shake('shake128', 168 * 8, rho, Uint8Array.of(s, r))
    const poly: number[] = []
    for (let p = 0; poly.length < N; p += 3) {
      if (p + 3 > stream.length) throw new Error('ExpandA: stream too short')
      const t = stream[p]! | stream[p + 1]! << 8 | (stream[p + 2]! & 0x7f) << 16
      if (t < Q) poly.push(t)
    }
    return poly
  }))
}

function decompose (r: number): [number, number] { // Algorithm 36, r in [0, q)
  let r0 = r % (2 * GAMMA2)
  if (r0 > GAMMA2) r0 -= 2 * GAMMA2
  if (r - r0 === Q - 1) return [0, r0 - 1]
  return [(r - r0) / (2 * GAMMA2), r0]
}

function useHint (h: number, r: number): number { // Algorithm 40, m = 16
  const [r1, r0] = decompose(r)
  if (h === 1) return r0 > 0 ? (r1 + 1) % 16 : (r1 + 15) % 16
  return r1
}

// the key: random ρ, t1 = 0
const rho = shake('shake256', 32, Buffer.from('mldsa degenerate key rho'))
const publicKey = Buffer.concat([rho, Buffer.alloc(2560)])
const A = expandA(rho)
const message = shake('shake256', 32, Buffer.from('mldsa degenerate key message'))
const tr = shake('shake256', 64, publicKey)
const mu = shake('shake256', 64, tr, Uint8Array.of(0, 0), message)

let seed = 0x1234567
const random = (n: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n }

function wApprox (z: number[][]): number[][] {
  const zHat = z.map(ntt)
  return A.map((row) => nttInverse(Array.from({ length: N }, (_, n) => row.reduce((s, a, j) => (s + a[n]! * zHat[j]![n]!) % Q, 0))))
}

/** sigEncode(c̃, z, h) with c̃ = H(μ ‖ w1Encode(UseHint(h, w')), 64). `hints`: [row, index] pairs. */
function forge (z: number[][], w: number[][], hints: Array<[number, number]>): Buffer {
  const h = Array.from({ length: K }, () => new Array<number>(N).fill(0))
  for (const [i, n] of hints) h[i]![n] = 1
  const w1 = Buffer.alloc(K * 128)
  for (let i = 0; i < K; i++) {
    for (let n = 0; n < N; n += 2) w1[i * 128 + n / 2] = useHint(h[i]![n]!, w[i]![n]!) | useHint(h[i]![n + 1]!, w[i]![n + 1]!) << 4
  }
  const cTilde = shake('shake256', 64, mu, w1)
  const zBytes = Buffer.alloc(L * 640)
  for (let j = 0; j < L; j++) {
    for (let n = 0; n < N; n += 2) {
      const v0 = GAMMA1 - z[j]![n]!
      const v1 = GAMMA1 - z[j]![n + 1]!
      const p = j * 640 + (n / 2) * 5
      zBytes[p] = v0 & 0xff; zBytes[p + 1] = (v0 >> 8) & 0xff; zBytes[p + 2] = (v0 >> 16) | (v1 & 0x0f) << 4
      zBytes[p + 3] = (v1 >> 4) & 0xff; zBytes[p + 4] = v1 >> 12
    }
  }
  const hBytes = Buffer.alloc(OMEGA + K)
  let count = 0
  for (let i = 0; i < K; i++) {
    for (let n = 0; n < N; n++) if (h[i]![n] === 1) hBytes[count++] = n
    hBytes[OMEGA + i] = count
  }
  if (count > OMEGA) throw new Error('more than ω hints')
  return Buffer.concat([cTilde, zBytes, hBytes])
}

const randomZ = (): number[][] => Array.from({ length: L }, () => Array.from({ length: N }, () => random(2 * EDGE + 1) - EDGE))

const randomBelow = (a: number, b: number): number => a + random(b - a) // in [a, b)
// the edges: a value of w' to put a hint on
const edges: Array<{ name: string; value: () => number }> = [
  { name: 'r0 = 0 (UseHint gives r1 − 1)', value: () => randomBelow(1, 16) * 2 * GAMMA2 },
  { name: 'w = 0 (r1 = 0, r0 = 0: UseHint gives 15)', value: () => 0 },
  { name: 'r0 = 1 (UseHint gives r1 + 1)', value: () => randomBelow(0, 16) * 2 * GAMMA2 + 1 },
  { name: 'r0 = γ2 (UseHint gives r1 + 1)', value: () => randomBelow(0, 15) * 2 * GAMMA2 + GAMMA2 },
  { name: 'r0 = −γ2 + 1 (UseHint gives r1 − 1)', value: () => randomBelow(1, 16) * 2 * GAMMA2 - GAMMA2 + 1 },
  { name: 'w = q − 1 − γ2 (r1 = 15, r0 = γ2: UseHint gives 0)', value: () => Q - 1 - GAMMA2 },
  { name: 'w = q − γ2, the first folded value (r1 = 0, r0 = −γ2: UseHint gives 15)', value: () => Q - GAMMA2 },
  { name: 'w in the fold (q − γ2, q − 1) (r1 = 0: UseHint gives 15)', value: () => randomBelow(Q - GAMMA2 + 1, Q - 1) },
  { name: 'w = q − 1 (r1 = 0, r0 = −1: UseHint gives 15)', value: () => Q - 1 }
]

const power = (b: number, e: number): number => { // b^e mod q
  let r = 1
  for (b = mod(b); e > 0; e = Math.floor(e / 2), b = (b * b) % Q) if (e % 2 === 1) r = (r * b) % Q
  return r
}
const aNormal = A.map((row) => row.map(nttInverse)) // A in the ordinary domain

/**
 * A z with w'[i][n] = value: w' is linear in z, and z_j[m] moves w'[i][n] by z_j[m]·c with
 * c = (A_ij·X^m)[n] = ±A_ij[n − m mod 256] (X^256 = −1). So draw z with z_j[m] = 0, then solve
 * for z_j[m], trying other (j, m) until the solution is a z coefficient (|x| ≤ γ1 − β − 1).
 */
function zWith (i: number, n: number, value: number): { z: number[][]; w: number[][] } {
  const z = randomZ()
  for (;;) {
    const j = random(L)
    const m = random(N)
    z[j]![m] = 0
    const base = wApprox(z)[i]![n]!
    const c = n >= m ? aNormal[i]![j]![n - m]! : mod(-aNormal[i]![j]![n - m + N]!)
    if (c === 0) continue
    let x = (mod(value - base) * power(c, Q - 2)) % Q
    if (x > (Q - 1) / 2) x -= Q
    if (Math.abs(x) > EDGE) continue
    z[j]![m] = x
    const w = wApprox(z)
    if (w[i]![n] !== value) throw new Error('w\' is not linear in z?')
    return { z, w }
  }
}

const found = new Map<string, { z: number[][]; w: number[][]; at: [number, number] }>()
for (const e of edges) {
  const at: [number, number] = [random(K), random(N)]
  found.set(e.name, { ...zWith(at[0], at[1], e.value()), at })
}
const tries = edges.length

const native = getMldsaCore('native')
const cases: Array<{ name: string; signature: string; verifies: boolean }> = []
function add (name: string, signature: Buffer, verifies: boolean): void {
  const byNative = native.verify(publicKey, message, signature)
  const byNoble = ml_dsa87.verify(signature, message, publicKey)
  if (byNative !== verifies || byNoble !== verifies) throw new Error(`${name}: FIPS 204 says ${verifies}, node:crypto ${byNative}, noble ${byNoble}`)
  cases.push({ name, signature: hex(signature), verifies })
}
for (const e of edges) {
  const { z, w, at } = found.get(e.name)!
  // a few other hints too, in canonical order
  const positions = new Set([at[0] * N + at[1]])
  while (positions.size < 7) positions.add(random(K * N))
  const hintsAt = (list: number[]): Array<[number, number]> => list.sort((a, b) => a - b).map((p) => [Math.floor(p / N), p % N])
  const withHint = forge(z, w, hintsAt([...positions]))
  const dropped = forge(z, w, hintsAt([...positions].filter((p) => p !== at[0] * N + at[1])))
  add(`hint where ${e.name}`, withHint, true)
  add(`no hint where ${e.name}`, dropped, true)
  // the hint signed for but dropped from the encoding, or added without being signed for
  add(`hint where ${e.name}, c̃ of the signature without it`, Buffer.concat([dropped.subarray(0, 64), withHint.subarray(64)]), false)
  add(`no hint where ${e.name}, c̃ of the signature with it`, Buffer.concat([withHint.subarray(0, 64), dropped.subarray(64)]), false)
}
{
  const z = randomZ()
  const w = wApprox(z)
  const positions = new Set<number>()
  while (positions.size < OMEGA) positions.add(random(K * N))
  const hints = [...positions].sort((a, b) => a - b).map((p): [number, number] => [Math.floor(p / N), p % N])
  add('ω hints', forge(z, w, hints), true)
}
{
  const z = Array.from({ length: L }, () => Array.from({ length: N }, () => random(2) === 0 ? EDGE : -EDGE))
  add('every z coefficient ±(γ1 − β − 1), no hints', forge(z, wApprox(z), []), true)
}

const file = {
  description: 'ML-DSA-87 signatures under a public key whose t1 is zero (so verification never uses c and anyone can sign), ' +
    'with hints where Decompose and UseHint (FIPS 204 Algorithms 36 and 40) have their edges, ω hints, and the largest z. ' +
    'verifies: what FIPS 204 says, which node:crypto and @noble/post-quantum both said when written. ' +
    'Written by test/core/crypto/write-mldsa-degenerate-key.ts.',
  public_key: hex(publicKey),
  message: hex(message),
  cases
}
writeFileSync(new URL('../fixtures/mldsa-degenerate-key.json', import.meta.url), JSON.stringify(file, null, 1) + '\n')
console.log(`wrote ${cases.length} cases (${cases.filter((c) => c.verifies).length} verify) for ${tries} edges`)
