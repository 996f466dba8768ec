// Writes test/core/fixtures/mldsa-z-boundary.json once: valid ML-DSA-87 signatures whose z has
// a coefficient at the edge of what verification accepts, |z| = γ1 − β − 1 = 524,167 (one with
// +524,167, one with −524,167). Signing cannot be steered there, so this signs one fixed message
// under a fixed key (seed = SHAKE256 of a label) with node:crypto's hedged signing until both
// turn up (about 1 signature in 300 has either), and checks that node:crypto and
// @noble/post-quantum both accept each before writing it. Read by mldsa-wasm.test.ts.
// Run: node_modules/.bin/node test/core/crypto/write-mldsa-z-boundary.ts
import crypto from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { ml_dsa87 } from '@noble/post-quantum/ml-dsa.js'
import { getMldsaCore } from '../../../core/crypto/mldsa.ts'

const GAMMA1 = 1 << 19
const EDGE = GAMMA1 - 120 - 1
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const native = getMldsaCore('native')
const seed = crypto.createHash('shake256', { outputLength: 32 }).update('mldsa z boundary key').digest()
const message = crypto.createHash('shake256', { outputLength: 32 }).update('mldsa z boundary message').digest()
const { publicKey } = native.keygen(seed)

/** The signature's z coefficients (BitUnpack with γ1 − 1, γ1: 20-bit values v, z = γ1 − v). */
function zOf (signature: Uint8Array): number[] {
  const z: number[] = []
  for (let i = 0; i < 7 * 256; i += 2) {
    const p = 64 + (i / 2) * 5
    const v = signature[p]! + signature[p + 1]! * 2 ** 8 + signature[p + 2]! * 2 ** 16 + signature[p + 3]! * 2 ** 24 + signature[p + 4]! * 2 ** 32 // 40 bits
    z.push(GAMMA1 - (v % 2 ** 20), GAMMA1 - Math.floor(v / 2 ** 20))
  }
  return z
}

const found = new Map<number, { signature: Uint8Array; index: number; tries: number }>()
for (let tries = 1; found.size < 2; tries++) {
  const signature = native.sign(seed, message)
  const z = zOf(signature)
  for (const edge of [EDGE, -EDGE]) {
    const index = z.indexOf(edge)
    if (index >= 0 && !found.has(edge)) found.set(edge, { signature, index, tries })
  }
}
const signatures = [...found].map(([edge, f]) => {
  if (!native.verify(publicKey, message, f.signature) || !ml_dsa87.verify(f.signature, message, publicKey)) throw new Error('a boundary signature does not verify')
  return { z: edge, coefficient: f.index, signature: hex(f.signature) }
})
const file = {
  description: `ML-DSA-87 signatures that node:crypto and @noble/post-quantum accept whose z has a coefficient of ±(γ1 − β − 1) = ±${EDGE} ` +
    '(coefficient: its index in z, polynomial-major). seed: SHAKE256("mldsa z boundary key", 32); message: SHAKE256("mldsa z boundary message", 32). ' +
    'Written by test/core/crypto/write-mldsa-z-boundary.ts.',
  seed: hex(seed),
  public_key: hex(publicKey),
  message: hex(message),
  signatures
}
writeFileSync(new URL('../fixtures/mldsa-z-boundary.json', import.meta.url), JSON.stringify(file, null, 1) + '\n')
console.log(`wrote ${signatures.length} signatures after ${Math.max(...[...found.values()].map((f) => f.tries))} tries`)
