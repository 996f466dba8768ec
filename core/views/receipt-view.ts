// Receipts of contract transactions: the stored receipt as SPEC 2.5 gives it (receipt
// endpoints) and the short form embedded in a transaction lookup (SPEC 2.4).
import type { StoredReceipt } from '../chain/chain-service.ts'
import type { Receipt, ReceiptLog } from '../vm/receipt.ts'

export interface ReceiptBody {
  tx_id: string
  block_height: number
  type: 'deploy' | 'call'
  /** deploy only: 40 hex */
  contract?: string
  /** call only: 40 hex */
  to?: string
  success: boolean
  gas_used: number
  /** call only: hex of the RETURN payload, '' when nothing returned */
  return_data?: string
  logs: ReceiptLog[]
  error: string | null
  revert_reason?: string | null
}

const bare = (hex: string): string => hex.replace(/^0x/i, '').toLowerCase()

export function receiptBody (r: StoredReceipt): ReceiptBody {
  const out: ReceiptBody = {
    tx_id: r.tx_id,
    block_height: r.block_height,
    type: r.type,
    success: r.success,
    gas_used: r.gas_used,
    logs: r.logs.map((l) => ({ address: bare(l.address), topics: [...l.topics], data: l.data })),
    error: r.error
  }
  if (r.type === 'deploy' && r.contract !== undefined) out.contract = bare(r.contract)
  if (r.type === 'call') {
    if (r.to !== undefined) out.to = bare(r.to)
    out.return_data = r.return_data ?? ''
  }
  if (r.revert_reason !== undefined) out.revert_reason = r.revert_reason
  return out
}

export interface TxReceiptSummary {
  type: 'deploy' | 'call'
  success: boolean
  gas_used: number
  /** 0x-prefixed deployed contract; null for calls */
  contract_address: string | null
  /** calls: hex of the RETURN payload ('' when none); deploys: null */
  return_data: string | null
  revert_reason: string | null
}

export function receiptSummary (r: Receipt): TxReceiptSummary {
  return {
    type: r.type,
    success: r.success,
    gas_used: r.gas_used,
    contract_address: r.type === 'deploy' && r.contract !== undefined ? `0x${bare(r.contract)}` : null,
    return_data: r.type === 'call' ? (r.return_data ?? '') : null,
    // the contract's reason when it gave one, else what stopped the VM
    revert_reason: r.success ? null : (r.revert_reason ?? r.error)
  }
}
