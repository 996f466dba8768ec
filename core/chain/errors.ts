// Rejection codes with a domain prefix on one typed base error (Lodestar style). HTTP and
// p2p map them to their own texts in one place each.

export const BlockErrorCode = {
  PARENT_UNKNOWN: 'BLOCK_ERROR_PARENT_UNKNOWN',
  ALREADY_KNOWN: 'BLOCK_ERROR_ALREADY_KNOWN',
  BAD_FORMAT: 'BLOCK_ERROR_BAD_FORMAT',
  BAD_VERSION: 'BLOCK_ERROR_BAD_VERSION',
  BAD_HEIGHT: 'BLOCK_ERROR_BAD_HEIGHT',
  BAD_HASH: 'BLOCK_ERROR_BAD_HASH',
  BAD_POW: 'BLOCK_ERROR_BAD_POW',
  BAD_DIFFICULTY: 'BLOCK_ERROR_BAD_DIFFICULTY',
  BAD_TIMESTAMP: 'BLOCK_ERROR_BAD_TIMESTAMP',
  BAD_MERKLE_ROOT: 'BLOCK_ERROR_BAD_MERKLE_ROOT',
  TOO_MANY_TXS: 'BLOCK_ERROR_TOO_MANY_TXS',
  TOO_LARGE: 'BLOCK_ERROR_TOO_LARGE',
  GAS_LIMIT_EXCEEDED: 'BLOCK_ERROR_GAS_LIMIT_EXCEEDED',
  BAD_COINBASE: 'BLOCK_ERROR_BAD_COINBASE',
  BAD_TX: 'BLOCK_ERROR_BAD_TX',
  DUPLICATE_TX: 'BLOCK_ERROR_DUPLICATE_TX',
  ATTESTATION_MISSING: 'BLOCK_ERROR_ATTESTATION_MISSING',
  ATTESTATION_INSUFFICIENT_ENTROPY: 'BLOCK_ERROR_ATTESTATION_INSUFFICIENT_ENTROPY',
  ATTESTATION_UNREGISTERED_SOURCE: 'BLOCK_ERROR_ATTESTATION_UNREGISTERED_SOURCE',
  ATTESTATION_UNTRUSTED_SOURCE: 'BLOCK_ERROR_ATTESTATION_UNTRUSTED_SOURCE',
  ATTESTATION_BAD_COMMITMENT: 'BLOCK_ERROR_ATTESTATION_BAD_COMMITMENT',
  ATTESTATION_BAD_HEALTH: 'BLOCK_ERROR_ATTESTATION_BAD_HEALTH',
  ATTESTATION_BAD_SIGNATURE: 'BLOCK_ERROR_ATTESTATION_BAD_SIGNATURE',
  ATTESTATION_MISSING_SIGNATURE: 'BLOCK_ERROR_ATTESTATION_MISSING_SIGNATURE',
  ATTESTATION_KEY_MISMATCH: 'BLOCK_ERROR_ATTESTATION_KEY_MISMATCH',
  ATTESTATION_BAD_VERSION: 'BLOCK_ERROR_ATTESTATION_BAD_VERSION',
  ATTESTATION_MALFORMED: 'BLOCK_ERROR_ATTESTATION_MALFORMED',
  ATTESTATION_BEACON_SET: 'BLOCK_ERROR_ATTESTATION_BEACON_SET',
  ATTESTATION_UNVERIFIABLE: 'BLOCK_ERROR_ATTESTATION_UNVERIFIABLE',
  ATTESTATION_UNKNOWN_SCHEME: 'BLOCK_ERROR_ATTESTATION_UNKNOWN_SCHEME',
  ATTESTATION_BEACON_STALE: 'BLOCK_ERROR_ATTESTATION_BEACON_STALE',
  ATTESTATION_BEACON_FUTURE: 'BLOCK_ERROR_ATTESTATION_BEACON_FUTURE',
  ATTESTATION_BEACON_BAD_RANDOMNESS: 'BLOCK_ERROR_ATTESTATION_BEACON_BAD_RANDOMNESS',
  ATTESTATION_BEACON_BAD_SIGNATURE: 'BLOCK_ERROR_ATTESTATION_BEACON_BAD_SIGNATURE',
  ATTESTATION_NOT_DERIVED: 'BLOCK_ERROR_ATTESTATION_NOT_DERIVED',
  ATTESTATION_HEALTH_MISMATCH: 'BLOCK_ERROR_ATTESTATION_HEALTH_MISMATCH',
  REORG_TOO_DEEP: 'BLOCK_ERROR_REORG_TOO_DEEP',
  /** a peer's side block that cannot overtake the tip and no checked header chain vouches for */
  LIGHT_BRANCH: 'BLOCK_ERROR_LIGHT_BRANCH'
} as const
export type BlockErrorCode = typeof BlockErrorCode[keyof typeof BlockErrorCode]

export const TxErrorCode = {
  BAD_FORMAT: 'TX_ERROR_BAD_FORMAT',
  BAD_ID: 'TX_ERROR_BAD_ID',
  BAD_SIGNATURE: 'TX_ERROR_BAD_SIGNATURE',
  UNKNOWN_KEY: 'TX_ERROR_UNKNOWN_KEY',
  KEY_MISMATCH: 'TX_ERROR_KEY_MISMATCH',
  BAD_NONCE: 'TX_ERROR_BAD_NONCE',
  INSUFFICIENT_BALANCE: 'TX_ERROR_INSUFFICIENT_BALANCE',
  FEE_TOO_LOW: 'TX_ERROR_FEE_TOO_LOW',
  INSUFFICIENT_FEE: 'TX_ERROR_INSUFFICIENT_FEE',
  DUPLICATE: 'TX_ERROR_DUPLICATE',
  ALREADY_CONFIRMED: 'TX_ERROR_ALREADY_CONFIRMED',
  MEMPOOL_FULL: 'TX_ERROR_MEMPOOL_FULL',
  SENDER_LIMIT: 'TX_ERROR_SENDER_LIMIT',
  EXPIRED: 'TX_ERROR_EXPIRED',
  FUTURE_TIMESTAMP: 'TX_ERROR_FUTURE_TIMESTAMP',
  RESERVED_SENDER: 'TX_ERROR_RESERVED_SENDER'
} as const
export type TxErrorCode = typeof TxErrorCode[keyof typeof TxErrorCode]

/** Why the mempool refused a transaction, in the terms a peer is judged by. */
export type TxRefusalClass =
  /** no honest node relays it: format, id, signature, key, reserved sender, fee floor, gas cover */
  | 'invalid'
  /** fails against our chain now (balance, expiry, clock, unknown key, a nonce gap from a client): junk, or an honest relay's race (free within a per-peer budget) */
  | 'stale'
  /** our own limits or our own news: full, the sender's cap, a duplicate, just confirmed or a nonce already used (relays cross blocks every block) */
  | 'policy'

const REFUSAL_CLASS: Record<TxErrorCode, TxRefusalClass> = {
  [TxErrorCode.BAD_FORMAT]: 'invalid',
  [TxErrorCode.BAD_ID]: 'invalid',
  [TxErrorCode.BAD_SIGNATURE]: 'invalid',
  [TxErrorCode.KEY_MISMATCH]: 'invalid',
  [TxErrorCode.RESERVED_SENDER]: 'invalid',
  [TxErrorCode.FEE_TOO_LOW]: 'invalid',
  [TxErrorCode.INSUFFICIENT_FEE]: 'invalid',
  [TxErrorCode.UNKNOWN_KEY]: 'stale',
  [TxErrorCode.BAD_NONCE]: 'stale',
  [TxErrorCode.INSUFFICIENT_BALANCE]: 'stale',
  [TxErrorCode.ALREADY_CONFIRMED]: 'policy',
  [TxErrorCode.EXPIRED]: 'stale',
  [TxErrorCode.FUTURE_TIMESTAMP]: 'stale',
  [TxErrorCode.DUPLICATE]: 'policy',
  [TxErrorCode.MEMPOOL_FULL]: 'policy',
  [TxErrorCode.SENDER_LIMIT]: 'policy'
}

/** The class of a mempool refusal: the peer layer scores a gossiped transaction by it (misbehaviour.ts). */
export function txRefusalClass (code: string): TxRefusalClass {
  // a code of none of the protocol's is a policy plugin's (TxPolicyError): the node's own choice
  return (REFUSAL_CLASS as Partial<Record<string, TxRefusalClass>>)[code] ?? 'policy'
}

export class LedgerError<C extends string = string> extends Error {
  readonly code: C
  constructor (code: C, reason: string) {
    super(reason)
    this.name = new.target.name
    this.code = code
  }
}

export class BlockError extends LedgerError<BlockErrorCode> {}
export class TxError extends LedgerError<TxErrorCode> {
  /** the class a peer is judged by when it is not the code's own (a nonce already used is our news, not the sender's fault) */
  readonly refusalClass?: TxRefusalClass
  constructor (code: TxErrorCode, reason: string, refusalClass?: TxRefusalClass) {
    super(code, reason)
    if (refusalClass !== undefined) this.refusalClass = refusalClass
  }
}

/** The class a refused transaction's relay is judged by (misbehaviour.ts). */
export function refusalClassOf (err: TxError): TxRefusalClass {
  return err.refusalClass ?? txRefusalClass(err.code)
}

/** A transaction every rule admits, refused by a policy plugin (the txAdmission hook) with its
 *  own code and reason. Not the sender's fault under the protocol: a peer relaying it is not
 *  penalised (its code is none of the protocol's). */
export class TxPolicyError extends TxError {
  constructor (code: string, reason: string) {
    super(code as TxErrorCode, reason)
  }
}
