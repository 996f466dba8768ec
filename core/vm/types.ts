// Receipts as SPEC 2.5 defines them; both shapes fit core/vm/receipt.ts's Receipt.

export interface LogEntry {
  /** the contract that emitted it, 40 hex */
  address: string
  /** 64 hex each, topics[0] first */
  topics: string[]
  /** hex of the non-indexed data, '' when none */
  data: string
}

interface ReceiptCommon {
  success: boolean
  gas_used: number
  logs: LogEntry[]
  /** null on success; REVERT, out of gas, stack underflow, … on failure */
  error: string | null
  /** the REVERT payload as text, when a reverted contract gave one */
  revert_reason: string | null
}

export interface DeployReceipt extends ReceiptCommon {
  type: 'deploy'
  /** the new contract's address, 40 hex (also on failure: the address the deploy used) */
  contract: string
}

export interface CallReceipt extends ReceiptCommon {
  type: 'call'
  to: string
  /** hex of the RETURN payload, '' when none or when the call failed (a REVERT payload goes to revert_reason) */
  return_data: string
}

export type VmReceipt = DeployReceipt | CallReceipt
