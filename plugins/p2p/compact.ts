// Compact block announcements (BIP 152 as the anchor, docs/p2p.md "Compact blocks"): a block
// travels as its 272 header bytes, its attestation envelope, its coinbase (prefilled: no
// mempool holds it) and one 6-byte short id per other transaction. The short ids are keyed by
// SHA3-256(header ‖ a random 8-byte salt the announcer picks), so whoever builds a block cannot
// grind two transactions onto one short id for every receiver: the key is unknown until the
// header (and its proof of work) is fixed, and each announcer salts again.
import { createHash, randomBytes } from 'node:crypto'
import { HEADER_BYTES, HEADER_PREFIX_BYTES, encodeHeaderPrefix } from '../../core/chain/header.ts'
import { decodeBinaryJson, encodeBinaryJson, BinaryJsonError } from '../../core/chain/binary-json.ts'
import { decodeTx, encodeTx } from '../../core/chain/tx-codec.ts'
import type { Block, QuantumSignature, Transaction } from '../../core/chain/types.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import { bitsProblem, difficultyOfBits } from '../../core/chain/target.ts'
import { WireError } from './protocol.ts'
import { DEFAULT_SHA3_CORE } from '../../core/crypto/sha3.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'

export const COMPACT_FORMAT = 0x03
export const SHORT_ID_BYTES = 6
export const SALT_BYTES = 8

/** Header fields read from the 272 bytes (core/chain/header.ts layout). */
export interface CompactHeader {
  version: number
  height: number
  timestamp: number
  previous_hash: string
  merkle_root: string
  /** the compact target (core/chain/target.ts) */
  bits: number
  /** its leading zero hex digits, derived (what every surface shows); NaN when bits is no canonical target */
  difficulty: number
  miner: string
  nonce: number
  /** the block hash, computed here from the header bytes (never taken from the sender) */
  hash: string
  hashBytes: Uint8Array
}

export interface CompactBlock {
  header: CompactHeader
  headerBytes: Uint8Array
  salt: Uint8Array
  /** the envelope, its shape unchecked (checkBlockFormat / envelopeMatches say) */
  quantumSignature: unknown
  /** the prefilled coinbase, its shape unchecked */
  coinbase: unknown
  coinbaseForm: Buffer
  /** short ids of transactions 1..n, in block order, as 48-bit integers */
  shortIds: number[]
}

/** SHA3-256(header ‖ salt): the key every short id of this announcement is taken under. */
export function shortIdKey (headerBytes: Uint8Array, salt: Uint8Array): Buffer {
  return createHash('sha3-256').update(headerBytes).update(salt).digest()
}

// key ‖ transaction id, reused: a receiver hashes every transaction it holds for each
// announcement (thousands at a time), and one WASM call on a filled buffer costs about half of a
// node:crypto hash object
const shortIdInput = Buffer.alloc(64)

/** The first 6 bytes of SHA3-256(key ‖ transaction id bytes), as an integer (48 bits: exact in a double). */
export function shortId (key: Uint8Array, txId: string, sha3: Sha3Core = DEFAULT_SHA3_CORE): number {
  if (key.length !== 32 || txId.length !== 64 || shortIdInput.write(txId, 32, 'hex') !== 32) {
    // not a 32-byte id in hex (never so for a held transaction): hashed as Buffer.from reads it
    return createHash('sha3-256').update(key).update(Buffer.from(txId, 'hex')).digest().readUIntBE(0, SHORT_ID_BYTES)
  }
  shortIdInput.set(key, 0)
  const h = sha3.sha3_256(shortIdInput)
  return Buffer.from(h.buffer, h.byteOffset, SHORT_ID_BYTES).readUIntBE(0, SHORT_ID_BYTES)
}

export function encodeCompact (block: Block, headerBytes: Uint8Array, salt: Uint8Array = randomBytes(SALT_BYTES)): Buffer {
  const key = shortIdKey(headerBytes, salt)
  const envelope = encodeBinaryJson(block.quantum_signature)
  const coinbase = encodeTx(block.transactions[0] as Transaction)
  const rest = block.transactions.slice(1)
  const out = Buffer.alloc(1 + HEADER_BYTES + SALT_BYTES + 4 + envelope.length + 4 + coinbase.length + 4 + rest.length * SHORT_ID_BYTES)
  let at = 0
  out[at++] = COMPACT_FORMAT
  out.set(headerBytes, at); at += HEADER_BYTES
  out.set(salt, at); at += SALT_BYTES
  out.writeUInt32BE(envelope.length, at); at += 4
  out.set(envelope, at); at += envelope.length
  out.writeUInt32BE(coinbase.length, at); at += 4
  out.set(coinbase, at); at += coinbase.length
  out.writeUInt32BE(rest.length, at); at += 4
  for (const tx of rest) { out.writeUIntBE(shortId(key, tx.transaction_id), at, SHORT_ID_BYTES); at += SHORT_ID_BYTES }
  return out
}

/** Parses an announcement and hashes its header (`pow`: the kernel's PoW core); WireError when it is not one. */
export function decodeCompact (bytes: Uint8Array, pow: PowCore, maxTxs: number): CompactBlock {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  const need = (n: number, what: string): void => { if (at + n > buf.length) throw new WireError(`compact block ends inside its ${what}`) }
  need(1 + HEADER_BYTES + SALT_BYTES + 4, 'header')
  if (buf[at++] !== COMPACT_FORMAT) throw new WireError(`not a compact block (format byte ${String(buf[0])})`)
  const headerBytes = new Uint8Array(buf.subarray(at, at + HEADER_BYTES)); at += HEADER_BYTES
  const salt = new Uint8Array(buf.subarray(at, at + SALT_BYTES)); at += SALT_BYTES
  const part = (what: string): Buffer => {
    need(4, what)
    const n = buf.readUInt32BE(at); at += 4
    need(n, what)
    const out = buf.subarray(at, at + n); at += n
    return out
  }
  const envelopeBytes = part('envelope')
  const coinbaseForm = Buffer.from(part('coinbase'))
  need(4, 'short ids')
  const count = buf.readUInt32BE(at); at += 4
  if (count > maxTxs) throw new WireError(`compact block names ${count} transactions, more than ${maxTxs}`)
  if (buf.length - at !== count * SHORT_ID_BYTES) throw new WireError(`compact block has ${buf.length - at} bytes of short ids for ${count} transactions`)
  const shortIds: number[] = []
  for (let i = 0; i < count; i++, at += SHORT_ID_BYTES) shortIds.push(buf.readUIntBE(at, SHORT_ID_BYTES))
  let quantumSignature: unknown
  let coinbase: unknown
  try {
    quantumSignature = decodeBinaryJson(envelopeBytes)
    coinbase = decodeTx(coinbaseForm)
  } catch (err) {
    if (err instanceof BinaryJsonError) throw new WireError(`compact block: ${err.message}`)
    throw err
  }
  return { header: readHeader(headerBytes, pow), headerBytes, salt, quantumSignature, coinbase, coinbaseForm, shortIds }
}

/** The hash of the block an announcement's header names, without parsing the rest (undefined: too short to be one). */
export function announcedBlockHash (bytes: Uint8Array, pow: PowCore): string | undefined {
  if (bytes.length < 1 + HEADER_BYTES || bytes[0] !== COMPACT_FORMAT) return undefined
  const header = bytes.subarray(1, 1 + HEADER_BYTES)
  const nonce = new DataView(header.buffer, header.byteOffset, header.byteLength).getBigUint64(HEADER_PREFIX_BYTES)
  if (nonce > BigInt(Number.MAX_SAFE_INTEGER)) return undefined
  return Buffer.from(pow.hashHeader(header.subarray(0, HEADER_PREFIX_BYTES), Number(nonce))).toString('hex')
}

function readHeader (bytes: Uint8Array, pow: PowCore): CompactHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const height = view.getBigUint64(4)
  const nonce = view.getBigUint64(HEADER_PREFIX_BYTES)
  if (height > BigInt(Number.MAX_SAFE_INTEGER) || nonce > BigInt(Number.MAX_SAFE_INTEGER)) throw new WireError('header height or nonce out of range')
  const bits = view.getUint32(148)
  const hex = (from: number, n: number): string => Buffer.from(bytes.subarray(from, from + n)).toString('hex')
  const hashBytes = pow.hashHeader(bytes.subarray(0, HEADER_PREFIX_BYTES), Number(nonce))
  return {
    version: view.getUint32(0),
    height: Number(height),
    timestamp: view.getFloat64(12),
    previous_hash: hex(20, 64),
    merkle_root: hex(84, 64),
    bits,
    difficulty: bitsProblem(bits) === undefined ? difficultyOfBits(bits) : Number.NaN,
    miner: hex(152, 16),
    nonce: Number(nonce),
    hash: Buffer.from(hashBytes).toString('hex'),
    hashBytes
  }
}

/**
 * True when the envelope is the one the header commits to (its seed and SHA3-512 hash): the
 * header's proof of work then covers the envelope too. Costs one hash of the envelope.
 */
export function envelopeMatches (c: CompactBlock): boolean {
  const qs = c.quantumSignature
  if (qs === null || typeof qs !== 'object' || Array.isArray(qs)) return false
  try {
    const prefix = encodeHeaderPrefix({ ...c.header, quantum_signature: qs as QuantumSignature })
    return Buffer.from(prefix).equals(Buffer.from(c.headerBytes.subarray(0, HEADER_PREFIX_BYTES)))
  } catch {
    return false // an envelope whose seed is no 32-byte hex cannot be the header's
  }
}

/** What the receiver made of the short ids from the transactions it holds. */
export type Reconstruction =
  | { ok: true; txs: Array<Transaction | undefined>; missing: number[] }
  /** two transactions (or two short ids) collide: only the full block settles it */
  | { ok: false; reason: string }

/**
 * Places each candidate whose short id the announcement names; `missing` lists the block
 * indexes (1-based: 0 is the coinbase) still to be asked for.
 */
export function reconstruct (c: CompactBlock, candidates: Iterable<Transaction>, sha3: Sha3Core = DEFAULT_SHA3_CORE): Reconstruction {
  const key = shortIdKey(c.headerBytes, c.salt)
  const slot = new Map<number, number>()
  for (const [i, id] of c.shortIds.entries()) {
    if (slot.has(id)) return { ok: false, reason: 'two transactions of the block share a short id' }
    slot.set(id, i + 1)
  }
  const txs: Array<Transaction | undefined> = new Array(c.shortIds.length + 1)
  txs[0] = c.coinbase as Transaction
  const seen = new Set<string>()
  let placed = 0
  for (const tx of candidates) {
    // every slot filled: the rest cannot be in the block (a wrong placement shows in the merkle root)
    if (placed === c.shortIds.length) break
    if (seen.has(tx.transaction_id)) continue
    seen.add(tx.transaction_id)
    const i = slot.get(shortId(key, tx.transaction_id, sha3))
    if (i === undefined) continue
    if (txs[i] !== undefined) return { ok: false, reason: `two known transactions match short id ${i}` }
    txs[i] = tx
    placed++
  }
  const missing: number[] = []
  for (let i = 1; i < txs.length; i++) if (txs[i] === undefined) missing.push(i)
  return { ok: true, txs, missing }
}

/** Whether a transaction sent for index `i` is the one the short id names. */
export function matchesShortId (c: CompactBlock, i: number, tx: Transaction): boolean {
  return typeof tx.transaction_id === 'string' && /^[0-9a-f]{64}$/.test(tx.transaction_id) &&
    shortId(shortIdKey(c.headerBytes, c.salt), tx.transaction_id) === c.shortIds[i - 1]
}

/** The block the announcement describes, with its transactions filled in. */
export function assemble (c: CompactBlock, txs: readonly Transaction[]): Block {
  const h = c.header
  return {
    version: h.version,
    height: h.height,
    timestamp: h.timestamp,
    previous_hash: h.previous_hash,
    merkle_root: h.merkle_root,
    difficulty: h.difficulty,
    bits: h.bits,
    miner: h.miner,
    nonce: h.nonce,
    hash: h.hash,
    transactions: [...txs],
    quantum_signature: c.quantumSignature as QuantumSignature
  }
}
