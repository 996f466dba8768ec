// ML-DSA-87 (FIPS 204) cores. The native path (node:crypto, Node 24) is 7-9x faster than
// @noble/post-quantum; the noble twin exists so a benchmarker can compare, and so each can
// verify the other's signatures (they share the 32-byte seed format). The wasm core
// (mldsa-wasm.ts) verifies in WebAssembly with a cache of expanded public keys (5-6x faster
// than native under a key it has seen, a little faster under a new one) and signs through the
// native one. There is no process-wide "active" core: a kernel picks one (config
// `cores.mldsa`, `--core mldsa=...`) and hands it to what verifies for it; `mldsa` below is
// the documented default (native) for tools, wallets and tests that name none.
import crypto from 'node:crypto'
import { ml_dsa87 } from '@noble/post-quantum/ml-dsa.js'
import { createWasmMldsaCore } from './mldsa-wasm.ts'
import { PUBLIC_KEY_BYTES, SEED_BYTES, SIGNATURE_BYTES } from './mldsa-sizes.ts'

export type MldsaCoreKind = 'native' | 'noble' | 'wasm'
export { PUBLIC_KEY_BYTES, SIGNATURE_BYTES, SEED_BYTES }

export interface MldsaKeyPair { seed: Uint8Array; publicKey: Uint8Array }

export interface MldsaCore {
  readonly kind: MldsaCoreKind
  keygen(seed?: Uint8Array): MldsaKeyPair
  sign(seed: Uint8Array, message: Uint8Array): Uint8Array
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean
}

const b64u = (b: Uint8Array): string => Buffer.from(b).toString('base64url')

// Building a KeyObject from JWK costs more than a verify; block validation verifies the
// same handful of keys over and over, so keep a small cache keyed by the key bytes.
const keyCache = new Map<string, crypto.KeyObject>()
function cached (id: string, make: () => crypto.KeyObject): crypto.KeyObject {
  let key = keyCache.get(id)
  if (key === undefined) {
    key = make()
    if (keyCache.size >= 4096) keyCache.delete(keyCache.keys().next().value as string)
    keyCache.set(id, key)
  }
  return key
}

function nativePrivateKey (seed: Uint8Array): crypto.KeyObject {
  return cached('s:' + b64u(seed), () => {
    // node:crypto derives the public key itself when only the seed is given in JWK form.
    const pub = ml_dsa87.keygen(seed).publicKey
    return crypto.createPrivateKey({ key: { kty: 'AKP', alg: 'ML-DSA-87', priv: b64u(seed), pub: b64u(pub) }, format: 'jwk' })
  })
}

function nativePublicKey (publicKey: Uint8Array): crypto.KeyObject {
  return cached('p:' + b64u(publicKey), () =>
    crypto.createPublicKey({ key: { kty: 'AKP', alg: 'ML-DSA-87', pub: b64u(publicKey) }, format: 'jwk' }))
}

const nativeCore: MldsaCore = {
  kind: 'native',
  keygen (seed) {
    if (seed === undefined) {
      const { privateKey } = crypto.generateKeyPairSync('ml-dsa-87')
      const jwk = privateKey.export({ format: 'jwk' })
      return { seed: Buffer.from(jwk.priv as string, 'base64url'), publicKey: Buffer.from(jwk.pub as string, 'base64url') }
    }
    const jwk = nativePrivateKey(seed).export({ format: 'jwk' })
    return { seed: Uint8Array.from(seed), publicKey: Buffer.from(jwk.pub as string, 'base64url') }
  },
  sign (seed, message) { return crypto.sign(null, message, nativePrivateKey(seed)) },
  verify (publicKey, message, signature) {
    if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false
    try { return crypto.verify(null, message, nativePublicKey(publicKey), signature) } catch { return false }
  }
}

const nobleCore: MldsaCore = {
  kind: 'noble',
  keygen (seed) {
    const s = seed ?? crypto.randomBytes(SEED_BYTES)
    return { seed: Uint8Array.from(s), publicKey: ml_dsa87.keygen(s).publicKey }
  },
  sign (seed, message) { return ml_dsa87.sign(message, ml_dsa87.keygen(seed).secretKey) },
  verify (publicKey, message, signature) {
    if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false
    try { return ml_dsa87.verify(signature, message, publicKey) } catch { return false }
  }
}

const wasmCore: MldsaCore = createWasmMldsaCore(nativeCore)

/** Every ML-DSA-87 core by the name `--core mldsa=<name>` selects it with. */
export const MLDSA_CORES = { native: nativeCore, noble: nobleCore, wasm: wasmCore } as const satisfies Record<MldsaCoreKind, MldsaCore>
export type MldsaCoreName = keyof typeof MLDSA_CORES

/** The core library code signs and verifies with when its caller names none. Never reassigned. */
export const DEFAULT_MLDSA_CORE: MldsaCore = nativeCore

export function getMldsaCore (name: MldsaCoreName): MldsaCore {
  if (!Object.hasOwn(MLDSA_CORES, name)) throw new RangeError(`unknown ML-DSA core "${String(name)}" (expected ${Object.keys(MLDSA_CORES).join(' or ')})`)
  return MLDSA_CORES[name]
}

/** The default core (DEFAULT_MLDSA_CORE), for callers that are no kernel's (wallet, tools). */
export const mldsa: MldsaCore = DEFAULT_MLDSA_CORE
