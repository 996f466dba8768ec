// Transaction signing (DESIGN 3): payload = RFC 8785 canonical JSON of
// {chain_id, sender, recipient, amount, fee, timestamp, nonce, data};
// transaction_id = hex SHA3-256(payload); signature = ML-DSA-87 over those 32 digest bytes.
import canonicalize from 'canonicalize'
import { DEFAULT_SHA3_CORE, sha3_256 } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import { DEFAULT_MLDSA_CORE } from '../crypto/mldsa.ts'
import type { MldsaCore } from '../crypto/mldsa.ts'
import type { Transaction, TxData } from './types.ts'

export interface UnsignedTx {
  sender: string
  recipient: string
  amount: number
  fee: number
  timestamp: number
  nonce: number
  data: TxData
}

export function canonicalJson (value: unknown): string {
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError('value cannot be canonicalized')
  return text
}

export function signingPayload (chainId: string, tx: UnsignedTx): string {
  return canonicalJson({
    chain_id: chainId,
    sender: tx.sender,
    recipient: tx.recipient,
    amount: tx.amount,
    fee: tx.fee,
    timestamp: tx.timestamp,
    nonce: tx.nonce,
    data: tx.data
  })
}

export function txDigest (chainId: string, tx: UnsignedTx, sha3: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array {
  return sha3_256(signingPayload(chainId, tx), sha3)
}

export function txId (chainId: string, tx: UnsignedTx, sha3: Sha3Core = DEFAULT_SHA3_CORE): string {
  return Buffer.from(txDigest(chainId, tx, sha3)).toString('hex')
}

/** Wallet-side: `cores` defaults to the WASM SHA3 and native ML-DSA cores. */
export function signTransaction (chainId: string, tx: UnsignedTx, seed: Uint8Array,
  cores: { sha3: Sha3Core; mldsa: MldsaCore } = { sha3: DEFAULT_SHA3_CORE, mldsa: DEFAULT_MLDSA_CORE }): Transaction {
  const digest = txDigest(chainId, tx, cores.sha3)
  return {
    sender: tx.sender,
    recipient: tx.recipient,
    amount: tx.amount,
    timestamp: tx.timestamp,
    transaction_id: Buffer.from(digest).toString('hex'),
    signature: Buffer.from(cores.mldsa.sign(seed, digest)).toString('hex'),
    fee: tx.fee,
    data: tx.data,
    nonce: tx.nonce
  }
}

/** Unsigned system transaction (coinbase, genesis): id computed the same way, no signature. */
export function systemTransaction (chainId: string, tx: UnsignedTx, sha3: Sha3Core = DEFAULT_SHA3_CORE): Transaction {
  return { ...tx, transaction_id: txId(chainId, tx, sha3), signature: '' }
}

/** even-length lower-case hex; a native round trip, much faster than a regex on a 9 KB signature */
export function isLowerHex (s: unknown): s is string {
  return typeof s === 'string' && s.length % 2 === 0 && Buffer.from(s, 'hex').toString('hex') === s
}

export function verifyTxSignature (tx: Transaction, publicKey: Uint8Array, mldsa: MldsaCore = DEFAULT_MLDSA_CORE): boolean {
  if (!isLowerHex(tx.signature)) return false
  return mldsa.verify(publicKey, Buffer.from(tx.transaction_id, 'hex'), Buffer.from(tx.signature, 'hex'))
}
