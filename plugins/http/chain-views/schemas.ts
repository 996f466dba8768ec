// JSON schemas of the view shapes. Routes use them as fastify response schemas, so a field
// of the wrong type cannot leave the server, and @fastify/swagger publishes them as OpenAPI.
import { TX_KINDS } from '../../../core/views/tx-view.ts'

const str = { type: 'string' } as const
const int = { type: 'integer' } as const
const num = { type: 'number' } as const
const bool = { type: 'boolean' } as const
const nullableStr = { type: ['string', 'null'] } as const
const nullableInt = { type: ['integer', 'null'] } as const
const ts = { type: 'number', description: 'Unix seconds' } as const

export const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: str, phase: str },
  // handlers may add context (the submit endpoint adds status and reason)
  additionalProperties: true
} as const

export const paginationSchema = {
  type: 'object',
  required: ['offset', 'limit', 'total', 'has_more'],
  properties: { offset: int, limit: int, total: int, has_more: bool }
} as const

export const statsSchema = {
  type: 'object',
  required: ['height', 'tip_hash', 'tip_timestamp', 'total_supply', 'max_supply', 'mempool_size', 'difficulty', 'block_time_target', 'testnet', 'network'],
  properties: {
    height: int,
    tip_hash: str,
    tip_timestamp: ts,
    total_supply: num,
    max_supply: int,
    mempool_size: int,
    difficulty: int,
    block_time_target: int,
    testnet: bool,
    network: { type: 'string', enum: ['testnet', 'mainnet', 'devnet'] }
  }
} as const

const blockSummaryProperties = {
  height: int,
  hash: str,
  previous_hash: str,
  timestamp: ts,
  tx_count: int,
  miner: str,
  difficulty: int,
  quantum_verified: bool
} as const
const blockSummaryRequired = Object.keys(blockSummaryProperties)
/** what the attestation proves (core/chain/entropy-evidence.ts); null where the node did not record it */
const entropyEvidenceProperty = {
  entropy_evidence: {
    type: ['string', 'null'],
    enum: ['beacon-verified', 'signed-unverifiable', 'no-evidence', 'genesis', null],
    description: 'what the attestation proves (docs/entropy.md): beacon-verified, signed-unverifiable, no-evidence or genesis; null for a block stored before it was recorded'
  }
} as const

export const blockSummarySchema = { type: 'object', required: blockSummaryRequired, properties: { ...blockSummaryProperties, ...entropyEvidenceProperty } } as const

export const blockPageSchema = {
  type: 'object',
  required: ['blocks', 'pagination'],
  properties: { blocks: { type: 'array', items: blockSummarySchema }, pagination: paginationSchema }
} as const

const decodedTxProperties = {
  tx_id: str,
  sender: str,
  sender_name: nullableStr,
  recipient: str,
  recipient_name: nullableStr,
  amount: num,
  fee: num,
  timestamp: ts,
  kind: { type: 'string', enum: [...TX_KINDS] },
  code_size: { type: 'integer', description: 'deploy only: bytecode size in bytes' },
  to: { type: ['string', 'null'], description: 'call only: 0x-prefixed contract address' },
  selector: { ...nullableInt, description: 'call only: first calldata byte' },
  arg_count: { type: 'integer', description: 'call only: 32-byte argument words' },
  memo: { type: 'string', description: 'message only: the chat text' }
} as const
const decodedTxRequired = ['tx_id', 'sender', 'sender_name', 'recipient', 'recipient_name', 'amount', 'fee', 'timestamp', 'kind']

export const decodedTxSchema = { type: 'object', required: decodedTxRequired, properties: decodedTxProperties } as const

/** One beacon round quoted by an envelope v2 (docs/entropy.md). */
export const beaconEvidenceSchema = {
  type: 'object',
  required: ['source', 'round', 'signature', 'randomness'],
  properties: { source: str, round: int, signature: str, randomness: str, previous_signature: { type: 'string', description: 'chained schemes only' } }
} as const

/** The attestation envelope as hashed into the header: every field, so anyone can re-verify it. */
export const attestationSchema = {
  type: 'object',
  required: ['version', 'entropy_seed', 'entropy_proof', 'commitment', 'source', 'device_id', 'proof_type', 'health', 'beacons', 'local_entropy'],
  properties: {
    version: int,
    entropy_seed: str,
    entropy_proof: str,
    commitment: str,
    source: str,
    device_id: str,
    proof_type: str,
    health: {
      type: 'object',
      required: ['monobit_ratio', 'fano_factor', 'pool_size', 'timestamp'],
      properties: { monobit_ratio: num, fano_factor: num, pool_size: int, timestamp: ts }
    },
    beacons: { type: 'array', items: beaconEvidenceSchema },
    local_entropy: str,
    signature: str,
    public_key: str
  }
} as const

export const blockDetailSchema = {
  type: 'object',
  required: [...blockSummaryRequired, 'merkle_root', 'nonce', 'bits', 'target', 'qrng_attestation_present', 'quantum_signature', 'entropy_verifiable', 'beacon_rounds', 'transactions'],
  properties: {
    ...blockSummaryProperties,
    ...entropyEvidenceProperty,
    merkle_root: str,
    nonce: int,
    bits: { type: 'integer', description: 'the compact proof-of-work target (E << 24 | M: target = M × 256^(E − 3))' },
    target: { type: 'string', description: 'the target as 128 hex digits; the block hash is at most it' },
    qrng_attestation_present: bool,
    qrng_source: nullableStr,
    quantum_signature: {
      type: ['object', 'null'],
      required: ['qrng_attestation'],
      properties: { qrng_attestation: attestationSchema },
      description: 'the attestation envelope; null for genesis'
    },
    entropy_verifiable: { type: 'boolean', description: 'at least one beacon round backs the block\'s entropy' },
    beacon_rounds: { type: 'array', items: { type: 'object', required: ['source', 'round'], properties: { source: str, round: int } } },
    transactions: { type: 'array', items: decodedTxSchema }
  }
} as const

export const txReceiptSummarySchema = {
  type: 'object',
  required: ['type', 'success', 'gas_used', 'contract_address', 'return_data', 'revert_reason'],
  properties: {
    type: { type: 'string', enum: ['deploy', 'call'] },
    success: bool,
    gas_used: int,
    contract_address: nullableStr,
    return_data: nullableStr,
    revert_reason: nullableStr
  }
} as const

const txLookupProperties = {
  ...decodedTxProperties,
  block_height: { type: 'integer', description: 'confirmed only' },
  block_hash: { type: 'string', description: 'confirmed only' },
  status: { type: 'string', enum: ['confirmed', 'pending'] },
  confirmations: int,
  receipt: txReceiptSummarySchema
} as const

export const txLookupSchema = {
  type: 'object',
  required: [...decodedTxRequired, 'status', 'confirmations'],
  properties: txLookupProperties
} as const

export const rawTxLookupSchema = {
  type: 'object',
  required: [...decodedTxRequired, 'status', 'confirmations', 'data', 'nonce', 'signature'],
  properties: {
    ...txLookupProperties,
    data: { type: 'object', additionalProperties: true, description: 'the raw data field: memo, or type/code/calldata/to/gas_limit, public_key' },
    nonce: int,
    signature: str
  }
} as const

export const addressDetailSchema = {
  type: 'object',
  required: ['address', 'wallet_address', 'name', 'balance', 'tx_count', 'is_foundation', 'transactions', 'pagination'],
  properties: {
    address: { type: 'string', description: '40-hex canonical (VM) form' },
    wallet_address: { ...nullableStr, description: '32-hex chain-layer form when known' },
    name: nullableStr,
    balance: num,
    tx_count: int,
    is_foundation: bool,
    transactions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tx_id', 'block_height', 'direction', 'sender', 'recipient', 'amount', 'fee', 'timestamp', 'kind'],
        properties: {
          tx_id: str,
          block_height: int,
          direction: { type: 'string', enum: ['in', 'out'] },
          sender: str,
          sender_name: nullableStr,
          recipient: str,
          recipient_name: nullableStr,
          amount: num,
          fee: num,
          timestamp: ts,
          kind: { type: 'string', enum: [...TX_KINDS] }
        }
      }
    },
    pagination: paginationSchema
  }
} as const

export const receiptSchema = {
  type: 'object',
  required: ['tx_id', 'block_height', 'type', 'success', 'gas_used', 'logs', 'error'],
  properties: {
    tx_id: str,
    block_height: int,
    type: { type: 'string', enum: ['deploy', 'call'] },
    contract: { type: 'string', description: 'deploy only: 40 hex' },
    to: { type: 'string', description: 'call only: 40 hex' },
    success: bool,
    gas_used: int,
    return_data: { type: 'string', description: 'call only: hex, empty when nothing returned' },
    logs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['address', 'topics', 'data'],
        properties: { address: str, topics: { type: 'array', items: str }, data: str }
      }
    },
    error: nullableStr,
    revert_reason: nullableStr
  }
} as const

export const receiptListSchema = { type: 'array', items: receiptSchema } as const
