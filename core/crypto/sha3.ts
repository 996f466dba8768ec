// SHA3 facade. Every hash in the node goes through here so that a benchmarker can swap
// the WASM core for its JS twin (config `cores.sha3`) without touching call sites.
// Both cores are FIPS 202 SHA3-256/512 and pass the same vectors (test/vectors/sha3.json).
import { jsSha3Core } from './sha3-js.ts'
import { wasmSha3Core } from './sha3-wasm.ts'

export type CoreKind = 'wasm' | 'js'

export interface Sha3Core {
  readonly kind: CoreKind
  sha3_256(data: Uint8Array): Uint8Array
  sha3_512(data: Uint8Array): Uint8Array
}

let active: Sha3Core = wasmSha3Core

/** The core of that kind. The WASM one loads wasm/build/sha3.wasm on its first hash. */
export function getSha3Core (kind: CoreKind): Sha3Core {
  if (kind === 'wasm') return wasmSha3Core
  if (kind === 'js') return jsSha3Core
  throw new RangeError(`unknown SHA3 core "${String(kind)}" (expected wasm or js)`)
}
export function selectSha3Core (kind: CoreKind): void { active = getSha3Core(kind) }
export function activeSha3Core (): Sha3Core { return active }

const utf8 = new TextEncoder()
const toBytes = (data: Uint8Array | string): Uint8Array => typeof data === 'string' ? utf8.encode(data) : data

export function sha3_256 (data: Uint8Array | string): Uint8Array { return active.sha3_256(toBytes(data)) }
export function sha3_512 (data: Uint8Array | string): Uint8Array { return active.sha3_512(toBytes(data)) }
export function sha3_256Hex (data: Uint8Array | string): string { return Buffer.from(sha3_256(data)).toString('hex') }
export function sha3_512Hex (data: Uint8Array | string): string { return Buffer.from(sha3_512(data)).toString('hex') }
