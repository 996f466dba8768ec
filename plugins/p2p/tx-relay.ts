// Transactions cross each link once (Bitcoin's inv/getdata, eth/68's ids + sizes): a node
// announces the ids (and binary sizes) of transactions it admitted to each peer that is not
// known to hold them, and a peer asks (gettx) only for the bodies it lacks, from one announcer
// at a time, the others kept as fallbacks should that one not answer. Everything is bounded
// per peer: ids per announcement and per second, requests in flight, remembered inventory; a
// request that times out (the request/response timeout) goes to the next announcer.
import type { Logger } from 'pino'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import { refusalClassOf, TxError } from '../../core/chain/errors.ts'
import type { TxRefusalClass } from '../../core/chain/errors.ts'
import { encodeTx } from '../../core/chain/tx-codec.ts'
import type { Transaction } from '../../core/chain/types.ts'
import { decodeTxFrame, LIMITS, WireError } from './protocol.ts'
import type { TxInv } from './protocol.ts'
import { PENALTY } from './misbehaviour.ts'
import { LruMap, LruSet } from './peer-budget.ts'
import { TokenBuckets } from './token-bucket.ts'

export const TX_RELAY_LIMITS = {
  /** ids we remember each peer to hold (it announced them, sent them, or we did) */
  knownPerPeer: 20_000,
  /** bodies asked of one peer and not yet answered */
  inFlightPerPeer: 512,
  /** announcers remembered per id besides the one asked, to ask next on a timeout */
  alternates: 4,
  /** ids a peer may announce: a burst, then per second */
  invBurst: 5_000,
  invPerSecond: 500,
  /** how long announcements gather before they go out (one stream per peer per flush) */
  flushMs: 50
} as const

/** Transactions that just left the mempool (confirmed, evicted, expired) or were refused a place in it: compact blocks are rebuilt from these too. */
export class RecentTxs {
  readonly #txs: LruMap<Transaction>
  constructor (max = 4096) { this.#txs = new LruMap(max) }
  add (tx: Transaction): void { this.#txs.set(tx.transaction_id, tx) }
  get (id: string): Transaction | undefined { return this.#txs.get(id) }
  has (id: string): boolean { return this.#txs.has(id) }
  values (): IterableIterator<Transaction> { return this.#txs.values() }
}

export interface TxRelayClient {
  txinv(peerId: string, inv: TxInv): Promise<void>
  /** one frame per id asked, empty when the peer does not have it */
  gettx(peerId: string, ids: string[]): Promise<Uint8Array[]>
}

export interface TxRelayOptions {
  mempool: MempoolService
  client: TxRelayClient
  recent: RecentTxs
  /** the peers announcements go to (handshaken) */
  peers(): string[]
  penalize(peerId: string, points: number, reason: string): void
  /** what a refused transaction of class `cls` costs the peer now (TxRefusalScore) */
  refusalPoints(peerId: string, cls: TxRefusalClass): number
  logger: Logger
  maxTxBytes: number
  /** a transaction body arrived from a peer (first-seen timing) */
  onTxReceived?(txId: string, peerId: string): void
  /** a peer's transaction was admitted (the peer is useful: eviction protects it) */
  onPeerTx?(peerId: string): void
  now?: () => number
}

interface Asked { peerId: string; size: number }

export class TxRelay {
  readonly #o: TxRelayOptions
  readonly #known = new LruMap<LruSet>(4096)
  /** per peer: ids (with sizes) waiting for the next announcement */
  readonly #outbox = new Map<string, Map<string, number>>()
  /** per peer: ids to ask it for in the next request */
  readonly #wanted = new Map<string, Map<string, number>>()
  /** id → who was asked for it */
  readonly #asked = new Map<string, Asked>()
  /** id → other peers that announced it (with the size they gave) */
  readonly #alternates = new LruMap<Asked[]>(50_000)
  readonly #inFlight = new Map<string, number>()
  readonly #invBudget: TokenBuckets
  #flushTimer: NodeJS.Timeout | null = null
  #requestTimer: NodeJS.Immediate | null = null
  /** set while a peer's transaction is being admitted: its txAdmitted must not go back to it
   *  (orphans it lets in are announced to it, though: it may lack them) */
  #admitting: { peerId: string; txId: string } | null = null
  #stopped = false

  constructor (o: TxRelayOptions) {
    this.#o = o
    this.#invBudget = new TokenBuckets({ capacity: TX_RELAY_LIMITS.invBurst, refillPerSecond: TX_RELAY_LIMITS.invPerSecond, now: o.now })
  }

  stop (): void {
    this.#stopped = true
    if (this.#flushTimer !== null) clearTimeout(this.#flushTimer)
    if (this.#requestTimer !== null) clearImmediate(this.#requestTimer)
  }

  #knownOf (peerId: string): LruSet {
    let k = this.#known.get(peerId)
    if (k === undefined) { k = new LruSet(TX_RELAY_LIMITS.knownPerPeer); this.#known.set(peerId, k) }
    return k
  }

  /** A peer left: what it was asked for goes to the next announcer. */
  forget (peerId: string): void {
    this.#known.delete(peerId)
    this.#outbox.delete(peerId)
    this.#wanted.delete(peerId)
    this.#inFlight.delete(peerId)
    for (const [id, a] of this.#asked) if (a.peerId === peerId) this.#retry(id)
  }

  /** A transaction this node admitted (its own or a peer's): announced to every peer not known to hold it. */
  announce (tx: Transaction): void {
    if (this.#stopped) return
    const size = encodeTx(tx).length
    for (const peerId of this.#o.peers()) {
      if ((peerId === this.#admitting?.peerId && tx.transaction_id === this.#admitting.txId) || !this.#knownOf(peerId).add(tx.transaction_id)) continue
      let box = this.#outbox.get(peerId)
      if (box === undefined) { box = new Map(); this.#outbox.set(peerId, box) }
      box.set(tx.transaction_id, size)
    }
    if (this.#flushTimer === null && this.#outbox.size > 0) {
      this.#flushTimer = setTimeout(() => { this.#flushTimer = null; this.#flush() }, TX_RELAY_LIMITS.flushMs)
      this.#flushTimer.unref()
    }
  }

  #flush (): void {
    for (const [peerId, box] of this.#outbox) {
      const entries = [...box]
      for (let i = 0; i < entries.length; i += LIMITS.maxInvIds) {
        const part = entries.slice(i, i + LIMITS.maxInvIds)
        this.#o.client.txinv(peerId, { ids: part.map(([id]) => id), sizes: part.map(([, n]) => n) }).catch((err: unknown) => {
          this.#o.logger.debug({ peer: peerId, err: (err as Error).message }, 'txinv failed')
        })
      }
    }
    this.#outbox.clear()
  }

  /** A peer announced transactions: ask it for those we lack and nobody is asked for yet. */
  onInv (peerId: string, inv: TxInv): void {
    if (this.#stopped) return
    if (!this.#invBudget.take(peerId, inv.ids.length)) {
      this.#o.penalize(peerId, PENALTY.invFlood, `announced more than ${TX_RELAY_LIMITS.invPerSecond} transactions a second`)
      return
    }
    const known = this.#knownOf(peerId)
    let repeats = 0
    inv.ids.forEach((id, i) => {
      const size = inv.sizes[i] as number
      if (!known.add(id)) repeats++
      if (this.#o.mempool.has(id) || this.#o.mempool.holds(id) || this.#o.recent.has(id)) return
      if (this.#asked.has(id)) {
        const alt = this.#alternates.get(id) ?? []
        if (alt.length < TX_RELAY_LIMITS.alternates && alt.every((a) => a.peerId !== peerId) && this.#asked.get(id)?.peerId !== peerId) {
          alt.push({ peerId, size })
          this.#alternates.set(id, alt)
        }
        return
      }
      this.#want(peerId, id, size)
    })
    // announcing an id twice to the same peer is what a relay that keeps no inventory does
    if (repeats > 0) this.#o.penalize(peerId, PENALTY.duplicateInv, `announced ${repeats} transaction(s) again`)
    this.#scheduleRequests()
  }

  #want (peerId: string, id: string, size: number): boolean {
    const inFlight = this.#inFlight.get(peerId) ?? 0
    const wanted = this.#wanted.get(peerId)
    if (inFlight + (wanted?.size ?? 0) >= TX_RELAY_LIMITS.inFlightPerPeer) return false
    if (wanted === undefined) this.#wanted.set(peerId, new Map([[id, size]]))
    else wanted.set(id, size)
    this.#asked.set(id, { peerId, size })
    return true
  }

  #scheduleRequests (): void {
    if (this.#requestTimer !== null || this.#wanted.size === 0) return
    this.#requestTimer = setImmediate(() => {
      this.#requestTimer = null
      for (const [peerId, ids] of this.#wanted) {
        const all = [...ids]
        for (let i = 0; i < all.length; i += LIMITS.maxGetTxIds) void this.#request(peerId, all.slice(i, i + LIMITS.maxGetTxIds))
      }
      this.#wanted.clear()
    })
  }

  async #request (peerId: string, batch: Array<[string, number]>): Promise<void> {
    this.#inFlight.set(peerId, (this.#inFlight.get(peerId) ?? 0) + batch.length)
    let frames: Uint8Array[] = []
    try {
      frames = await this.#o.client.gettx(peerId, batch.map(([id]) => id))
      if (frames.length > batch.length) throw new WireError(`gettx response has ${frames.length} frames for ${batch.length} ids`)
    } catch (err) {
      if (err instanceof WireError) this.#o.penalize(peerId, PENALTY.malformed, `gettx: ${err.message}`)
      else this.#o.logger.debug({ peer: peerId, err: (err as Error).message }, 'gettx failed')
      frames = []
    } finally {
      const left = (this.#inFlight.get(peerId) ?? batch.length) - batch.length
      if (left > 0) this.#inFlight.set(peerId, left)
      else this.#inFlight.delete(peerId)
    }
    batch.forEach(([id, size], i) => {
      const frame = frames[i]
      if (this.#asked.get(id)?.peerId === peerId) this.#asked.delete(id)
      if (frame === undefined || frame.length === 0) { this.#retry(id); return }
      if (!this.#receive(peerId, id, size, frame)) this.#retry(id)
    })
    this.#scheduleRequests()
  }

  /** A body from `peerId` for `id`; false when it was not that transaction. */
  #receive (peerId: string, id: string, announcedSize: number, frame: Uint8Array): boolean {
    let value: unknown
    try {
      value = decodeTxFrame(frame)
    } catch (err) {
      if (!(err instanceof WireError)) throw err
      this.#o.penalize(peerId, PENALTY.malformed, `transaction body: ${err.message}`)
      return false
    }
    const tx = value as Transaction
    if (value === null || typeof value !== 'object' || Array.isArray(value) || tx.transaction_id !== id || frame.length !== announcedSize) {
      this.#o.penalize(peerId, PENALTY.malformed, 'sent a transaction body that is not the one announced')
      return false
    }
    this.#o.onTxReceived?.(id, peerId)
    this.#admitting = { peerId, txId: id }
    try {
      // an orphan (a nonce gap: the network reordered the sender's transactions) is held, free, and not relayed yet
      if (this.#o.mempool.offer(tx, peerId) === 'admitted') this.#o.onPeerTx?.(peerId)
    } catch (err) {
      if (!(err instanceof TxError)) {
        this.#o.logger.error({ err }, 'admitting a peer\'s transaction failed')
        return true
      }
      // by the refusal's class (core/chain/errors.ts): invalid (no honest node relays it), stale
      // (fails against our chain: balance, expiry; free within a budget), policy (our own limits or news)
      const cls = refusalClassOf(err)
      const points = this.#o.refusalPoints(peerId, cls)
      if (cls === 'invalid') this.#o.penalize(peerId, points, `invalid transaction: ${err.code} ${err.message}`)
      else {
        if (points > 0) this.#o.penalize(peerId, points, `transaction refused: ${err.code}`)
        // a valid transaction without a place here may still be in the next block
        this.#o.recent.add(tx)
      }
    } finally {
      this.#admitting = null
    }
    return true
  }

  /** Asks the next announcer of `id`, if any. */
  #retry (id: string): void {
    this.#asked.delete(id)
    const alt = this.#alternates.get(id)
    if (alt === undefined) return
    this.#alternates.delete(id)
    if (this.#o.mempool.has(id) || this.#o.recent.has(id)) return
    while (alt.length > 0) {
      const next = alt.shift() as Asked
      if (this.#want(next.peerId, id, next.size)) {
        if (alt.length > 0) this.#alternates.set(id, alt)
        this.#scheduleRequests()
        return
      }
    }
  }

  /** The bodies a peer asked for, one frame each (empty when we do not have it). */
  serve (peerId: string, ids: readonly string[]): Uint8Array[] {
    const known = this.#knownOf(peerId)
    return ids.map((id) => {
      const tx = this.#o.mempool.get(id) ?? this.#o.recent.get(id)
      if (tx === undefined) return new Uint8Array(0)
      known.add(id)
      return encodeTx(tx)
    })
  }
}
