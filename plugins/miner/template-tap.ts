// What the miner accepts back from the miningTemplate hook. A tap may reorder the offered
// transactions or leave some out; anything else would let one plugin make the node mine a block
// the chain refuses (and throw the work away), so such a result is ignored for the untapped one.
//
// The mempool admits a sender's transaction against that sender's confirmed balance minus its
// own pending spends, with consecutive nonces; nothing another sender does can take coin from
// it. So a selection stays valid under any order across senders and any choice of whom to
// leave out, as long as each sender keeps a prefix of its own transactions in nonce order.
import type { Transaction } from '../../core/chain/types.ts'

export type TapResult = { ok: true; transactions: Transaction[] } | { ok: false; reason: string }

/**
 * Checks the tap's list against the offered one, by transaction id; returns the offered
 * objects (a tap's copy, changed or not, is never mined) in the tap's order, or why not.
 */
export function acceptTappedTransactions (offered: readonly Transaction[], returned: unknown): TapResult {
  if (!Array.isArray(returned)) return { ok: false, reason: 'the tap did not return a list of transactions' }
  const byId = new Map(offered.map((tx) => [tx.transaction_id, tx]))
  // each sender's offered transactions in nonce order, and how many of them the tap kept so far
  const offeredBySender = new Map<string, Transaction[]>()
  for (const tx of offered) offeredBySender.set(tx.sender, [...(offeredBySender.get(tx.sender) ?? []), tx])
  const keptBySender = new Map<string, number>()
  const out: Transaction[] = []
  const seen = new Set<string>()
  for (const item of returned as unknown[]) {
    const id = item !== null && typeof item === 'object' ? (item as { transaction_id?: unknown }).transaction_id : undefined
    const tx = typeof id === 'string' ? byId.get(id) : undefined
    if (tx === undefined) return { ok: false, reason: 'the tap returned a transaction the miner did not offer' }
    if (seen.has(tx.transaction_id)) return { ok: false, reason: `the tap returned transaction ${tx.transaction_id.slice(0, 16)}… twice` }
    seen.add(tx.transaction_id)
    const kept = keptBySender.get(tx.sender) ?? 0
    if ((offeredBySender.get(tx.sender) as Transaction[])[kept] !== tx) {
      return { ok: false, reason: `the tap broke the nonce order of sender ${tx.sender.slice(0, 16)}… (each sender keeps a prefix of its transactions, in order)` }
    }
    keptBySender.set(tx.sender, kept + 1)
    out.push(tx)
  }
  return { ok: true, transactions: out }
}
