// The `mempool` service: pending transactions, admission rules (DESIGN 3) and selection for
// block templates.
import type { Transaction } from './types.ts'
import type { TemplateBudget } from './template.ts'

/** what became of a peer's transaction: admitted, or held until its sender's earlier nonces arrive */
export type TxOffer = 'admitted' | 'orphan'

export interface MempoolService {
  /** admits or throws TxError with a precise reason */
  add(tx: Transaction): Transaction
  /**
   * a peer's transaction: admitted, or held as an orphan (not relayed) when its nonce is ahead
   * of the sender's next one and its signature verifies; throws TxError otherwise
   */
  offer(tx: Transaction, peerId: string): TxOffer
  /** an orphan is held under this id */
  holds(txId: string): boolean
  has(txId: string): boolean
  get(txId: string): Transaction | undefined
  /** all pending, highest fee first */
  list(): Transaction[]
  readonly size: number
  readonly capacity: number
  /** bytes (txSize) of all pending transactions */
  readonly bytes: number
  /** the fee per byte (bohm) a transaction must pay now beside the network's minimum fee (the
   *  rolling minimum an eviction raises; 0 while the pool has room); absent where not kept */
  minFeePerByte?(): bigint
  /** amount + fee of the sender's pending transactions, in bohm */
  pendingSpend(sender: string): bigint
  /** the nonce the sender's next transaction must carry (state nonce + pending) */
  nextNonce(sender: string): number
  /**
   * up to `max` transactions for a block: fee desc then timestamp asc, nonce order per sender
   * kept, within the block's byte and gas budget when given
   */
  select(max: number, budget?: Omit<TemplateBudget, 'count'>): Transaction[]
}
