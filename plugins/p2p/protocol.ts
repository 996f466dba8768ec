// Wire vocabulary of the peer-to-peer layer: protocol ids and gossip topics (namespaced by the
// network magic, so testnet, mainnet and devnet nodes never speak to each other), the shapes
// of request/response messages, and the checks that turn untrusted JSON into those shapes.
import type { NetworkParams } from '../../core/chain/params.ts'
import { decodeBlock, decodeBlockEnvelope, decodeTx, BinaryJsonError } from '../../core/chain/tx-codec.ts'
import type { BeaconEvidenceView } from '../../core/chain/attestation.ts'

export type Method = 'status' | 'headers' | 'blocks' | 'blocktxn' | 'txinv' | 'gettx'

// blocks/2 and the /2 topics carry the binary forms of core/chain/tx-codec.ts (JSON before);
// blocktxn, txinv and gettx came with compact blocks and transaction announcements (p2p v2)
const METHOD_VERSION: Record<Method, number> = { status: 1, headers: 1, blocks: 2, blocktxn: 1, txinv: 1, gettx: 1 }

export function protocolId (params: NetworkParams, method: Method): string {
  return `/ledger/${params.magic}/${method}/${METHOD_VERSION[method]}`
}

/**
 * `compact`: how blocks are announced (compact.ts). `blocks` and `txs` carry whole blocks and
 * transactions: still validated and relayed when a peer publishes there, no longer published
 * by this node (transactions go by txinv/gettx, blocks by compact announcements).
 */
export interface Topics { blocks: string; txs: string; compact: string }

export function topics (params: NetworkParams): Topics {
  return { blocks: `/ledger/${params.magic}/blocks/2`, txs: `/ledger/${params.magic}/txs/2`, compact: `/ledger/${params.magic}/cmpctblock/1` }
}

/** What each side tells the other when they meet and on every status poll. */
export interface StatusMessage {
  chain_id: string
  genesis_hash: string
  best_height: number
  best_hash: string
  /** cumulative work of the best chain, decimal string (BigInt) */
  best_work: string
  /** nodeVersion(params), e.g. "1-testnet" */
  version: string
}

export interface HeadersRequest {
  /** main-chain hashes of the requester, newest first, dense then exponentially sparse */
  locator: string[]
  max: number
}

/** hex of the 272-byte header encodings, oldest first */
export interface HeadersResponse { headers: string[] }

export interface BlocksRequest { hashes: string[] }

/** the transactions of a compact block at these indexes (1-based; 0 is the prefilled coinbase) */
export interface BlockTxnRequest { hash: string; indexes: number[] }

/** transaction bodies by id (after their announcement) */
export interface GetTxRequest { ids: string[] }

/** A transaction announcement: ids with the size of their binary form (eth/68 style). */
export interface TxInv { ids: string[]; sizes: number[] }

/** Limits a peer must respect; a request beyond them is misbehaviour. */
export const LIMITS = {
  maxHeadersPerResponse: 2000,
  maxBlocksPerRequest: 128,
  maxLocatorLength: 64,
  /** one frame: a status, a headers batch (2000 × 544 hex chars) or one block */
  maxFrameBytes: 8 * 1024 * 1024,
  /** gossip payloads: one block or one transaction */
  maxGossipBytes: 4 * 1024 * 1024,
  /**
   * a blocks response stops once it holds this many bytes (the block that crosses the line is
   * the last): at most this plus one frame per request, whatever the request names
   */
  maxBlocksResponseBytes: 8 * 1024 * 1024,
  /** ids in one txinv announcement */
  maxInvIds: 1000,
  /** ids in one gettx request */
  maxGetTxIds: 256,
  /** indexes in one blocktxn request (a block's transactions at most) */
  maxBlockTxnIndexes: 10_000
} as const

export class WireError extends Error { override name = 'WireError' }

const HASH_RE = /^[0-9a-f]{128}$/
const isHash = (v: unknown): v is string => typeof v === 'string' && HASH_RE.test(v)
/** a transaction id: hex SHA3-256 */
const isTxId = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

export function parseStatus (v: unknown): StatusMessage {
  if (!isObject(v)) throw new WireError('status must be an object')
  const { chain_id: chainId, genesis_hash: genesis, best_height: height, best_hash: hash, best_work: work, version } = v
  if (typeof chainId !== 'string' || chainId.length > 64) throw new WireError('status.chain_id must be a short string')
  if (!isHash(genesis) || !isHash(hash)) throw new WireError('status hashes must be 128 hex chars')
  if (!Number.isSafeInteger(height) || (height as number) < 0) throw new WireError('status.best_height must be a non-negative integer')
  if (typeof work !== 'string' || !/^[0-9]{1,80}$/.test(work)) throw new WireError('status.best_work must be a decimal string')
  if (typeof version !== 'string' || version.length > 64) throw new WireError('status.version must be a short string')
  return { chain_id: chainId, genesis_hash: genesis, best_height: height as number, best_hash: hash, best_work: work, version }
}

export function parseHeadersRequest (v: unknown): HeadersRequest {
  if (!isObject(v) || !Array.isArray(v.locator) || !v.locator.every(isHash)) throw new WireError('headers request needs a locator of block hashes')
  if (v.locator.length > LIMITS.maxLocatorLength) throw new WireError(`locator longer than ${LIMITS.maxLocatorLength}`)
  if (!Number.isSafeInteger(v.max) || (v.max as number) < 1) throw new WireError('headers request needs max >= 1')
  return { locator: v.locator as string[], max: Math.min(v.max as number, LIMITS.maxHeadersPerResponse) }
}

export function parseHeadersResponse (v: unknown): HeadersResponse {
  if (!isObject(v) || !Array.isArray(v.headers)) throw new WireError('headers response needs a headers array')
  if (v.headers.length > LIMITS.maxHeadersPerResponse) throw new WireError(`more than ${LIMITS.maxHeadersPerResponse} headers`)
  if (!v.headers.every((h) => typeof h === 'string')) throw new WireError('headers must be hex strings')
  return { headers: v.headers as string[] }
}

export function parseBlocksRequest (v: unknown): BlocksRequest {
  if (!isObject(v) || !Array.isArray(v.hashes) || !v.hashes.every(isHash)) throw new WireError('blocks request needs hashes')
  if (v.hashes.length === 0 || v.hashes.length > LIMITS.maxBlocksPerRequest) throw new WireError(`blocks request must name 1-${LIMITS.maxBlocksPerRequest} hashes`)
  return { hashes: v.hashes as string[] }
}

export function parseBlockTxnRequest (v: unknown): BlockTxnRequest {
  if (!isObject(v) || !isHash(v.hash) || !Array.isArray(v.indexes)) throw new WireError('blocktxn request needs a hash and indexes')
  const idx = v.indexes
  if (idx.length === 0 || idx.length > LIMITS.maxBlockTxnIndexes) throw new WireError(`blocktxn request must name 1-${LIMITS.maxBlockTxnIndexes} indexes`)
  for (let i = 0; i < idx.length; i++) {
    const n = idx[i] as unknown
    if (!Number.isSafeInteger(n) || (n as number) < 1 || (i > 0 && (n as number) <= (idx[i - 1] as number))) throw new WireError('blocktxn indexes must be increasing positive integers')
  }
  return { hash: v.hash, indexes: idx as number[] }
}

export function parseGetTxRequest (v: unknown): GetTxRequest {
  if (!isObject(v) || !Array.isArray(v.ids) || !v.ids.every(isTxId)) throw new WireError('gettx request needs transaction ids')
  if (v.ids.length === 0 || v.ids.length > LIMITS.maxGetTxIds) throw new WireError(`gettx request must name 1-${LIMITS.maxGetTxIds} ids`)
  return { ids: v.ids as string[] }
}

export function parseTxInv (v: unknown, maxTxBytes: number): TxInv {
  if (!isObject(v) || !Array.isArray(v.ids) || !Array.isArray(v.sizes) || !v.ids.every(isTxId)) throw new WireError('txinv needs ids and sizes')
  if (v.ids.length === 0 || v.ids.length > LIMITS.maxInvIds) throw new WireError(`txinv must name 1-${LIMITS.maxInvIds} ids`)
  if (v.sizes.length !== v.ids.length || !v.sizes.every((n) => Number.isSafeInteger(n) && (n as number) > 0 && (n as number) <= maxTxBytes)) {
    throw new WireError(`txinv needs one size (1-${maxTxBytes} bytes) per id`)
  }
  return { ids: v.ids as string[], sizes: v.sizes as number[] }
}

export function decodeJson (bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'))
  } catch {
    throw new WireError('frame is not valid JSON')
  }
}

/** `decode`'s result, its BinaryJsonError a WireError naming the frame (`what`) */
function wireDecoded<T> (what: string, decode: () => T): T {
  try {
    return decode()
  } catch (err) {
    if (err instanceof BinaryJsonError) throw new WireError(`${what} frame: ${err.message}`)
    throw err
  }
}

/** A block in its binary form (tx-codec.ts); its shape is for checkBlockFormat. */
export function decodeBlockFrame (bytes: Uint8Array): unknown {
  return wireDecoded('block', () => decodeBlock(bytes))
}

/**
 * A block frame checked as decodeBlockFrame checks it, with only its envelope decoded
 * (tx-codec.ts decodeBlockEnvelope): decodeBlockFrame of the same bytes cannot fail after it.
 */
export function checkBlockFrame (bytes: Uint8Array): BeaconEvidenceView {
  return wireDecoded('block', () => decodeBlockEnvelope(bytes))
}

/** A transaction in its binary form (tx-codec.ts); its shape is for the mempool's checks. */
export function decodeTxFrame (bytes: Uint8Array): unknown {
  return wireDecoded('transaction', () => decodeTx(bytes))
}

export function encodeJson (value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value), 'utf8')
}
