// Headers travel as the exact 272 bytes the proof-of-work hashes (core/chain/header.ts), so a
// receiver checks a header's hash and work from the bytes themselves, with no body and no
// attestation envelope (which can be several kilobytes) on the wire.
import { encodeHeader, HEADER_BYTES, HEADER_PREFIX_BYTES } from '../../core/chain/header.ts'
import type { Block } from '../../core/chain/types.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import { WireError } from './protocol.ts'

/** The fields of a header that sync checks before it asks for bodies. */
export interface WireHeader {
  hash: string
  version: number
  height: number
  timestamp: number
  previous_hash: string
  /** the compact target (core/chain/target.ts), as the bytes say: not yet checked canonical */
  bits: number
  /** SHA3-512 of the header bytes, kept raw for the target check */
  hashBytes: Uint8Array
}

// Offsets of the fixed layout written by encodeHeaderPrefix.
const VERSION = 0
const HEIGHT = 4
const TIMESTAMP = 12
const PREVIOUS_HASH = 20
const BITS = 148

export { encodeHeader }

export function encodeHeaderHex (block: Block): string {
  return Buffer.from(encodeHeader(block)).toString('hex')
}

/** The parent hash written in a header's bytes. */
export function headerParent (bytes: Uint8Array): string {
  return Buffer.from(bytes.subarray(PREVIOUS_HASH, PREVIOUS_HASH + 64)).toString('hex')
}

/** Parses one header and hashes it; throws WireError when it is not 272 bytes of hex. */
/** `powCore`: the kernel's PoW core (its `cores.pow`) the header hash is recomputed with */
export function decodeHeaderHex (hex: string, powCore: PowCore): WireHeader {
  if (hex.length !== HEADER_BYTES * 2 || !/^[0-9a-f]*$/.test(hex)) throw new WireError(`a header is ${HEADER_BYTES} bytes of lowercase hex`)
  const bytes = new Uint8Array(Buffer.from(hex, 'hex'))
  const view = new DataView(bytes.buffer)
  const nonce = view.getBigUint64(HEADER_PREFIX_BYTES)
  const height = view.getBigUint64(HEIGHT)
  if (nonce > BigInt(Number.MAX_SAFE_INTEGER) || height > BigInt(Number.MAX_SAFE_INTEGER)) throw new WireError('header height or nonce out of range')
  const hashBytes = powCore.hashHeader(bytes.subarray(0, HEADER_PREFIX_BYTES), Number(nonce))
  return {
    hash: Buffer.from(hashBytes).toString('hex'),
    version: view.getUint32(VERSION),
    height: Number(height),
    timestamp: view.getFloat64(TIMESTAMP),
    previous_hash: Buffer.from(bytes.subarray(PREVIOUS_HASH, PREVIOUS_HASH + 64)).toString('hex'),
    bits: view.getUint32(BITS),
    hashBytes
  }
}
