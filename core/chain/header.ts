// Fixed-layout binary block header (DESIGN 3). The nonce is LAST so a miner absorbs the
// 264-byte prefix once per template and runs one Keccak-f per nonce (midstate).
//   version u32 | height u64 | timestamp f64 | previous_hash 64 | merkle_root 64 |
//   bits u32 | miner 16 | entropy_seed 32 | envelope_hash 64 | nonce u64   = 272 bytes
// Version 2 put the compact target (`bits`, core/chain/target.ts) where version 1 had the
// leading-zero difficulty; the block's `difficulty` is derived from it, not hashed.
import { DEFAULT_SHA3_CORE, sha3_512 } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import { DEFAULT_POW_CORE } from '../pow/pow-core.ts'
import type { PowCore } from '../pow/pow-core.ts'
import type { Block, QuantumSignature } from './types.ts'
import { canonicalJson } from './tx.ts'

export const HEADER_PREFIX_BYTES = 264
export const HEADER_BYTES = HEADER_PREFIX_BYTES + 8

export type HeaderFields = Pick<Block, 'version' | 'height' | 'timestamp' | 'previous_hash' | 'merkle_root' | 'bits' | 'miner' | 'quantum_signature'>

function putHex (view: Uint8Array, offset: number, text: string, bytes: number): void {
  const raw = Buffer.from(text, 'hex')
  if (raw.length !== bytes || raw.toString('hex') !== text.toLowerCase()) throw new TypeError(`expected ${bytes} bytes of hex`)
  view.set(raw, offset)
}

/** SHA3-512 of the canonical attestation envelope; zeros for genesis (no envelope). */
export function envelopeHash (qs: QuantumSignature | null, sha3: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array {
  return qs === null ? new Uint8Array(64) : sha3_512(canonicalJson(qs), sha3)
}

/** `sha3`: the core the envelope hash is taken with (a kernel passes its own). */
export function encodeHeaderPrefix (h: HeaderFields, sha3: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array {
  const out = new Uint8Array(HEADER_PREFIX_BYTES)
  const view = new DataView(out.buffer)
  view.setUint32(0, h.version)
  view.setBigUint64(4, BigInt(h.height))
  view.setFloat64(12, h.timestamp)
  putHex(out, 20, h.previous_hash, 64)
  putHex(out, 84, h.merkle_root, 64)
  view.setUint32(148, h.bits)
  putHex(out, 152, h.miner, 16)
  const seed = h.quantum_signature?.qrng_attestation.entropy_seed
  if (seed !== undefined) putHex(out, 168, seed, 32)
  out.set(envelopeHash(h.quantum_signature, sha3), 200)
  return out
}

/** The full 272 header bytes: the prefix, then the nonce (what headers-first sync sends). */
export function encodeHeader (h: HeaderFields & { nonce: number }, sha3: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array {
  return headerWithNonce(encodeHeaderPrefix(h, sha3), h.nonce)
}

/** The full header from a prefix already encoded (the envelope hash is the costly part). */
export function headerWithNonce (prefix: Uint8Array, nonce: number): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES)
  out.set(prefix)
  new DataView(out.buffer).setBigUint64(HEADER_PREFIX_BYTES, BigInt(nonce))
  return out
}

/** The block hash through `cores.pow` (the header prefix's envelope hash through `cores.sha3`). */
export function blockHash (h: HeaderFields & { nonce: number }, cores: { pow: PowCore; sha3: Sha3Core } = { pow: DEFAULT_POW_CORE, sha3: DEFAULT_SHA3_CORE }): string {
  return Buffer.from(cores.pow.hashHeader(encodeHeaderPrefix(h, cores.sha3), h.nonce)).toString('hex')
}
