// How a block body is stored: the block without its transactions (plus their count) under
// `b:<hash>`, and each transaction under its own key `bx:<hash>:<index>`, all in the block's
// batch. A lookup by transaction id (the `tx:` index gives block and index) then reads ~10 KB
// instead of a ~200 KB block of 20 ML-DSA-87 transactions; a whole block is one small read plus
// one multi-get. The same bytes are stored once either way.
import type { KvOp } from '../kv.ts'
import { jsonValue, parseJson } from '../kv.ts'
import { chainKey } from './keys.ts'
import type { Block, Transaction } from './types.ts'

export type StoredBlockHead = Omit<Block, 'transactions'> & { tx_count: number }

export function blockBodyOps (block: Block): KvOp[] {
  const { transactions, ...head } = block
  const ops: KvOp[] = [{ type: 'put', key: chainKey.block(block.hash), value: jsonValue({ ...head, tx_count: transactions.length }) }]
  transactions.forEach((tx, i) => { ops.push({ type: 'put', key: chainKey.blockTx(block.hash, i), value: jsonValue(tx) }) })
  return ops
}

/** keys of the transactions of a stored head, in block order */
export function blockTxKeys (hash: string, head: StoredBlockHead): string[] {
  return Array.from({ length: head.tx_count }, (_, i) => chainKey.blockTx(hash, i))
}

/** The block from its stored head and transactions; undefined when any part is missing. */
export function assembleStoredBlock (head: StoredBlockHead, txs: Array<Buffer | undefined>): Block | undefined {
  const transactions: Transaction[] = []
  for (const raw of txs) {
    const tx = parseJson<Transaction>(raw)
    if (tx === undefined) return undefined
    transactions.push(tx)
  }
  const { tx_count: _count, ...rest } = head
  return { ...rest, transactions } as Block
}
