// A bounded "seen" set per event type (SPEC 6 rule 3): the oldest keys fall out first, so
// memory stays fixed however long the node runs.

export class DedupeWindow {
  readonly #size: number
  readonly #seen = new Set<string>()

  constructor (size: number) { this.#size = size }

  /** true the first time `key` is offered within the window */
  admit (key: string): boolean {
    if (this.#seen.has(key)) return false
    this.#seen.add(key)
    if (this.#seen.size > this.#size) this.#seen.delete(this.#seen.values().next().value as string)
    return true
  }
}
