// One chat message per 5 seconds per sender address (SPEC 8), keyed by address, not session:
// two browsers logged in as one user share the budget.

export class AddressRateLimit {
  readonly #windowSeconds: number
  readonly #now: () => number
  readonly #lastSent = new Map<string, number>()

  constructor (windowSeconds: number, now: () => number = () => Date.now() / 1000) {
    this.#windowSeconds = windowSeconds
    this.#now = now
  }

  /** whole seconds the address must still wait, 0 when it may send now */
  waitSeconds (address: string): number {
    const last = this.#lastSent.get(address)
    if (last === undefined) return 0
    const left = last + this.#windowSeconds - this.#now()
    return left > 0 ? Math.ceil(left) : 0
  }

  record (address: string): void {
    const now = this.#now()
    if (this.#lastSent.size > 1000) {
      for (const [a, t] of this.#lastSent) if (t + this.#windowSeconds <= now) this.#lastSent.delete(a)
    }
    this.#lastSent.set(address, now)
  }
}
