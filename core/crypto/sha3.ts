// SHA3 facade. Every hash in the node goes through here so that a benchmarker can swap
// the WASM core for its JS twin (config `cores.sha3`) without touching call sites.
// NOTE: temporary implementation backed by @noble/hashes until the WASM core and the
// hand-written JS twin land; the exported API below is the contract and stays.
import { sha3_256 as nobleSha3_256, sha3_512 as nobleSha3_512 } from '@noble/hashes/sha3.js'

export type CoreKind = 'wasm' | 'js'

export interface Sha3Core {
  readonly kind: CoreKind
  sha3_256(data: Uint8Array): Uint8Array
  sha3_512(data: Uint8Array): Uint8Array
}

const placeholder: Sha3Core = { kind: 'js', sha3_256: nobleSha3_256, sha3_512: nobleSha3_512 }
let active: Sha3Core = placeholder

export function getSha3Core (_kind: CoreKind): Sha3Core { return placeholder }
export function selectSha3Core (kind: CoreKind): void { active = getSha3Core(kind) }
export function activeSha3Core (): Sha3Core { return active }

const utf8 = new TextEncoder()
const toBytes = (data: Uint8Array | string): Uint8Array => typeof data === 'string' ? utf8.encode(data) : data

export function sha3_256 (data: Uint8Array | string): Uint8Array { return active.sha3_256(toBytes(data)) }
export function sha3_512 (data: Uint8Array | string): Uint8Array { return active.sha3_512(toBytes(data)) }
export function sha3_256Hex (data: Uint8Array | string): string { return Buffer.from(sha3_256(data)).toString('hex') }
export function sha3_512Hex (data: Uint8Array | string): string { return Buffer.from(sha3_512(data)).toString('hex') }
