// Proof-of-work core interface. The header's 8-byte big-endian nonce is its LAST field
// (DESIGN 3) so a core can absorb the fixed prefix once per template (midstate) and run
// only the final Keccak-f permutation per nonce. Two kinds implement it: the AssemblyScript
// one (pow-wasm.ts, default: the SIMD build where the engine has WebAssembly SIMD, else the
// scalar one) and its JS twin (pow-js.ts); all find the same nonces.
import type { CoreKind } from '../crypto/sha3.ts'
import { jsPowCore } from './pow-js.ts'
import { wasmPowCore, wasmScalarPowCore, wasmSimdPowCore } from './pow-wasm.ts'

export interface PowSearchResult {
  found: boolean
  nonce: number // the winning nonce when found, else the next nonce to try
  hash: Uint8Array | null
  tried: number
}

export interface PowCore {
  readonly kind: CoreKind
  /** SHA3-512 of prefix ‖ nonce (uint64 big-endian). */
  hashHeader(prefix: Uint8Array, nonce: number): Uint8Array
  /**
   * Tries nonces [start, start + count) and stops at the first hash that, read as a 512-bit
   * big-endian integer, is at most `target` (64 bytes, big-endian: core/chain/target.ts).
   */
  search(prefix: Uint8Array, start: number, count: number, target: Uint8Array): PowSearchResult
}

/** True when the hash, as a big-endian integer, is at most the target (both 64 bytes). */
export function meetsTarget (hash: Uint8Array, target: Uint8Array): boolean {
  if (hash.length !== target.length) return false
  return Buffer.compare(Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength), Buffer.from(target.buffer, target.byteOffset, target.byteLength)) <= 0
}

/**
 * Every PoW core by the name `--core pow=<name>` selects it with: `wasm` is the SIMD build
 * where the engine has WebAssembly SIMD, else the scalar one; `wasm-simd` and `wasm-scalar`
 * pin one build; `js` is the JS twin. A miner's worker threads look their core up here by
 * name (a core object cannot cross a thread), so a kernel's pool runs the kernel's choice.
 */
export const POW_CORES = { wasm: wasmPowCore, 'wasm-simd': wasmSimdPowCore, 'wasm-scalar': wasmScalarPowCore, js: jsPowCore } as const satisfies Record<string, PowCore>
export type PowCoreName = keyof typeof POW_CORES

/** The core library code hashes headers with when its caller names none. Never reassigned. */
export const DEFAULT_POW_CORE: PowCore = wasmPowCore

/** The core of that name; a WASM one loads wasm/build/pow-simd.wasm (or pow.wasm) on first use. */
export function getPowCore (name: PowCoreName): PowCore {
  if (!Object.hasOwn(POW_CORES, name)) throw new RangeError(`unknown PoW core "${String(name)}" (expected ${Object.keys(POW_CORES).join(', ')})`)
  return POW_CORES[name]
}
