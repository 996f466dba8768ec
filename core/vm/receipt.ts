// Receipt of a contract transaction (SPEC 2.5). Lives in core because the chain, the
// explorer, the stream and the playground all read it.
export interface ReceiptLog {
  address: string
  topics: string[]
  data: string
}

export interface Receipt {
  type: 'deploy' | 'call'
  contract?: string
  to?: string
  success: boolean
  gas_used: number
  return_data?: string
  logs: ReceiptLog[]
  error: string | null
  revert_reason?: string | null
}
