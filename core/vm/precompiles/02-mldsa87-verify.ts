// 0x…02: ML-DSA-87 verification. Input: public key (2592 bytes) ‖ signature (4627 bytes) ‖
// message (the rest). Returns one word: 1 if the signature is valid, else 0 (a short input
// is simply not a valid signature).
import { PUBLIC_KEY_BYTES, SIGNATURE_BYTES } from '../../crypto/mldsa.ts'
import { wordToBytes } from '../words.ts'
import type { Precompile } from './types.ts'

const HEAD = PUBLIC_KEY_BYTES + SIGNATURE_BYTES

export const mldsa87VerifyPrecompile: Precompile = {
  name: 'ML-DSA-87 verify',
  // a native verify takes ~0.2 ms, about what 35k (JS core) to 170k (WASM core) gas of
  // interpreted arithmetic takes; 50k keeps a block's worth of verifies bounded
  gas: (input) => 50000 + 6 * Math.ceil(Math.max(0, input.length - HEAD) / 32),
  run: (input, cores) => {
    if (input.length < HEAD) return wordToBytes(0n)
    const ok = cores.mldsa.verify(input.subarray(0, PUBLIC_KEY_BYTES), input.subarray(HEAD), input.subarray(PUBLIC_KEY_BYTES, HEAD))
    return wordToBytes(ok ? 1n : 0n)
  }
}
