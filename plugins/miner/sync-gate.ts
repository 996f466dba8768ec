// Mining waits until synced, like Bitcoin Core refusing getblocktemplate during initial block
// download: a restarted miner must not extend its stale tip before it has heard from its peers
// (that block would be lost in the reorg that follows). The gate opens once, and stays open:
//   - at once on devnet, without a peers service, or when no bootstrap peer was named (--peer):
//     nobody to wait for;
//   - when a peer is connected, no sync round is running and the tip is at least as high as
//     every peer's reported best height;
//   - after `waitMs` with no peer connected (the named peers are down: mine on our own chain);
//   - after `waitMs` connected and not syncing although a peer reports a higher best height
//     (a peer's claimed height is its word; it must not be able to stop us mining for ever).
// Later sync rounds still pause the miner (Miner#run's own check); the gate is the first one.
import type { PeerService } from '../../core/kernel/services.ts'

export interface SyncGateOptions {
  peers: PeerService | undefined
  /** no waiting at all (devnet, or the bound set to 0) */
  immediate: boolean
  height: () => number
  waitMs: number
  now?: () => number
}

export type GateDecision = { open: true; why: string } | { open: false; reason: string }

export class SyncGate {
  readonly #o: SyncGateOptions
  readonly #now: () => number
  #open = false
  /** when a peer was last seen connected (the start counts as one) */
  #lastPeerAt: number
  /** since when peers are connected and no sync round runs */
  #quietSince: number | null = null

  constructor (o: SyncGateOptions) {
    this.#o = o
    this.#now = o.now ?? Date.now
    this.#lastPeerAt = this.#now()
  }

  get isOpen (): boolean { return this.#open }

  /** Decides now; the first `open` answer carries why (for the log), later ones are cheap. */
  check (): GateDecision | null {
    if (this.#open) return null
    const decision = this.#decide()
    if (decision.open) this.#open = true
    return decision
  }

  #decide (): GateDecision {
    const { peers, immediate } = this.#o
    if (immediate) return { open: true, why: 'no sync wait (devnet, or miner.syncWaitSeconds 0)' }
    if (peers === undefined) return { open: true, why: 'no p2p: nothing to sync with' }
    if ((peers.bootstrapCount?.() ?? 1) === 0) return { open: true, why: 'no bootstrap peers named (--peer): nothing to wait for' }
    const now = this.#now()
    const list = peers.peers()
    if (list.length === 0) {
      this.#quietSince = null
      if (now - this.#lastPeerAt >= this.#o.waitMs) return { open: true, why: `no peer reachable for ${Math.round(this.#o.waitMs / 1000)} s: mining on this node's own chain` }
      return { open: false, reason: 'waiting for peers before mining (initial sync)' }
    }
    this.#lastPeerAt = now
    if (peers.syncState() === 'syncing') {
      this.#quietSince = null
      return { open: false, reason: 'syncing with peers' }
    }
    this.#quietSince ??= now
    const best = Math.max(...list.map((p) => p.best_height))
    if (this.#o.height() >= best) return { open: true, why: `synced with ${list.length} peer${list.length === 1 ? '' : 's'}` }
    if (now - this.#quietSince >= this.#o.waitMs) return { open: true, why: `peers report height ${best} but sent no blocks for ${Math.round(this.#o.waitMs / 1000)} s: mining on this node's chain` }
    return { open: false, reason: `behind peers (height ${this.#o.height()} of ${best}): waiting to sync before mining` }
  }
}
