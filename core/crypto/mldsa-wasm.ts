// ML-DSA-87 verification through the AssemblyScript core (wasm/assembly/mldsa.ts), which keeps
// per public key the expanded matrix Â, NTT(t1·2^d) and tr in a bounded cache (128 keys, least
// recently used evicted, matched on the key's every byte): a block validator meets the same
// senders again and again, and a verify under a cached key skips ExpandA, the bulk of the work.
// Only verification is the node's hot path, so keygen and sign delegate to the native core
// (node:crypto): mldsa.ts builds the core with createWasmMldsaCore(nativeCore), so this file
// imports nothing but types from it (the sizes come from mldsa-sizes.ts). Each thread that
// verifies instantiates its own core on its first verify (about 8.5 MiB of linear memory,
// fixed, for the cache).
import { lazyWasmCore } from '../wasm/load.ts'
import type { MldsaCore } from './mldsa.ts'
import { PUBLIC_KEY_BYTES, SIGNATURE_BYTES } from './mldsa-sizes.ts'

interface MldsaExports {
  memory: WebAssembly.Memory
  publicKeyPointer(): number
  signaturePointer(): number
  messagePointer(): number
  messageChunkBytes(): number
  cacheSlots(): number
  cacheHits(): number
  cacheMisses(): number
  cacheEvictions(): number
  cacheClear(): void
  cacheHashBits(bits: number): void
  useHint(h: number, r: number): number
  verify(length: number): number
  verifyBegin(): number
  absorbMessage(length: number): void
  verifyFinish(): number
}

const core = lazyWasmCore('mldsa', (e: MldsaExports) => ({ publicKey: e.publicKeyPointer(), signature: e.signaturePointer(), message: e.messagePointer(), chunk: e.messageChunkBytes() }))
type LoadedCore = ReturnType<typeof core>

function wasmVerify (instance: LoadedCore, publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const { exports, memory, publicKey: pk, signature: sig, message: msg, chunk } = instance
  memory.set(publicKey, pk)
  memory.set(signature, sig)
  if (message.length <= chunk) {
    memory.set(message, msg)
    return exports.verify(message.length) === 1
  }
  if (exports.verifyBegin() !== 1) return false
  for (let offset = 0; offset < message.length; offset += chunk) {
    const part = message.subarray(offset, offset + chunk)
    memory.set(part, msg)
    exports.absorbMessage(part.length)
  }
  return exports.verifyFinish() === 1
}

export interface MldsaWasmCacheStats { slots: number; hits: number; misses: number; evictions: number }

/** This thread's key-cache counters (tests and benchmarks). */
export function mldsaWasmCacheStats (): MldsaWasmCacheStats {
  const { exports } = core()
  return { slots: exports.cacheSlots(), hits: exports.cacheHits() >>> 0, misses: exports.cacheMisses() >>> 0, evictions: exports.cacheEvictions() >>> 0 }
}

/** Empties this thread's key cache and zeroes its counters (tests and benchmarks: a cold start). */
export function clearMldsaWasmCache (): void { core().exports.cacheClear() }

/**
 * Tests only: how many bits of the key hash that picks a cache slot are kept (64 normally; 0 makes
 * every key collide, so only the comparison of all the key's bytes tells cached keys apart).
 * Empties the cache.
 */
export function setMldsaWasmCacheHashBits (bits: number): void { core().exports.cacheHashBits(bits) }

/** Tests only: the core's UseHint(h, r) (FIPS 204 Algorithm 40) for h in {0, 1}, r in [0, q). */
export function mldsaWasmUseHint (h: number, r: number): number { return core().exports.useHint(h, r) }

/**
 * The `wasm` ML-DSA-87 core: verify in WASM; keygen and sign by `delegate` (the native core:
 * signing is a wallet's and a miner's occasional act, not the validator's hot path).
 */
export function createWasmMldsaCore (delegate: MldsaCore): MldsaCore {
  return {
    kind: 'wasm',
    keygen: (seed) => delegate.keygen(seed),
    sign: (seed, message) => delegate.sign(seed, message),
    verify (publicKey, message, signature) {
      if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false
      // outside the try: a core that is not built (WasmCoreMissingError) must stop the node,
      // not make it refuse every signature
      const instance = core()
      try { return wasmVerify(instance, publicKey, message, signature) } catch { return false }
    }
  }
}
