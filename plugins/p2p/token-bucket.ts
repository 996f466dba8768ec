// Per-peer token buckets: each peer may spend up to `capacity` tokens at once and earns
// `refillPerSecond` back; a request that finds too few tokens is refused. Buckets of peers
// not seen for a while are forgotten (a full bucket is the same as none), so the map stays
// bounded by the peers active in the last few refill periods.

export interface TokenBucketOptions {
  capacity: number
  refillPerSecond: number
  /** seconds */
  now?: () => number
}

interface Bucket { tokens: number; at: number }

const MAX_BUCKETS = 10_000

export class TokenBuckets {
  readonly #o: TokenBucketOptions
  readonly #buckets = new Map<string, Bucket>()

  constructor (o: TokenBucketOptions) { this.#o = o }

  #now (): number { return this.#o.now?.() ?? performance.now() / 1000 }

  /** tokens `key` holds now */
  tokens (key: string): number {
    const b = this.#buckets.get(key)
    if (b === undefined) return this.#o.capacity
    return Math.min(this.#o.capacity, b.tokens + (this.#now() - b.at) * this.#o.refillPerSecond)
  }

  /** Spends `cost` tokens of `key` if it has them; false (nothing spent) otherwise. */
  take (key: string, cost: number): boolean {
    const have = this.tokens(key)
    if (have < cost) return false
    this.#buckets.delete(key) // re-inserted last: the map's order is least recently used first
    this.#buckets.set(key, { tokens: have - cost, at: this.#now() })
    if (this.#buckets.size > MAX_BUCKETS) this.#buckets.delete(this.#buckets.keys().next().value as string)
    return true
  }
}
