// The playground's receipt (SPEC 2.6): the chain's receipt of a contract transaction as the
// playground shows it, or its pending form while the transaction waits in the mempool.
import type { ChainService, StoredReceipt } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import { CONTRACT_RECIPIENT } from '../../core/chain/types.ts'
import type { Transaction } from '../../core/chain/types.ts'
import type { ReceiptLog } from '../../core/vm/receipt.ts'
import { normalizeTxId } from '../../core/views/tx-lookup.ts'
import { playgroundErrors } from './errors.ts'

export type ReceiptType = 'deploy' | 'call' | 'contract'

export interface PendingReceipt {
  status: 'pending'
  tx_id: string
  type: ReceiptType
}

export interface ConfirmedReceipt {
  status: 'confirmed'
  tx_id: string
  block_height: number
  type: ReceiptType
  success: boolean
  gas_used: number
  /** 0x-prefixed; successful deploys only */
  contract_addr?: string
  /** calls: hex of the RETURN payload, '' when nothing was returned */
  return_hex?: string
  /** calls returning exactly one 32-byte word; a decimal string when beyond 2^53 - 1 */
  return_uint?: number | string
  /** failures where the contract gave a reason */
  revert_reason?: string
  /** failures: what stopped the VM (REVERT, out of gas, bad fields: ...) */
  error?: string
  logs: ReceiptLog[]
}

export type PlaygroundReceipt = PendingReceipt | ConfirmedReceipt

function typeOf (tx: Transaction): ReceiptType {
  return tx.data?.type === 'deploy' || tx.data?.type === 'call' ? tx.data.type : 'contract'
}

export function returnUint (hex: string): number | string | undefined {
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined
  const n = BigInt('0x' + hex)
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString()
}

export function confirmedReceipt (r: StoredReceipt): ConfirmedReceipt {
  const out: ConfirmedReceipt = {
    status: 'confirmed',
    tx_id: r.tx_id,
    block_height: r.block_height,
    type: r.type,
    success: r.success,
    gas_used: r.gas_used,
    logs: r.logs
  }
  if (r.type === 'deploy' && r.success && r.contract !== undefined) out.contract_addr = `0x${r.contract}`
  if (r.type === 'call') {
    out.return_hex = r.return_data ?? ''
    const word = returnUint(out.return_hex)
    if (word !== undefined) out.return_uint = word
  }
  if (!r.success) {
    if (typeof r.revert_reason === 'string') out.revert_reason = r.revert_reason
    if (r.error !== null) out.error = r.error
  }
  return out
}

export async function playgroundReceipt (chain: ChainService, mempool: MempoolService, txIdText: string): Promise<PlaygroundReceipt> {
  const id = normalizeTxId(txIdText)
  if (id === null) throw playgroundErrors.txNotFound()
  const stored = await chain.getReceipt(id)
  if (stored !== undefined) return confirmedReceipt(stored)
  const pending = mempool.get(id)
  if (pending !== undefined) {
    if (pending.recipient !== CONTRACT_RECIPIENT) throw playgroundErrors.noReceipt()
    return { status: 'pending', tx_id: id, type: typeOf(pending) }
  }
  if (await chain.getTransaction(id) !== undefined) throw playgroundErrors.noReceipt()
  throw playgroundErrors.txNotFound()
}
