// Turns the node's hooks into timestamped NodeEvents (testbed/events.ts), bounded: a test bed
// run is minutes long, and a node that somehow fires more than MAX_EVENTS keeps the first ones
// and counts the rest (a figure computed from a cut record says so: `dropped`).
import type { HookCatalogue } from '../../core/kernel/hooks.ts'
import type { NodeEvent } from '../events.ts'
import { encodeTx } from '../../core/chain/tx-codec.ts'
import type { Transaction } from '../../core/chain/types.ts'

const MAX_EVENTS = 1_000_000

export class EventRecorder {
  readonly events: NodeEvent[] = []
  readonly #max: number
  dropped = 0
  readonly #seenBlocks = new Set<string>()
  readonly #seenTxs = new Set<string>()

  constructor (max = MAX_EVENTS) { this.#max = max }

  #push (e: NodeEvent): void {
    if (this.events.length < this.#max) this.events.push(e)
    else this.dropped++
  }

  /** taps every hook a figure needs; only the first arrival of each block or tx is kept */
  tap (hooks: HookCatalogue, name: string): void {
    const now = (): number => Date.now()
    hooks.peerItemReceived.tap(name, (item) => {
      const seen = item.kind === 'block' ? this.#seenBlocks : this.#seenTxs
      if (seen.has(item.id) || seen.size >= this.#max) return
      seen.add(item.id)
      if (item.kind === 'block') this.#push({ t: now(), type: 'block_seen', hash: item.id, height: item.height ?? -1, parent: item.previousHash ?? '', peer: item.peerId })
      else this.#push({ t: now(), type: 'tx_seen', id: item.id, peer: item.peerId })
    })
    hooks.blockRelayed.tap(name, (r) => {
      this.#push({ t: now(), type: 'block_relayed', hash: r.hash, height: r.height, peer: r.peerId, relay_ms: r.relayMs, rebuilt: r.rebuilt })
    })
    hooks.blockConnected.tap(name, ({ block, reorg, syncing }) => {
      this.#push({ t: now(), type: 'block_connected', hash: block.hash, height: block.height, parent: block.previous_hash, miner: block.miner, reorg, syncing, txs: block.transactions.length - 1 })
    })
    hooks.blockDisconnected.tap(name, (block) => { this.#push({ t: now(), type: 'block_disconnected', hash: block.hash, height: block.height }) })
    hooks.blockFound.tap(name, (block) => { this.#push({ t: now(), type: 'block_found', hash: block.hash, height: block.height }) })
    hooks.blockMined.tap(name, (block) => { this.#push({ t: now(), type: 'block_mined', hash: block.hash, height: block.height }) })
    hooks.blockRejected.tap(name, (e) => { this.#push({ t: now(), type: 'block_rejected', hash: e.hash, code: e.code }) })
    hooks.reorg.tap(name, (e) => { this.#push({ t: now(), type: 'reorg', disconnected: e.disconnected, connected: e.connected, fork_height: e.forkPoint.height, to_height: e.to.height }) })
    // with its binary size: the transaction-relay figure's denominator (one encode per admission)
    hooks.txAdmitted.tap(name, (tx) => { this.#push({ t: now(), type: 'tx_admitted', id: tx.transaction_id, bytes: binarySize(tx) }) })
    hooks.txRemoved.tap(name, ({ tx, reason }) => { this.#push({ t: now(), type: 'tx_removed', id: tx.transaction_id, reason }) })
    hooks.peerConnected.tap(name, (p) => { this.#push({ t: now(), type: 'peer_connected', peer: p.peerId, address: p.address }) })
    hooks.peerDisconnected.tap(name, (p) => { this.#push({ t: now(), type: 'peer_disconnected', peer: p.peerId, address: p.address }) })
  }

  /** events from index `since` on, at most `limit` */
  page (since: number, limit: number): { events: NodeEvent[]; next: number; dropped: number } {
    const events = this.events.slice(since, since + limit)
    return { events, next: since + events.length, dropped: this.dropped }
  }
}

/** an admitted transaction's wire size; undefined for one the codec cannot encode (an instrument never throws into the node's hooks) */
function binarySize (tx: Transaction): number | undefined {
  try { return encodeTx(tx).length } catch { return undefined }
}
