// Seeded randomness for test data: the same inputs on every run, so a failure can be replayed.
// (Keys a test generates fresh are fine where it does not depend on their values.)
import { shake256 } from '@noble/hashes/sha3.js'

/** `n` bytes determined by `label` (one label per use): SHAKE256 of it. */
export function seededBytes (label: string, n: number): Buffer {
  return Buffer.from(shake256(Buffer.from(label, 'utf8'), { dkLen: n }))
}

/** mulberry32: numbers in [0, 1) from a 32-bit seed (the test bed's, so a seed replays alike in both). */
export { seededRandom } from '../../testbed/runner/random.ts'
