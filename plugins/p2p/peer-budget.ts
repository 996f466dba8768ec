// Bounded sets and maps (what we remember of each peer's inventory and announcements) and the
// per-peer limit on what a peer can make us report, all bounded in memory however many peer
// ids come and go.
import { TokenBuckets } from './token-bucket.ts'
import type { TokenBucketOptions } from './token-bucket.ts'

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
  entries (): IterableIterator<[string, V]> { return this.#map.entries() }
  get size (): number { return this.#map.size }
}

/**
 * What a peer makes us report (a WARN line, a node event): at most `capacity` at once and
 * `refillPerSecond` after, per peer (token-bucket.ts); what is held back is counted and handed
 * to the next report.
 */
export class ReportLimiter {
  readonly #buckets: TokenBuckets
  readonly #suppressed = new LruMap<number>(4096)
  constructor (rate: TokenBucketOptions) { this.#buckets = new TokenBuckets(rate) }

  /** undefined: stay quiet; else how many reports were held back since the last one */
  admit (peerId: string): number | undefined {
    if (!this.#buckets.take(peerId, 1)) {
      this.#suppressed.set(peerId, (this.#suppressed.get(peerId) ?? 0) + 1)
      return undefined
    }
    const held = this.#suppressed.get(peerId) ?? 0
    this.#suppressed.delete(peerId)
    return held
  }
}
