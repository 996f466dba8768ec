// SHA3 cores and the helpers that hash through one. There is no process-wide "active" core:
// a kernel picks its core (config `cores.sha3`, flag `--core sha3=...`) and hands it to the
// code that hashes for it (chain validation, merkle roots, transaction ids). Library code
// called without a core uses DEFAULT_SHA3_CORE, the WASM one; tools and tests rely on that.
// Every core is FIPS 202 SHA3-256/512 and passes the same vectors (test/vectors/sha3.json).
import { jsSha3Core } from './sha3-js.ts'
import { wasmSha3Core } from './sha3-wasm.ts'

export type CoreKind = 'wasm' | 'js'

export interface Sha3Core {
  readonly kind: CoreKind
  sha3_256(data: Uint8Array): Uint8Array
  sha3_512(data: Uint8Array): Uint8Array
}

/** Every SHA3 core by the name `--core sha3=<name>` selects it with. */
export const SHA3_CORES = { wasm: wasmSha3Core, js: jsSha3Core } as const satisfies Record<string, Sha3Core>
export type Sha3CoreName = keyof typeof SHA3_CORES

/** The core library code hashes with when its caller names none. Constant: never reassigned. */
export const DEFAULT_SHA3_CORE: Sha3Core = wasmSha3Core

/** The core of that name. The WASM one loads wasm/build/sha3.wasm on its first hash. */
export function getSha3Core (name: Sha3CoreName): Sha3Core {
  if (!Object.hasOwn(SHA3_CORES, name)) throw new RangeError(`unknown SHA3 core "${String(name)}" (expected ${Object.keys(SHA3_CORES).join(' or ')})`)
  return SHA3_CORES[name]
}

const utf8 = new TextEncoder()
/** Strings hash as their UTF-8 bytes. */
export const bytesOf = (data: Uint8Array | string): Uint8Array => typeof data === 'string' ? utf8.encode(data) : data

export function sha3_256 (data: Uint8Array | string, core: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array { return core.sha3_256(bytesOf(data)) }
export function sha3_512 (data: Uint8Array | string, core: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array { return core.sha3_512(bytesOf(data)) }
export function sha3_256Hex (data: Uint8Array | string, core: Sha3Core = DEFAULT_SHA3_CORE): string { return Buffer.from(sha3_256(data, core)).toString('hex') }
export function sha3_512Hex (data: Uint8Array | string, core: Sha3Core = DEFAULT_SHA3_CORE): string { return Buffer.from(sha3_512(data, core)).toString('hex') }
