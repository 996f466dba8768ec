// A least-recently-used cache bounded by entry count and by a caller-measured size (bytes):
// the chain's decoded blocks and transactions (immutable, keyed by content: never stale, only
// evicted) and the explorer's ready-to-send answers (dropped with clear() when a reorg could
// change them). Map iteration order is insertion order, so the first key is the least recent.

export class BoundedCache<K, V> {
  readonly #entries = new Map<K, { value: V; size: number }>()
  readonly #maxEntries: number
  readonly #maxSize: number
  #size = 0

  constructor (opts: { maxEntries: number; maxSize: number }) {
    this.#maxEntries = opts.maxEntries
    this.#maxSize = opts.maxSize
  }

  get (key: K): V | undefined {
    const e = this.#entries.get(key)
    if (e === undefined) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, e)
    return e.value
  }

  /** A value larger than the whole budget is not kept. */
  set (key: K, value: V, size: number): void {
    const old = this.#entries.get(key)
    if (old !== undefined) { this.#entries.delete(key); this.#size -= old.size }
    if (size > this.#maxSize) return
    this.#entries.set(key, { value, size })
    this.#size += size
    while (this.#entries.size > this.#maxEntries || this.#size > this.#maxSize) {
      const [first, e] = this.#entries.entries().next().value as [K, { value: V; size: number }]
      this.#entries.delete(first)
      this.#size -= e.size
    }
  }

  /** whether `key` is kept (without making it the most recent) */
  has (key: K): boolean { return this.#entries.has(key) }

  delete (key: K): void {
    const e = this.#entries.get(key)
    if (e === undefined) return
    this.#entries.delete(key)
    this.#size -= e.size
  }

  clear (): void { this.#entries.clear(); this.#size = 0 }
  /** false for a zero budget: nothing would be kept, so a caller need prepare nothing */
  get keeps (): boolean { return this.#maxSize > 0 && this.#maxEntries > 0 }
  get entries (): number { return this.#entries.size }
  get size (): number { return this.#size }
}
