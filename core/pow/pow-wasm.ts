// PoW through the AssemblyScript cores: wasm/assembly/pow-simd.ts (three nonces per Keccak-f
// pass: two in v128 lanes, one in i64 lanes) where the engine supports WebAssembly SIMD, else the scalar wasm/assembly/pow.ts.
// Both export the same interface and find the same nonces. The prefix is handed to a core once
// per distinct prefix (it keeps the midstate); a search is then one call into WASM per
// up-to-2^30 nonces. A module is loaded on first use, not on import.
import { lazyWasmCore } from '../wasm/load.ts'
import type { LoadedWasmCore } from '../wasm/load.ts'
import { HASH_BYTES, checkNonce, checkSearch } from './nonce.ts'
import type { PowCore, PowSearchResult } from './pow-core.ts'

const RATE = 72
// the core counts nonces in an i32
const MAX_NONCES_PER_CALL = 2 ** 30

interface PowExports {
  memory: WebAssembly.Memory
  inputPointer(): number
  digestPointer(): number
  targetPointer(): number
  chunkBytes(): number
  prefixBegin(): void
  prefixUpdate(length: number): void
  prefixEnd(length: number): void
  hashHeader(nonce: number): void
  search(start: number, count: number): number
}

export type WasmPowModule = 'pow' | 'pow-simd'

// v128.const 0 returned from a function: validates only where the engine has SIMD
const SIMD_PROBE = Uint8Array.of(
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,
  0x03, 0x02, 0x01, 0x00,
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, ...new Array<number>(16).fill(0), 0x0b
)

export function simdSupported (): boolean { return WebAssembly.validate(SIMD_PROBE) }

function makeCore (name: WasmPowModule): PowCore {
  const core = lazyWasmCore(name, (e: PowExports): Omit<LoadedCore, 'exports' | 'memory'> => ({ input: e.inputPointer(), digest: e.digestPointer(), target: e.targetPointer(), chunk: e.chunkBytes(), prefix: null }))
  return {
    kind: 'wasm',
    hashHeader (prefix: Uint8Array, nonce: number): Uint8Array {
      checkNonce(nonce)
      const c = withPrefix(core(), prefix)
      c.exports.hashHeader(nonce)
      return c.memory.slice(c.digest, c.digest + HASH_BYTES)
    },
    search (prefix: Uint8Array, start: number, count: number, target: Uint8Array): PowSearchResult {
      checkSearch(start, count, target)
      const c = withPrefix(core(), prefix)
      c.memory.set(target, c.target)
      for (let done = 0; done < count;) {
        const n = Math.min(count - done, MAX_NONCES_PER_CALL)
        const index = c.exports.search(start + done, n)
        if (index >= 0) {
          const hash = c.memory.slice(c.digest, c.digest + HASH_BYTES)
          return { found: true, nonce: start + done + index, hash, tried: done + index + 1 }
        }
        done += n
      }
      return { found: false, nonce: start + count, hash: null, tried: count }
    }
  }
}

/** `prefix`: the prefix whose midstate the core holds (withPrefix) */
type LoadedCore = LoadedWasmCore<PowExports, { input: number; digest: number; target: number; chunk: number; prefix: Buffer | null }>

function withPrefix (c: LoadedCore, prefix: Uint8Array): LoadedCore {
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

export const wasmScalarPowCore: PowCore = makeCore('pow')
export const wasmSimdPowCore: PowCore = makeCore('pow-simd')

let chosen: PowCore | null = null
/** The SIMD core where the engine supports it, else the scalar one; decided on first use. */
function best (): PowCore {
  chosen ??= simdSupported() ? wasmSimdPowCore : wasmScalarPowCore
  return chosen
}

export const wasmPowCore: PowCore = {
  kind: 'wasm',
  hashHeader: (prefix, nonce) => best().hashHeader(prefix, nonce),
  search: (prefix, start, count, target) => best().search(prefix, start, count, target)
}
