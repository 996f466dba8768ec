// JS twin of the WASM SHA3 core: the same sponge over 32-bit lane halves (keccak-js.ts).
import { STATE_WORDS, absorbAll, stateBytes } from './keccak-js.ts'
import type { Sha3Core } from './sha3.ts'

// one scratch state per thread: hashing is synchronous, so calls never overlap
const state = new Int32Array(STATE_WORDS)

function sha3 (data: Uint8Array, rate: number, digestBytes: number): Uint8Array {
  state.fill(0)
  absorbAll(state, data, rate)
  return stateBytes(state, digestBytes)
}

export const jsSha3Core: Sha3Core = {
  kind: 'js',
  sha3_256: (data) => sha3(data, 136, 32),
  sha3_512: (data) => sha3(data, 72, 64)
}
