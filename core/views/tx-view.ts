// A transaction as the explorer, the dashboard and the stream show it (SPEC 2.4): the wire
// transaction decoded into its kind, with names and the contract fields of deploys and calls.
import type { Transaction } from '../chain/types.ts'
import { CONTRACT_RECIPIENT, GENESIS_SENDER, MINING_REWARD_SENDER } from '../chain/types.ts'
import type { NameOf } from './names.ts'

export const TX_KINDS = ['coinbase', 'genesis', 'deploy', 'call', 'message', 'transfer'] as const
export type TxKind = typeof TX_KINDS[number]

/** SPEC 2.4 kind table, first match wins */
export function txKind (tx: Transaction): TxKind {
  if (tx.sender === MINING_REWARD_SENDER) return 'coinbase'
  if (tx.sender === GENESIS_SENDER) return 'genesis'
  if (tx.recipient === CONTRACT_RECIPIENT && tx.data?.type === 'deploy') return 'deploy'
  if (tx.recipient === CONTRACT_RECIPIENT && tx.data?.type === 'call') return 'call'
  if (typeof tx.data?.memo === 'string') return 'message'
  return 'transfer'
}

export interface CallFields {
  /** 0x-prefixed 40-hex target contract */
  to: string | null
  /** first calldata byte, null when the call carries no calldata */
  selector: number | null
  /** number of 32-byte argument words after the selector */
  arg_count: number
}

const stripHex = (s: unknown): string => typeof s === 'string' ? s.replace(/^0x/i, '').toLowerCase() : ''

export function callFields (tx: Transaction): CallFields {
  const to = stripHex(tx.data.to)
  const calldata = stripHex(tx.data.calldata)
  return {
    to: to.length > 0 ? `0x${to}` : null,
    selector: calldata.length >= 2 ? parseInt(calldata.slice(0, 2), 16) : null,
    arg_count: calldata.length > 2 ? Math.floor((calldata.length - 2) / 64) : 0
  }
}

/** bytes of deploy bytecode */
export function codeSize (tx: Transaction): number {
  return Math.floor(stripHex(tx.data.code).length / 2)
}

export interface DecodedTx {
  tx_id: string
  sender: string
  sender_name: string | null
  recipient: string
  recipient_name: string | null
  amount: number
  fee: number
  timestamp: number
  kind: TxKind
  /** deploy only */
  code_size?: number
  /** call only */
  to?: string | null
  selector?: number | null
  arg_count?: number
  /** message only: the chat text */
  memo?: string
}

export function decodeTx (tx: Transaction, nameOf: NameOf): DecodedTx {
  const kind = txKind(tx)
  const out: DecodedTx = {
    tx_id: tx.transaction_id,
    sender: tx.sender,
    sender_name: nameOf(tx.sender),
    recipient: tx.recipient,
    recipient_name: nameOf(tx.recipient),
    amount: tx.amount,
    fee: tx.fee,
    timestamp: tx.timestamp,
    kind
  }
  if (kind === 'deploy') out.code_size = codeSize(tx)
  if (kind === 'call') Object.assign(out, callFields(tx))
  if (kind === 'message') out.memo = tx.data.memo as string
  return out
}
