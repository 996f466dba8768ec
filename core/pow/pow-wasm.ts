// PoW through the AssemblyScript core (wasm/assembly/pow.ts). The prefix is handed to the
// core once per distinct prefix (it keeps the midstate); a search is then one call into WASM
// per up-to-2^30 nonces. The module is loaded on first use, not on import.
import { loadWasmCore } from '../wasm/load.ts'
import { HASH_BYTES, checkNonce, checkSearch } from './nonce.ts'
import type { PowCore, PowSearchResult } from './pow-core.ts'

const RATE = 72
// the core counts nonces in an i32
const MAX_NONCES_PER_CALL = 2 ** 30

interface PowExports {
  memory: WebAssembly.Memory
  inputPointer(): number
  digestPointer(): number
  chunkBytes(): number
  prefixBegin(): void
  prefixUpdate(length: number): void
  prefixEnd(length: number): void
  hashHeader(nonce: number): void
  search(start: number, count: number, difficulty: number): number
}

interface LoadedCore {
  exports: PowExports
  memory: Uint8Array // static buffers only: memory never grows, the view stays valid
  input: number
  digest: number
  chunk: number
  prefix: Buffer | null // the prefix whose midstate the core holds
}

let loaded: LoadedCore | null = null

function core (): LoadedCore {
  if (loaded === null) {
    const exports = loadWasmCore('pow').exports as unknown as PowExports
    loaded = {
      exports,
      memory: new Uint8Array(exports.memory.buffer),
      input: exports.inputPointer(),
      digest: exports.digestPointer(),
      chunk: exports.chunkBytes(),
      prefix: null
    }
  }
  return loaded
}

function coreWithPrefix (prefix: Uint8Array): LoadedCore {
  const c = core()
  const view = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength)
  if (c.prefix !== null && c.prefix.equals(view)) return c
  const wholeBytes = prefix.length - (prefix.length % RATE)
  c.exports.prefixBegin()
  // chunkBytes is a multiple of 72, so every chunk is whole blocks
  for (let offset = 0; offset < wholeBytes; offset += c.chunk) {
    const end = Math.min(offset + c.chunk, wholeBytes)
    c.memory.set(prefix.subarray(offset, end), c.input)
    c.exports.prefixUpdate(end - offset)
  }
  c.memory.set(prefix.subarray(wholeBytes), c.input)
  c.exports.prefixEnd(prefix.length - wholeBytes)
  c.prefix = Buffer.from(view)
  return c
}

export const wasmPowCore: PowCore = {
  kind: 'wasm',
  hashHeader (prefix: Uint8Array, nonce: number): Uint8Array {
    checkNonce(nonce)
    const c = coreWithPrefix(prefix)
    c.exports.hashHeader(nonce)
    return c.memory.slice(c.digest, c.digest + HASH_BYTES)
  },
  search (prefix: Uint8Array, start: number, count: number, difficulty: number): PowSearchResult {
    checkSearch(start, count, difficulty)
    const c = coreWithPrefix(prefix)
    for (let done = 0; done < count;) {
      const n = Math.min(count - done, MAX_NONCES_PER_CALL)
      const index = c.exports.search(start + done, n, difficulty)
      if (index >= 0) {
        const hash = c.memory.slice(c.digest, c.digest + HASH_BYTES)
        return { found: true, nonce: start + done + index, hash, tried: done + index + 1 }
      }
      done += n
    }
    return { found: false, nonce: start + count, hash: null, tried: count }
  }
}
