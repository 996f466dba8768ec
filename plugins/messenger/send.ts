// POST /api/send: a chat message is a zero-amount transfer from the user's custodial wallet
// to the user's own address (a transfer needs some recipient; the sender's own keeps the
// message from touching anyone else's history), fee = the network minimum, text in data.memo.
import { HttpError } from '../../core/kernel/errors.ts'
import { TxError, TxErrorCode } from '../../core/chain/errors.ts'
import { MAX_MEMO_CHARS } from '../../core/chain/tx-rules.ts'
import type { Transaction } from '../../core/chain/types.ts'
import { submitFromWallet } from '../../core/chain/custodial-tx.ts'
import type { TxContext } from '../../core/chain/custodial-tx.ts'
import type { ApprovedUser } from '../../core/kernel/account-service.ts'
import type { WalletStore } from '../../core/kernel/services.ts'
import type { AddressRateLimit } from './rate-limit.ts'

export interface SendDeps extends TxContext {
  wallets: WalletStore
  limiter: AddressRateLimit
}

export function validText (text: unknown): text is string {
  // the chain's memo rule counts UTF-16 units; the same count here means no text passes this
  // check only to be refused by the mempool
  // a whitespace-only message says nothing yet would cost a fee and sit on chain for good
  return typeof text === 'string' && text.length >= 1 && text.length <= MAX_MEMO_CHARS && text.trim().length > 0
}

/** Signs and submits one message; synchronous from the rate check to admission. */
export function sendMessage (deps: SendDeps, user: ApprovedUser, text: unknown): Transaction {
  if (!validText(text)) throw new HttpError(400, `text must be 1-${MAX_MEMO_CHARS} chars`)
  const wait = deps.limiter.waitSeconds(user.address)
  if (wait > 0) throw new HttpError(429, `rate limit: wait ${wait} seconds`, { headers: { 'retry-after': String(wait) } })
  const wallet = deps.wallets.get(user.wallet)
  if (wallet === undefined) throw new HttpError(500, 'the wallet of this account is missing on this node')
  let tx: Transaction
  try {
    tx = submitFromWallet(deps, wallet, user.address, 0, { memo: text })
  } catch (err) {
    if (err instanceof TxError && err.code === TxErrorCode.INSUFFICIENT_BALANCE) throw new HttpError(400, 'insufficient balance for the message fee')
    if (err instanceof TxError) throw new HttpError(400, `message rejected by mempool: ${err.message}`)
    throw err
  }
  deps.limiter.record(user.address)
  return tx
}
