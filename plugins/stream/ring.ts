// The most recent events, kept so a client reconnecting with Last-Event-ID gets what it
// missed while the server still holds it.
import type { StreamEvent } from './events.ts'

export class EventRing {
  readonly #size: number
  readonly #events: StreamEvent[] = []

  constructor (size: number) { this.#size = size }

  push (e: StreamEvent): void {
    this.#events.push(e)
    if (this.#events.length > this.#size) this.#events.shift()
  }

  /** events with an id above `lastId`, oldest first */
  after (lastId: number): StreamEvent[] {
    let i = this.#events.length
    while (i > 0 && (this.#events[i - 1] as StreamEvent).id > lastId) i--
    return this.#events.slice(i)
  }
}
