// The policy itself, a pure function of the transaction and the settings: what a refusal
// says is what the submitter reads (HTTP 400 {"status":"rejected","reason","code"}).
import type { TxRefusal } from 'ledger-node/hooks'
import type { Transaction } from 'ledger-node/plugin'

export interface PolicySettings {
  /** fee (coin) per byte of the transaction's JSON below which it is refused; 0: no floor */
  minFeePerByte: number
  /** memos matching this regular expression are refused; null: none */
  memoPattern: string | null
  /** senders (32-hex wallet addresses) refused outright */
  blockedSenders: string[]
}

/** the transaction's size as it travels (its JSON), which is what a relay pays for */
export function txBytes (tx: Transaction): number {
  return Buffer.byteLength(JSON.stringify(tx))
}

export function judge (tx: Transaction, s: PolicySettings, memo: RegExp | null = s.memoPattern === null ? null : new RegExp(s.memoPattern, 'u')): TxRefusal | undefined {
  if (s.blockedSenders.includes(tx.sender)) return { code: 'POLICY_BLOCKED_SENDER', reason: `sender ${tx.sender} is refused by this node's policy` }
  const memoText = tx.data.memo
  if (memo !== null && typeof memoText === 'string' && memo.test(memoText)) return { code: 'POLICY_MEMO', reason: 'memo refused by this node\'s policy' }
  if (s.minFeePerByte > 0) {
    const bytes = txBytes(tx)
    if (tx.fee / bytes < s.minFeePerByte) return { code: 'POLICY_FEE_PER_BYTE', reason: `fee ${tx.fee} for ${bytes} bytes is below this node's ${s.minFeePerByte} coin per byte` }
  }
  return undefined
}
