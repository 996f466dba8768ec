// The one measure of how big a transaction and a block are, for the consensus byte limits
// (maxTxBytes, maxBlockBytes): the length in bytes of the RFC 8785 canonical JSON. That form
// is deterministic and independent of key order and whitespace; since objects carry only
// schema keys, it is also exactly the length of the JSON that gossip and sync carry. A binary
// encoding for storage or the wire may replace the form measured here; it changes only in
// this file.
//
// The length is computed with JSON.stringify, not by canonicalizing: RFC 8785 serializes
// strings and numbers exactly as JSON.stringify does and adds no whitespace, so for values
// decoded from JSON only the key order differs, which does not change the length (the
// property test in test/core/chain/block-size.test.ts holds it to canonicalJson). It is ~25x
// faster on a 270 KB transaction, and validation measures every transaction of every block.
import type { Block, Transaction } from './types.ts'

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value))

/** serialized bytes of one transaction */
export function txSize (tx: Transaction): number {
  return jsonBytes(tx)
}

/** serialized bytes of the block with an empty transaction list */
export function blockOverheadSize (block: Omit<Block, 'transactions'>): number {
  return jsonBytes({ ...block, transactions: [] })
}

/** the comma between two transactions of a block's list */
export const TX_SEPARATOR_BYTES = 1

/** serialized bytes of `count` transactions of `txBytes` in total, inside a block's list */
export function txListSize (txBytes: number, count: number): number {
  return txBytes + Math.max(0, count - 1) * TX_SEPARATOR_BYTES
}

/** serialized bytes of a whole block */
export function blockSize (block: Block): number {
  let txBytes = 0
  for (const tx of block.transactions) txBytes += txSize(tx)
  return blockOverheadSize(block) + txListSize(txBytes, block.transactions.length)
}
