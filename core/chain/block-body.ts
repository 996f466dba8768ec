// How a block body is stored: the block without its transactions (plus their count) under
// `b:<hash>` as JSON, and each transaction under its own key `bx:<hash>:<index>` in its binary
// form (tx-codec.ts: the very bytes its merkle leaf hashes), all in the block's batch. A lookup
// by transaction id (the `tx:` index gives block and index) then reads ~5 KB instead of a
// ~100 KB block of 20 ML-DSA-87 transactions; a whole block is one multi-get of its head and
// first transaction (every block has a coinbase) plus, when it has more, one of the rest; a
// peer is served the stored bytes as they are (encodeBlockFromStored).
import type { KvOp } from '../kernel/kv.ts'
import { jsonValue } from '../kernel/kv.ts'
import { chainKey } from './keys.ts'
import type { Block, Transaction } from './types.ts'
import { decodeTx, encodeTx } from './tx-codec.ts'

export type StoredBlockHead = Omit<Block, 'transactions'> & { tx_count: number }

/** `encoded`: the transactions' binary forms when the caller already has them (merkle check). */
export function blockBodyOps (block: Block, encoded?: readonly Uint8Array[]): KvOp[] {
  const { transactions, ...head } = block
  const ops: KvOp[] = [{ type: 'put', key: chainKey.block(block.hash), value: jsonValue({ ...head, tx_count: transactions.length }) }]
  transactions.forEach((tx, i) => { ops.push({ type: 'put', key: chainKey.blockTx(block.hash, i), value: encoded?.[i] ?? encodeTx(tx) }) })
  return ops
}

/** keys of the transactions of a stored head, in block order (from index `from`) */
export function blockTxKeys (hash: string, head: StoredBlockHead, from = 0): string[] {
  return Array.from({ length: Math.max(0, head.tx_count - from) }, (_, i) => chainKey.blockTx(hash, from + i))
}

/** A stored transaction; our own bytes, written after the block validated. */
export function storedTx (raw: Uint8Array | undefined): Transaction | undefined {
  return raw === undefined ? undefined : decodeTx(raw) as Transaction
}

/** The block from its stored head and transactions; undefined when any part is missing. */
export function assembleStoredBlock (head: StoredBlockHead, txs: Array<Buffer | undefined>): Block | undefined {
  const transactions: Transaction[] = []
  for (const raw of txs) {
    const tx = storedTx(raw)
    if (tx === undefined) return undefined
    transactions.push(tx)
  }
  const { tx_count: _count, ...rest } = head
  return { ...rest, transactions } as Block
}

/** The stored head without its count: the block's fields but its transactions. */
export function headOfStored (head: StoredBlockHead): Omit<Block, 'transactions'> {
  const { tx_count: _count, ...rest } = head
  return rest
}
