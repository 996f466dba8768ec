// The event hub: deduplicates per type, numbers each event, keeps a ring for Last-Event-ID
// replay and fans the serialized frame out to every open connection. Event ids start at the
// boot time in microseconds, so ids keep growing across restarts and a client's
// Last-Event-ID from an earlier run asks for everything this run holds.
import type { EventDraft, StreamEvent } from './events.ts'
import { DedupeWindow } from './dedupe.ts'
import { EventRing } from './ring.ts'
import type { SseConnection } from './connection.ts'

export interface HubOptions {
  dedupeWindow: number
  replaySize: number
  heartbeatMs: number
  /** whether a session still stands (checked at each heartbeat for connections that have one) */
  sessionActive: (sessionHash: string) => boolean
  firstId?: number
}

export interface HubStats { connections: number; published: number; deduplicated: number; dropped: number; lastId: number }

export class EventHub {
  readonly #opts: HubOptions
  readonly #dedupe = new Map<string, DedupeWindow>()
  readonly #ring: EventRing
  readonly #connections = new Set<SseConnection>()
  readonly #timer: NodeJS.Timeout
  #nextId: number
  #published = 0
  #deduplicated = 0
  #droppedByClosed = 0

  constructor (opts: HubOptions) {
    this.#opts = opts
    this.#ring = new EventRing(opts.replaySize)
    this.#nextId = opts.firstId ?? Date.now() * 1000
    this.#timer = setInterval(() => this.#tick(), opts.heartbeatMs)
    this.#timer.unref()
  }

  get size (): number { return this.#connections.size }

  /** Publishes an event unless its type has seen its key recently; returns the event or null. */
  publish (draft: EventDraft<string>): StreamEvent | null {
    if (draft.key !== null && !this.#window(draft.type).admit(draft.key)) {
      this.#deduplicated++
      return null
    }
    const id = this.#nextId++
    const event: StreamEvent = { id, type: draft.type, addresses: draft.addresses, frame: `id: ${id}\ndata: ${JSON.stringify(draft.payload)}\n\n` }
    this.#ring.push(event)
    this.#published++
    for (const c of this.#connections) c.offer(event)
    return event
  }

  /** Adds a connection, first replaying what it missed after `lastEventId`. */
  attach (conn: SseConnection, lastEventId: number | null): void {
    if (lastEventId !== null) for (const e of this.#ring.after(lastEventId)) conn.offer(e)
    this.#connections.add(conn)
  }

  detach (conn: SseConnection): void {
    if (this.#connections.delete(conn)) this.#droppedByClosed += conn.dropped
    conn.detach()
  }

  stats (): HubStats {
    let dropped = this.#droppedByClosed
    for (const c of this.#connections) dropped += c.dropped
    return { connections: this.#connections.size, published: this.#published, deduplicated: this.#deduplicated, dropped, lastId: this.#nextId - 1 }
  }

  close (): void {
    clearInterval(this.#timer)
    for (const c of this.#connections) c.close()
    this.#connections.clear()
  }

  #window (type: string): DedupeWindow {
    let w = this.#dedupe.get(type)
    if (w === undefined) this.#dedupe.set(type, w = new DedupeWindow(this.#opts.dedupeWindow))
    return w
  }

  #tick (): void {
    for (const c of this.#connections) {
      if (c.sessionHash !== null && !this.#opts.sessionActive(c.sessionHash)) {
        this.#connections.delete(c)
        c.close()
        continue
      }
      c.heartbeat()
    }
  }
}
