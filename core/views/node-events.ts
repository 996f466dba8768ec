// Node events: what happened to this node, as its operator reads it (the dashboard's recent
// events, the node-local event stream). One record per hook call, in snake_case like the APIs,
// built from the hooks no public surface shows: refused and mined blocks, reorgs, peers coming
// and going, transactions dropped from the mempool, the entropy provider's reachability and the
// node's own start and stop. Holds peer addresses: node-local surfaces only.
import { providerEvidence } from '../chain/entropy-evidence.ts'
import type { EntropyEvidence } from '../chain/entropy-evidence.ts'
import type { HookCatalogue } from '../kernel/hooks.ts'

export const NODE_EVENT_TYPES = [
  'node_started', 'node_stopping', 'block_rejected', 'block_mined', 'reorg',
  'peer_connected', 'peer_disconnected', 'tx_dropped', 'entropy_status'
] as const
export type NodeEventType = typeof NODE_EVENT_TYPES[number]

interface Ref { height: number; hash: string }

/** one event before it is numbered; `at` is Unix seconds */
export type NodeEventDraft = { at: number } & (
  | { type: 'node_started' }
  | { type: 'node_stopping' }
  | { type: 'block_rejected'; hash: string; code: string; reason: string; origin: string }
  | { type: 'block_mined'; height: number; hash: string; tx_count: number; difficulty: number }
  | { type: 'reorg'; from: Ref; to: Ref; fork_point: Ref; disconnected: number; connected: number }
  | { type: 'peer_connected' | 'peer_disconnected'; peer_id: string; address: string }
  | { type: 'tx_dropped'; tx_id: string; sender: string; reason: 'evicted' | 'expired' | 'invalidated' }
  /** evidence: what backs the bytes served now (docs/entropy.md), null while nothing is served */
  | { type: 'entropy_status'; reachable: boolean; source: string | null; reason: string | null; evidence: EntropyEvidence | null }
)

/** a numbered event as the node-local surfaces serve it */
export type NodeEvent = NodeEventDraft & { id: number }

/** a rejection reason is a peer's to shape: cap what one event may carry */
const MAX_REASON_CHARS = 512

/**
 * Taps every hook a node event comes from under `tapName` and hands each event to `onEvent`.
 * A transaction leaving the mempool because it was confirmed is not an event (the block is).
 */
export function tapNodeEvents (hooks: HookCatalogue, tapName: string, onEvent: (event: NodeEventDraft) => void, now: () => number = () => Date.now() / 1000): void {
  hooks.started.tap(tapName, () => { onEvent({ type: 'node_started', at: now() }) })
  hooks.stopping.tap(tapName, () => { onEvent({ type: 'node_stopping', at: now() }) })
  hooks.blockRejected.tap(tapName, ({ hash, code, reason, origin }) => {
    onEvent({ type: 'block_rejected', at: now(), hash, code, reason: reason.slice(0, MAX_REASON_CHARS), origin })
  })
  hooks.blockMined.tap(tapName, (block) => {
    onEvent({ type: 'block_mined', at: now(), height: block.height, hash: block.hash, tx_count: block.transactions.length, difficulty: block.difficulty })
  })
  hooks.reorg.tap(tapName, ({ from, to, forkPoint, disconnected, connected }) => {
    onEvent({ type: 'reorg', at: now(), from: ref(from), to: ref(to), fork_point: ref(forkPoint), disconnected, connected })
  })
  hooks.peerConnected.tap(tapName, ({ peerId, address }) => { onEvent({ type: 'peer_connected', at: now(), peer_id: peerId, address }) })
  hooks.peerDisconnected.tap(tapName, ({ peerId, address }) => { onEvent({ type: 'peer_disconnected', at: now(), peer_id: peerId, address }) })
  hooks.txRemoved.tap(tapName, ({ tx, reason }) => {
    if (reason !== 'confirmed') onEvent({ type: 'tx_dropped', at: now(), tx_id: tx.transaction_id, sender: tx.sender, reason })
  })
  hooks.entropyStatus.tap(tapName, ({ reachable, source, reason }) => { onEvent({ type: 'entropy_status', at: now(), reachable, source, reason, evidence: providerEvidence(reachable, source) }) })
}

const ref = (r: Ref): Ref => ({ height: r.height, hash: r.hash })

/** The last `capacity` events, numbered from `firstId` (boot time in microseconds by default,
 *  so ids keep growing across restarts and a reader's `after` from an earlier run asks for all). */
export class NodeEventLog {
  readonly #capacity: number
  readonly #events: NodeEvent[] = []
  #nextId: number

  constructor (capacity: number, firstId: number = Date.now() * 1000) {
    this.#capacity = capacity
    this.#nextId = firstId
  }

  push (draft: NodeEventDraft): NodeEvent {
    const event = { ...draft, id: this.#nextId++ } as NodeEvent
    this.#events.push(event)
    if (this.#events.length > this.#capacity) this.#events.shift()
    return event
  }

  /** events after `afterId`, oldest first, at most `limit` (the newest ones when more wait) */
  after (afterId: number, limit: number): NodeEvent[] {
    const newer = this.#events.filter((e) => e.id > afterId)
    return newer.slice(Math.max(0, newer.length - limit))
  }

  get lastId (): number { return this.#nextId - 1 }
}
