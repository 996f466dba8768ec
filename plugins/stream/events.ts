// Stream events (SPEC 6) built from hook payloads: the JSON each event carries, the key it
// is deduplicated on, and every address it touches in both forms (32-hex wallet and its
// 40-hex VM address) so an `address` filter in either form is a set lookup.
import type { Block, Transaction } from '../../core/chain/types.ts'
import { normalizeAddress, vmAddressOf } from '../../core/chain/address.ts'
import type { Receipt } from '../../core/vm/receipt.ts'
import type { NameDirectory } from '../../core/kernel/services.ts'
import { messageView } from '../../core/views/message-view.ts'
import { summaryOfBlock } from '../../core/views/block-view.ts'
import { callFields, txKind } from '../../core/views/tx-view.ts'
import { receiptBody } from '../../core/views/receipt-view.ts'

export const EVENT_TYPES = ['message', 'tx', 'block', 'receipt'] as const
export type EventType = typeof EVENT_TYPES[number]

/** an event before the hub numbers it (EventType on /api/stream; a NodeEventType on the node-local stream) */
export interface EventDraft<T extends string = EventType> {
  type: T
  /** dedupe key within its type: tx_id (message: tx_id + status, so pending and confirmed both arrive), height for
   *  blocks; null: never deduplicated (node events, each of which happened once) */
  key: string | null
  payload: Record<string, unknown>
  addresses: ReadonlySet<string>
}

export interface StreamEvent {
  id: number
  type: string
  addresses: ReadonlySet<string>
  /** the serialized SSE frame, built once and shared by every connection */
  frame: string
}

/** Collects addresses in canonical forms; non-addresses (mining_reward, contract) are skipped. */
export function touched (...candidates: Array<string | null | undefined>): Set<string> {
  const out = new Set<string>()
  for (const c of candidates) {
    if (typeof c !== 'string') continue
    const norm = normalizeAddress(c)
    if (norm === null) continue
    out.add(norm.address)
    if (norm.form === 'wallet') out.add(vmAddressOf(norm.address))
  }
  return out
}

export function blockEvent (block: Block): EventDraft {
  return { type: 'block', key: String(block.height), addresses: touched(block.miner), payload: { type: 'block', block: summaryOfBlock(block) } }
}

/** a confirmed transfer, deploy or call; null for coinbase, genesis and chat transactions */
export function txEvent (tx: Transaction, height: number, receipt: Receipt | undefined): EventDraft | null {
  const kind = txKind(tx)
  if (kind !== 'transfer' && kind !== 'deploy' && kind !== 'call') return null
  // SPEC 6 lists to, selector and arg_count for every tx event; they are null unless a call
  const call = kind === 'call' ? callFields(tx) : { to: null, selector: null, arg_count: null }
  return {
    type: 'tx',
    key: tx.transaction_id,
    addresses: touched(tx.sender, tx.recipient, call.to, receipt?.contract, receipt?.to),
    payload: {
      type: 'tx',
      tx: {
        tx_id: tx.transaction_id,
        sender: tx.sender,
        recipient: tx.recipient,
        kind,
        ...call,
        amount: tx.amount,
        fee: tx.fee,
        timestamp: tx.timestamp,
        block_height: height
      }
    }
  }
}

/** the receipt as GET /api/receipt/{tx_id} shows it (tx_id and block_height added) */
export function receiptEvent (txId: string, receipt: Receipt, height: number, sender: string | undefined): EventDraft {
  return {
    type: 'receipt',
    key: txId,
    addresses: touched(sender, receipt.contract, receipt.to, ...receipt.logs.map((l) => l.address)),
    payload: { type: 'receipt', receipt: receiptBody({ ...receipt, tx_id: txId, block_height: height }) }
  }
}

export function messageEvent (tx: Transaction, height: number | null, names: NameDirectory | undefined): EventDraft {
  const view = messageView(tx, height, names)
  return {
    type: 'message',
    key: `${tx.transaction_id}:${view.status}`,
    addresses: touched(tx.sender, tx.recipient),
    payload: { type: 'message', msg: { ...view, sender_address: tx.sender } }
  }
}
