// Seeded randomness for test data: the same inputs on every run, so a failure can be replayed.
// (Keys a test generates fresh are fine where it does not depend on their values.)
import { shake256 } from '@noble/hashes/sha3.js'

/** `n` bytes determined by `label` (one label per use): SHAKE256 of it. */
export function seededBytes (label: string, n: number): Buffer {
  return Buffer.from(shake256(Buffer.from(label, 'utf8'), { dkLen: n }))
}

/** mulberry32: numbers in [0, 1) from a 32-bit seed. */
export function seededRandom (seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = Math.imul(s ^ (s >>> 15), 1 | s)
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x)
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}
