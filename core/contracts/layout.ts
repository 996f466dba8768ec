// Where a map entry lives in storage, as the generated code computes it: the slot of
// m[k] is SHA3-256(k as a 32-byte word ‖ slot of m as a 32-byte word); nested maps repeat
// that with the inner key. Tools (and tests) use this to read entries directly.
import { sha3_256 } from '../crypto/sha3.ts'
import { bytesToBigint, wordToBytes } from '../vm/words.ts'

export function mappingSlot (slot: bigint, ...keys: bigint[]): bigint {
  let current = slot
  for (const key of keys) {
    const preimage = new Uint8Array(64)
    preimage.set(wordToBytes(key), 0)
    preimage.set(wordToBytes(current), 32)
    current = bytesToBigint(sha3_256(preimage))
  }
  return current
}
