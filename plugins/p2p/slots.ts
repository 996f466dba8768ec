// A counting semaphore: at most `n` holders at once, the rest wait in arrival order. The
// node serves block bodies through one, so what all peers together make it read and buffer
// is bounded (each response is itself bounded by its byte budget), not only what one may.
export class Slots {
  #free: number
  readonly #waiting: Array<() => void> = []

  constructor (n: number) { this.#free = n }

  get waiting (): number { return this.#waiting.length }

  async acquire (): Promise<void> {
    if (this.#free > 0) {
      this.#free--
      return
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }

  release (): void {
    const next = this.#waiting.shift()
    if (next !== undefined) next()
    else this.#free++
  }

  /** Yields what `source` yields while holding a slot (released however the consumer stops). */
  async * hold<T> (source: () => AsyncIterable<T>): AsyncGenerator<T> {
    await this.acquire()
    try {
      yield * source()
    } finally {
      this.release()
    }
  }
}
