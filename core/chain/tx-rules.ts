// Transaction rules shared by mempool admission and block validation, so a transaction the
// mempool admits is exactly one a block may carry.
import type { NetworkParams } from './params.ts'
import type { Transaction } from './types.ts'
import { CONTRACT_RECIPIENT, GENESIS_SENDER, MINING_REWARD_SENDER } from './types.ts'
import { TxError, TxErrorCode } from './errors.ts'
import { coinToBohm, GAS_PRICE_BOHM, AmountError } from './money.ts'
import { isLowerHex, txId, verifyTxSignature } from './tx.ts'
import { BinaryJsonError } from './tx-codec.ts'
import { HEX_TAG, memberTag } from './binary-json.ts'
import { walletAddressFromPublicKey, WALLET_ADDRESS_RE, VM_ADDRESS_RE } from './address.ts'
import type { AccountState } from './state.ts'
import { TX_DATA_KEYS, TX_KEYS, unknownKey, unknownKeyMessage } from './shape.ts'
import { txSize } from './block-size.ts'
import { PUBLIC_KEY_BYTES, SIGNATURE_BYTES } from '../crypto/mldsa.ts'
import type { MldsaCore } from '../crypto/mldsa.ts'
import { DEFAULT_SHA3_CORE } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'

export const MAX_MEMO_CHARS = 512
export const MAX_DATA_BYTES = 256 * 1024
/** the most gas one transaction may reserve; a network whose blockGasLimit is lower caps it there */
export const MAX_GAS_LIMIT = 10_000_000
const HEX_RE = /^[0-9a-f]*$/
// signatures are 9 KB of hex: the native round trip for even lengths, the regex for the rest
const isHexText = (s: string): boolean => s.length % 2 === 0 ? isLowerHex(s) : HEX_RE.test(s)

const bad = (reason: string): never => { throw new TxError(TxErrorCode.BAD_FORMAT, reason) }

export interface TxAmounts { amount: bigint; fee: bigint; gasLimit: number | null }

/** the largest gas_limit one transaction may carry on this network */
export function txGasCap (params: NetworkParams): number {
  return Math.min(MAX_GAS_LIMIT, params.blockGasLimit)
}

/** gas a transaction reserves in its block: its gas_limit if it is a contract transaction, else 0 */
export function declaredGas (tx: Transaction): number {
  if (tx.recipient !== CONTRACT_RECIPIENT) return 0
  const g = tx.data?.gas_limit
  return Number.isSafeInteger(g) && (g as number) > 0 ? g as number : 0
}

/** `data` as JSON text for its size check; nesting too deep to serialise (a 200,000-deep value
 *  under a known key, issue 31) is a malformed transaction, not a crash */
function dataText (data: object): string {
  try {
    return JSON.stringify(data)
  } catch (err) {
    if (err instanceof RangeError) bad('data nests too deep')
    throw err
  }
}

/** Stateless checks: shape, id, fee floor, contract gas cover. Returns exact bohm amounts. */
/** `sha3`: the core the transaction id is recomputed with (a kernel passes its own). */
/**
 * `encoded`: its binary form (tx-codec.ts) when the caller has already made it (a block's merkle
 * check): its size, and whether the signature was written as hex text, are read from it.
 */
export function checkTxFormat (params: NetworkParams, tx: Transaction, sha3: Sha3Core = DEFAULT_SHA3_CORE, encoded?: Uint8Array): TxAmounts {
  if (tx === null || typeof tx !== 'object' || Array.isArray(tx)) bad('transaction must be an object')
  const extra = unknownKey(tx, TX_KEYS)
  if (extra !== undefined) bad(unknownKeyMessage('transaction', extra))
  if (typeof tx.sender !== 'string' || typeof tx.recipient !== 'string') bad('sender and recipient must be strings')
  if (tx.sender === MINING_REWARD_SENDER || tx.sender === GENESIS_SENDER) throw new TxError(TxErrorCode.RESERVED_SENDER, `sender '${tx.sender}' is reserved for system transactions`)
  if (!WALLET_ADDRESS_RE.test(tx.sender)) bad('sender must be a 32-hex wallet address')
  if (tx.recipient !== CONTRACT_RECIPIENT && !WALLET_ADDRESS_RE.test(tx.recipient) && !VM_ADDRESS_RE.test(tx.recipient)) bad('recipient must be a 32-hex or 40-hex address or "contract"')
  if (typeof tx.timestamp !== 'number' || !Number.isFinite(tx.timestamp) || tx.timestamp <= 0) bad('timestamp must be a positive number')
  if (!Number.isSafeInteger(tx.nonce) || tx.nonce < 0) bad('nonce must be a non-negative integer')
  if (typeof tx.transaction_id !== 'string' || !/^[0-9a-f]{64}$/.test(tx.transaction_id)) bad('transaction_id must be 64 hex chars')
  // the encoder wrote the signature as hex text (tag 06) exactly when it is non-empty, even-length lower-case hex
  const sigIsHex = (s: string): boolean => (encoded !== undefined && memberTag(encoded, 1, 'signature') === HEX_TAG) || isHexText(s)
  if (typeof tx.signature !== 'string' || !sigIsHex(tx.signature) || tx.signature.length === 0) bad('signature must be hex')
  if (tx.data === null || typeof tx.data !== 'object' || Array.isArray(tx.data)) bad('data must be an object')
  const extraData = unknownKey(tx.data, TX_DATA_KEYS)
  if (extraData !== undefined) bad(unknownKeyMessage('data', extraData))
  if (Buffer.byteLength(dataText(tx.data)) > MAX_DATA_BYTES) bad(`data larger than ${MAX_DATA_BYTES} bytes`)
  if (tx.signature.length !== 2 * SIGNATURE_BYTES) bad(`signature must be ${2 * SIGNATURE_BYTES} hex chars (ML-DSA-87)`)
  let size = 0
  try {
    size = encoded?.length ?? txSize(tx) // its binary form: merkle leaf, stored form and wire (docs/chain.md, "Binary encoding")
  } catch (err) {
    if (err instanceof BinaryJsonError) bad(`transaction has no binary form: ${err.message}`)
    throw err
  }
  if (size > params.maxTxBytes) bad(`transaction is ${size} bytes, more than the ${params.maxTxBytes}-byte limit`)
  let amount: bigint
  let fee: bigint
  try {
    amount = coinToBohm(tx.amount)
    fee = coinToBohm(tx.fee)
  } catch (err) {
    if (err instanceof AmountError) bad(`amount and fee: ${err.message}`)
    throw err
  }
  const d = tx.data
  if (d.memo !== undefined && (typeof d.memo !== 'string' || d.memo.length === 0 || d.memo.length > MAX_MEMO_CHARS)) bad(`data.memo must be 1-${MAX_MEMO_CHARS} chars`)
  if (d.public_key !== undefined && (typeof d.public_key !== 'string' || !isHexText(d.public_key))) bad('data.public_key must be hex')
  if (d.public_key !== undefined && d.public_key.length !== 2 * PUBLIC_KEY_BYTES) bad(`data.public_key must be ${2 * PUBLIC_KEY_BYTES} hex chars (ML-DSA-87)`)

  let gasLimit: number | null = null
  if (tx.recipient === CONTRACT_RECIPIENT) {
    if (d.type !== 'deploy' && d.type !== 'call') bad('a contract transaction needs data.type "deploy" or "call"')
    const maxGas = txGasCap(params)
    if (!Number.isSafeInteger(d.gas_limit) || (d.gas_limit as number) <= 0 || (d.gas_limit as number) > maxGas) bad(`data.gas_limit must be an integer 1..${maxGas}`)
    gasLimit = d.gas_limit as number
    if (d.type === 'deploy' && (typeof d.code !== 'string' || !isHexText(d.code) || d.code.length % 2 !== 0)) bad('data.code must be hex bytecode')
    if (d.type === 'call' && (typeof d.to !== 'string' || !VM_ADDRESS_RE.test(d.to.replace(/^0x/, '')))) bad('data.to must be a 40-hex contract address')
    if (d.calldata !== undefined && (typeof d.calldata !== 'string' || !HEX_RE.test(d.calldata) || d.calldata.length % 2 !== 0)) bad('data.calldata must be hex')
  }

  if (txId(params.chainId, tx, sha3) !== tx.transaction_id) throw new TxError(TxErrorCode.BAD_ID, 'transaction_id does not match the signed payload')
  if (fee < coinToBohm(params.minFeeCoin)) throw new TxError(TxErrorCode.FEE_TOO_LOW, `fee below the minimum of ${params.minFeeCoin}`)
  if (gasLimit !== null && fee < BigInt(gasLimit) * GAS_PRICE_BOHM) {
    throw new TxError(TxErrorCode.INSUFFICIENT_FEE, `InsufficientFee: fee does not cover gas_limit x GAS_PRICE (${gasLimit} gas)`)
  }
  return { amount, fee, gasLimit }
}

/** the chain's record of a sender's key: hex (AccountState) or its bytes (StateOverlay.getPublicKey) */
export interface KnownKey { publicKey: AccountState['publicKey'] | Uint8Array }

/** The public key that must verify this transaction: the chain's record, else the one it carries. */
export function senderPublicKey (tx: Transaction, account: KnownKey, sha3: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array {
  if (account.publicKey !== null) return typeof account.publicKey === 'string' ? Buffer.from(account.publicKey, 'hex') : account.publicKey
  const carried = tx.data.public_key
  if (typeof carried !== 'string') throw new TxError(TxErrorCode.UNKNOWN_KEY, 'sender public key unknown to the chain: include data.public_key')
  const key = Buffer.from(carried, 'hex')
  if (walletAddressFromPublicKey(key, sha3) !== tx.sender) throw new TxError(TxErrorCode.KEY_MISMATCH, 'data.public_key does not hash to the sender address')
  return key
}

/** `cores`: the kernel's SHA3 and ML-DSA cores (default: WASM SHA3, native ML-DSA). */
export function checkTxSignature (tx: Transaction, account: KnownKey, cores?: { sha3: Sha3Core; mldsa: MldsaCore }): Uint8Array {
  const key = senderPublicKey(tx, account, cores?.sha3)
  if (!verifyTxSignature(tx, key, cores?.mldsa)) throw new TxError(TxErrorCode.BAD_SIGNATURE, 'ML-DSA-87 signature does not verify')
  return key
}
