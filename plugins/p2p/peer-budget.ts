// Per-peer token buckets and bounded sets: how often one peer may make us do or say something
// (announce transactions, make us log or raise a node event, ask it for a status), and what we
// remember of each peer's inventory, all bounded in memory however many peer ids come and go.

/** A set that forgets its least recently added member beyond `max`. */
export class LruSet {
  readonly #max: number
  readonly #set = new Set<string>()
  constructor (max: number) { this.#max = max }
  /** adds (or refreshes) `v`; true when it was not there */
  add (v: string): boolean {
    const fresh = !this.#set.delete(v)
    this.#set.add(v)
    if (this.#set.size > this.#max) this.#set.delete(this.#set.values().next().value as string)
    return fresh
  }

  has (v: string): boolean { return this.#set.has(v) }
  delete (v: string): boolean { return this.#set.delete(v) }
  get size (): number { return this.#set.size }
}

/** A map that forgets its least recently set entry beyond `max`. */
export class LruMap<V> {
  readonly #max: number
  readonly #map = new Map<string, V>()
  constructor (max: number) { this.#max = max }
  set (k: string, v: V): void {
    this.#map.delete(k)
    this.#map.set(k, v)
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value as string)
  }

  get (k: string): V | undefined { return this.#map.get(k) }
  has (k: string): boolean { return this.#map.has(k) }
  delete (k: string): boolean { return this.#map.delete(k) }
  values (): IterableIterator<V> { return this.#map.values() }
  get size (): number { return this.#map.size }
}

export interface BucketRate {
  /** tokens a peer starts with and may save up */
  burst: number
  /** tokens regained per second */
  perSecond: number
}

/** Token buckets per peer: `take` says whether the peer may spend `n` more now. */
export class PeerBuckets {
  readonly #rate: BucketRate
  readonly #now: () => number
  readonly #buckets: LruMap<{ tokens: number; at: number }>
  constructor (rate: BucketRate, now: () => number = () => Date.now() / 1000, maxPeers = 4096) {
    this.#rate = rate
    this.#now = now
    this.#buckets = new LruMap(maxPeers)
  }

  take (peerId: string, n = 1): boolean {
    const now = this.#now()
    const b = this.#buckets.get(peerId) ?? { tokens: this.#rate.burst, at: now }
    b.tokens = Math.min(this.#rate.burst, b.tokens + (now - b.at) * this.#rate.perSecond)
    b.at = now
    const ok = b.tokens >= n
    if (ok) b.tokens -= n
    this.#buckets.set(peerId, b)
    return ok
  }

  forget (peerId: string): void { this.#buckets.delete(peerId) }
}

/**
 * What a peer makes us report (a WARN line, a node event): at most `burst` at once and
 * `perSecond` after, per peer; what is held back is counted and handed to the next report.
 */
export class ReportLimiter {
  readonly #buckets: PeerBuckets
  readonly #suppressed = new LruMap<number>(4096)
  constructor (rate: BucketRate, now?: () => number) { this.#buckets = new PeerBuckets(rate, now) }

  /** undefined: stay quiet; else how many reports were held back since the last one */
  admit (peerId: string): number | undefined {
    if (!this.#buckets.take(peerId)) {
      this.#suppressed.set(peerId, (this.#suppressed.get(peerId) ?? 0) + 1)
      return undefined
    }
    const held = this.#suppressed.get(peerId) ?? 0
    this.#suppressed.delete(peerId)
    return held
  }
}
