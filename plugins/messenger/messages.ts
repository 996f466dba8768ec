// GET /api/messages as a view of the chain and the mempool (SPEC 4.3): no message store.
// Pending chat transactions come first, then confirmed ones from the chain's message index
// (newest first), so a request never walks the whole chain.
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { NameDirectory } from '../../core/kernel/services.ts'
import { isChatTx, messageView } from '../../core/views/message-view.ts'
import type { MessageView } from '../../core/views/message-view.ts'

export const MESSAGES_DEFAULT_LIMIT = 50
export const MESSAGES_MAX_LIMIT = 200

export async function recentMessages (deps: { chain: ChainService; mempool: MempoolService; names: NameDirectory }, limit: number): Promise<MessageView[]> {
  // mempool first: a message confirmed between the two reads then shows up twice (and is
  // deduplicated below) instead of not at all
  const pending = deps.mempool.list().filter(isChatTx).sort((a, b) => b.timestamp - a.timestamp)
  const confirmed = await deps.chain.recentMessageTxs(limit)
  const confirmedIds = new Set(confirmed.map((c) => c.tx.transaction_id))
  const out: MessageView[] = []
  for (const tx of pending) {
    if (out.length >= limit) break
    if (!confirmedIds.has(tx.transaction_id)) out.push(messageView(tx, null, deps.names))
  }
  for (const c of confirmed) {
    if (out.length >= limit) break
    out.push(messageView(c.tx, c.location.height, deps.names))
  }
  return out
}

/** the limit query clamped to 1..200; absent means 50 */
export function messageLimit (raw: number | undefined): number {
  if (raw === undefined) return MESSAGES_DEFAULT_LIMIT
  return Math.min(MESSAGES_MAX_LIMIT, Math.max(1, Math.trunc(raw)))
}
