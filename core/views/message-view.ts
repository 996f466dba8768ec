// A chat message as GET /api/messages and the stream's message event show it (SPEC 2.7):
// the chat room is a view of chain and mempool transactions that carry data.memo.
import type { Transaction } from '../chain/types.ts'
import type { NameDirectory } from '../kernel/services.ts'

export interface MessageView {
  /** display name if known, else the shortened address */
  sender: string
  address: string
  text: string
  timestamp: number
  status: 'confirmed' | 'pending'
  block: number | null
  /** first 16 characters of the transaction id */
  tx_id: string
  /** the whole 64-hex id, so a page can link the message to its transaction in the explorer */
  transaction_id: string
}

export function shortAddress (address: string): string {
  return address.length > 12 ? `${address.slice(0, 12)}…` : address
}

export function isChatTx (tx: Transaction): boolean {
  return typeof tx.data?.memo === 'string'
}

export function messageView (tx: Transaction, block: number | null, names: NameDirectory | undefined): MessageView {
  return {
    sender: names?.nameOf(tx.sender) ?? shortAddress(tx.sender),
    address: tx.sender,
    text: String(tx.data.memo),
    timestamp: tx.timestamp,
    status: block === null ? 'pending' : 'confirmed',
    block,
    tx_id: tx.transaction_id.slice(0, 16),
    transaction_id: tx.transaction_id
  }
}
