// The one measure of how big a transaction and a block are, for the consensus byte limits
// (maxTxBytes, maxBlockBytes). It is the length of the RFC 8785 canonical JSON: deterministic,
// independent of key order and whitespace, and, since only schema keys are accepted, exactly
// the length of the JSON that gossip and sync carry. A binary encoding for storage or the wire
// may replace the form measured here; it changes only in this file.
import type { Block, Transaction } from './types.ts'
import { canonicalJson } from './tx.ts'

/** serialized bytes of one transaction */
export function txSize (tx: Transaction): number {
  return Buffer.byteLength(canonicalJson(tx))
}

/** serialized bytes of the block with an empty transaction list */
export function blockOverheadSize (block: Omit<Block, 'transactions'>): number {
  return Buffer.byteLength(canonicalJson({ ...block, transactions: [] }))
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
