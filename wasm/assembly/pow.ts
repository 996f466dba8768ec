// Proof-of-work core, scalar: one Keccak-f per nonce from the midstate (lib/pow-midstate.ts).
// The fallback where the engine has no WebAssembly SIMD; pow-simd.ts is the same core with
// three nonces per permutation pass. Both export exactly this interface (core/pow/pow-wasm.ts).
import { searchScalar } from './lib/pow-midstate'
export { inputPointer, digestPointer, targetPointer, chunkBytes, prefixBegin, prefixUpdate, prefixEnd, hashHeader } from './lib/pow-midstate'

/**
 * Tries nonces start .. start + count - 1 in order and returns the index of the first whose
 * hash is at most the target at targetPointer() (its digest left at digestPointer()), or -1.
 */
export function search (start: f64, count: i32): i32 {
  return searchScalar(<u64>start, count)
}
