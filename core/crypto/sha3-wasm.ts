// SHA3 through the AssemblyScript core (wasm/assembly/sha3.ts). Input is copied into the
// core's input buffer, in chunks when it is larger than one buffer; the digest is read straight
// from the sponge state. The module is loaded on the first hash, not on import.
import { lazyWasmCore } from '../wasm/load.ts'
import type { Sha3Core } from './sha3.ts'

interface Sha3Exports {
  memory: WebAssembly.Memory
  inputPointer(): number
  statePointer(): number
  chunkBytes(): number
  begin(): void
  update(rate: number, length: number): void
  finish(rate: number, length: number): void
  digest(rate: number, length: number): void
}

const core = lazyWasmCore('sha3', (e: Sha3Exports) => ({ input: e.inputPointer(), state: e.statePointer(), chunk: e.chunkBytes() }))

function sha3 (data: Uint8Array, rate: number, digestBytes: number): Uint8Array {
  const { exports, memory, input, state, chunk } = core()
  if (data.length <= chunk) {
    memory.set(data, input)
    exports.digest(rate, data.length)
  } else {
    // the chunk size is a multiple of both rates, so every chunk but the last is whole blocks
    exports.begin()
    let offset = 0
    for (; data.length - offset > chunk; offset += chunk) {
      memory.set(data.subarray(offset, offset + chunk), input)
      exports.update(rate, chunk)
    }
    memory.set(data.subarray(offset), input)
    exports.finish(rate, data.length - offset)
  }
  return memory.slice(state, state + digestBytes)
}

export const wasmSha3Core: Sha3Core = {
  kind: 'wasm',
  sha3_256: (data) => sha3(data, 136, 32),
  sha3_512: (data) => sha3(data, 72, 64)
}
