// One SSE client. Frames go straight to the socket while it accepts them; when the socket
// pushes back, up to `queueSize` events wait for 'drain' and anything beyond is dropped
// silently (SPEC 6 rule 2): a slow reader costs the node a bounded amount of memory and
// never slows the chain.
import type { EventFilter } from './filter.ts'
import { matches } from './filter.ts'
import type { StreamEvent } from './events.ts'

/** what a connection writes to: an http.ServerResponse in the node, a fake in unit tests */
export interface SseSink {
  write(chunk: string): boolean
  once(event: 'drain', listener: () => void): unknown
  end(): void
}

export const HEARTBEAT_FRAME = ':heartbeat\n\n'

export class SseConnection {
  readonly filter: EventFilter
  /** SHA3-256 of the session token; the hub closes the stream once the session is gone (null:
   *  the node-local stream, guarded by the dashboard's own policy instead) */
  readonly sessionHash: string | null
  readonly #sink: SseSink
  readonly #queueSize: number
  readonly #queue: string[] = []
  #waitingForDrain = false
  #closed = false
  dropped = 0

  constructor (sink: SseSink, filter: EventFilter, sessionHash: string | null, queueSize: number) {
    this.#sink = sink
    this.filter = filter
    this.sessionHash = sessionHash
    this.#queueSize = queueSize
  }

  get queued (): number { return this.#queue.length }
  get closed (): boolean { return this.#closed }

  /** Queues the event if it passes the filter; false when the queue was full and it was dropped. */
  offer (e: StreamEvent): boolean {
    if (this.#closed || !matches(this.filter, e)) return true
    if (this.#queue.length >= this.#queueSize) {
      this.dropped++
      return false
    }
    this.#queue.push(e.frame)
    this.#flush()
    return true
  }

  /** a comment line that keeps intermediaries from timing the stream out; skipped while events wait */
  heartbeat (): void {
    if (this.#closed || this.#waitingForDrain || this.#queue.length > 0) return
    this.#sink.write(HEARTBEAT_FRAME)
  }

  close (): void {
    if (this.#closed) return
    this.#closed = true
    this.#queue.length = 0
    this.#sink.end()
  }

  /** the client went away */
  detach (): void {
    this.#closed = true
    this.#queue.length = 0
  }

  #flush (): void {
    while (!this.#waitingForDrain && !this.#closed && this.#queue.length > 0) {
      const frame = this.#queue.shift() as string
      if (!this.#sink.write(frame)) {
        this.#waitingForDrain = true
        this.#sink.once('drain', () => {
          this.#waitingForDrain = false
          this.#flush()
        })
      }
    }
  }
}
