// The byte pool: mixed batches queued in arrival order, each remembering which sources
// produced it. Taking bytes consumes them (the memory is zeroed), so no byte is served twice,
// and a draw names exactly the sources of the batches it came from.

export interface PoolTake {
  bytes: Uint8Array
  /** sorted ids of the sources mixed into the bytes taken */
  contributors: string[]
  /** beacon rounds of those batches, by source id (the latest when a draw spans batches) */
  rounds: Record<string, number>
}

interface Batch {
  bytes: Uint8Array
  offset: number
  contributors: readonly string[]
  rounds: Readonly<Record<string, number>>
}

export class EntropyPool {
  readonly capacity: number
  readonly #batches: Batch[] = []
  #available = 0

  constructor (capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError('pool capacity must be a positive integer')
    this.capacity = capacity
  }

  get available (): number { return this.#available }

  get room (): number { return this.capacity - this.#available }

  /** Queues a mixed batch, cut to the room left; returns how many bytes were kept. */
  add (bytes: Uint8Array, contributors: readonly string[], rounds: Readonly<Record<string, number>> = {}): number {
    const kept = Math.min(bytes.length, this.room)
    if (kept > 0) {
      this.#batches.push({ bytes: bytes.slice(0, kept), offset: 0, contributors: [...contributors].sort(), rounds: { ...rounds } })
      this.#available += kept
    }
    bytes.fill(0)
    return kept
  }

  /** Removes and returns the next n bytes; throws when fewer are available. */
  take (n: number): PoolTake {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`)
    if (n > this.#available) throw new RangeError(`pool holds ${this.#available} bytes, asked for ${n}`)
    const out = new Uint8Array(n)
    const contributors = new Set<string>()
    const rounds: Record<string, number> = {}
    let at = 0
    while (at < n) {
      const batch = this.#batches[0] as Batch
      const count = Math.min(n - at, batch.bytes.length - batch.offset)
      const slice = batch.bytes.subarray(batch.offset, batch.offset + count)
      out.set(slice, at)
      slice.fill(0)
      at += count
      batch.offset += count
      for (const c of batch.contributors) contributors.add(c)
      Object.assign(rounds, batch.rounds)
      if (batch.offset === batch.bytes.length) this.#batches.shift()
    }
    this.#available -= n
    return { bytes: out, contributors: [...contributors].sort(), rounds }
  }

  /** Drops every byte (zeroed). */
  clear (): void {
    for (const b of this.#batches) b.bytes.fill(0)
    this.#batches.length = 0
    this.#available = 0
  }
}
