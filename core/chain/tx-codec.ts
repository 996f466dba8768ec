// The binary forms of transactions and blocks (docs/chain.md, "Binary encoding"): a format
// byte, then the canonical binary JSON of the object (binary-json.ts). A transaction's form is
// its merkle leaf preimage and its stored value; a block's form is what peers send each other.
// The transaction id and the signed payload are NOT these bytes: they stay RFC 8785 JSON
// (tx.ts), as wallets sign.
import { arrayItemSpans, decodeBinaryJson, decodeBinaryJsonMember, encodeBinaryJson, EncodedValue, BinaryJsonError } from './binary-json.ts'
import type { Block, Transaction } from './types.ts'
import type { BeaconEvidenceView } from './attestation.ts'

export const TX_FORMAT = 0x01
export const BLOCK_FORMAT = 0x02

export { BinaryJsonError }

function checkFormat (bytes: Uint8Array, format: number, what: string): void {
  if (bytes.length === 0 || bytes[0] !== format) throw new BinaryJsonError(`not a ${what} (format byte ${bytes[0] ?? 'missing'}, expected ${format})`)
}

export function encodeTx (tx: Transaction): Buffer { return encodeBinaryJson(tx, TX_FORMAT) }

/** The transaction as decoded; its shape is for the chain's format checks. */
export function decodeTx (bytes: Uint8Array): unknown {
  checkFormat(bytes, TX_FORMAT, 'transaction')
  return decodeBinaryJson(bytes, 1)
}

export function encodeBlock (block: Block): Buffer { return encodeBinaryJson(block, BLOCK_FORMAT) }

/** The block as decoded; its shape is for checkBlockFormat. */
export function decodeBlock (bytes: Uint8Array): unknown {
  checkFormat(bytes, BLOCK_FORMAT, 'block')
  return decodeBinaryJson(bytes, 1)
}

/**
 * A block's binary form checked exactly as decodeBlock checks it (it throws where decodeBlock
 * throws), and only its envelope (`quantum_signature`) decoded: what a batch of a peer's blocks
 * needs before each is decoded in turn (its beacon rounds), without the transactions' 7 KB each
 * of signature and key made into strings that all live until their block connects.
 */
export function decodeBlockEnvelope (bytes: Uint8Array): BeaconEvidenceView {
  checkFormat(bytes, BLOCK_FORMAT, 'block')
  const envelope = decodeBinaryJsonMember(bytes, 1, 'quantum_signature')
  return envelope === undefined ? {} : { quantum_signature: envelope }
}

/**
 * The binary forms of the transactions of a block's binary form that decodeBlock has accepted,
 * cut from its bytes: what encodeTx gives for each decoded transaction (the decoding is
 * canonical, so a value re-encodes to the bytes it came from), without encoding its 7 KB of
 * signature and key again. Undefined when the block has no array of transactions
 * (checkBlockFormat says why).
 */
export function txFormsOfDecodedBlock (bytes: Uint8Array): Buffer[] | undefined {
  return arrayItemSpans(bytes, 1, 'transactions')?.map(([start, end]) => {
    const form = Buffer.allocUnsafe(1 + end - start)
    form[0] = TX_FORMAT
    form.set(bytes.subarray(start, end), 1)
    return form
  })
}

/**
 * A block's binary form from its stored head and its transactions' stored bytes, without
 * decoding the transactions: the same bytes encodeBlock gives for the assembled block.
 */
export function encodeBlockFromStored (head: Omit<Block, 'transactions'>, storedTxs: readonly Uint8Array[]): Buffer {
  const transactions = storedTxs.map((raw) => {
    checkFormat(raw, TX_FORMAT, 'stored transaction')
    return new EncodedValue(raw.subarray(1))
  })
  return encodeBinaryJson({ ...head, transactions }, BLOCK_FORMAT)
}
