// Transactions from peers whose nonce is ahead of their sender's next one (Bitcoin Core's
// orphan pool): one wallet's consecutive nonces may enter the network at different nodes, so a
// relay honestly hands us nonce n+1 before n reaches us. Held here (signature checked first by
// the mempool, so forgeries cannot fill it) until the gap closes, never relayed from here, and
// bounded every way a peer could stretch it: count and bytes overall, per sender and per
// announcing peer, and a time-to-live. Over a bound, the announcer's or sender's oldest goes
// first; over the overall bound, a random one (an attacker cannot aim at a chosen victim).
import type { Transaction } from '../../core/chain/types.ts'

export const ORPHAN_LIMITS = {
  count: 1000,
  bytes: 16 * 1024 * 1024,
  /** held per sender: beyond the mempool's own per-sender cap they could never be admitted */
  perSender: 64,
  /** held per announcing peer: one peer cannot take the whole pool */
  perPeer: 200,
  perPeerBytes: 4 * 1024 * 1024,
  ttlSeconds: 20 * 60
} as const

export interface OrphanLimits {
  count: number
  bytes: number
  perSender: number
  perPeer: number
  perPeerBytes: number
  ttlSeconds: number
}

export interface Orphan { tx: Transaction; peer: string; bytes: number; addedAt: number }

export interface OrphanPoolOptions {
  limits?: Partial<OrphanLimits>
  /** seconds */
  now?: () => number
  /** in [0, 1): which orphan goes when the pool is full (seeded in tests) */
  random?: () => number
}

const keyOf = (sender: string, nonce: number): string => `${sender}:${nonce}`

export class OrphanPool {
  readonly limits: OrphanLimits
  readonly #now: () => number
  readonly #random: () => number
  /** sender:nonce → orphan, oldest first (insertion order) */
  readonly #byKey = new Map<string, Orphan>()
  readonly #ids = new Map<string, Orphan>()
  readonly #perSender = new Map<string, number>()
  readonly #perPeer = new Map<string, { count: number; bytes: number }>()
  #bytes = 0

  constructor (o: OrphanPoolOptions = {}) {
    this.limits = { ...ORPHAN_LIMITS, ...o.limits }
    this.#now = o.now ?? (() => Date.now() / 1000)
    this.#random = o.random ?? Math.random
  }

  get size (): number { return this.#byKey.size }
  get bytes (): number { return this.#bytes }
  has (txId: string): boolean { return this.#ids.has(txId) }
  senders (): string[] { return [...this.#perSender.keys()] }
  countOf (peer: string): number { return this.#perPeer.get(peer)?.count ?? 0 }

  /**
   * Holds `tx` (announced by `peer`, `bytes` long); false when it cannot be held at all (larger
   * than a peer's whole share) or a transaction of that sender and nonce is held already (the
   * first stays: a conflicting twin is settled when the gap closes).
   */
  add (tx: Transaction, peer: string, bytes: number): boolean {
    this.expire()
    const key = keyOf(tx.sender, tx.nonce)
    if (this.#byKey.has(key) || bytes > this.limits.perPeerBytes || bytes > this.limits.bytes) return false
    const orphan: Orphan = { tx, peer, bytes, addedAt: this.#now() }
    this.#byKey.set(key, orphan)
    this.#ids.set(tx.transaction_id, orphan)
    this.#perSender.set(tx.sender, (this.#perSender.get(tx.sender) ?? 0) + 1)
    const p = this.#perPeer.get(peer) ?? { count: 0, bytes: 0 }
    this.#perPeer.set(peer, { count: p.count + 1, bytes: p.bytes + bytes })
    this.#bytes += bytes
    this.#trim(orphan)
    return this.#byKey.get(key) === orphan
  }

  /** Takes out the orphan of `sender` at `nonce`, if held. */
  take (sender: string, nonce: number): Transaction | undefined {
    const orphan = this.#byKey.get(keyOf(sender, nonce))
    if (orphan === undefined) return undefined
    this.#delete(orphan)
    return orphan.tx
  }

  /** Drops the sender's orphans below `nonce` (their nonce is used: they can never be admitted). */
  dropBelow (sender: string, nonce: number): void {
    if (!this.#perSender.has(sender)) return
    for (const o of [...this.#byKey.values()]) if (o.tx.sender === sender && o.tx.nonce < nonce) this.#delete(o)
  }

  /** Drops the orphans held longer than the time-to-live. */
  expire (): void {
    const cutoff = this.#now() - this.limits.ttlSeconds
    for (const o of this.#byKey.values()) {
      if (o.addedAt > cutoff) break // insertion order is age order
      this.#delete(o)
    }
  }

  /** Within every bound again after `added` came in: the oldest of its peer and sender, then random ones. */
  #trim (added: Orphan): void {
    const peerUse = (): { count: number; bytes: number } => this.#perPeer.get(added.peer) ?? { count: 0, bytes: 0 }
    while (peerUse().count > this.limits.perPeer || peerUse().bytes > this.limits.perPeerBytes) this.#delete(this.#oldest((o) => o.peer === added.peer))
    while ((this.#perSender.get(added.tx.sender) ?? 0) > this.limits.perSender) this.#delete(this.#oldest((o) => o.tx.sender === added.tx.sender))
    while (this.#byKey.size > this.limits.count || this.#bytes > this.limits.bytes) {
      const all = [...this.#byKey.values()]
      this.#delete(all[Math.floor(this.#random() * all.length)] as Orphan)
    }
  }

  #oldest (match: (o: Orphan) => boolean): Orphan {
    for (const o of this.#byKey.values()) if (match(o)) return o
    throw new Error('orphan pool bookkeeping out of step')
  }

  #delete (o: Orphan): void {
    this.#byKey.delete(keyOf(o.tx.sender, o.tx.nonce))
    this.#ids.delete(o.tx.transaction_id)
    this.#bytes -= o.bytes
    const s = (this.#perSender.get(o.tx.sender) ?? 1) - 1
    if (s === 0) this.#perSender.delete(o.tx.sender)
    else this.#perSender.set(o.tx.sender, s)
    const p = this.#perPeer.get(o.peer) ?? { count: 1, bytes: o.bytes }
    if (p.count <= 1) this.#perPeer.delete(o.peer)
    else this.#perPeer.set(o.peer, { count: p.count - 1, bytes: p.bytes - o.bytes })
  }
}
