// One shaped link: a TCP relay on 127.0.0.1 that the dialing node connects to instead of the
// other node. Each direction of every connection through it is delayed, rate-limited and
// counted by the link's settings (schedule.ts), which can change while it runs; a cut link
// closes its connections and refuses new ones, so both nodes see the peer go, as in a
// partition. Bytes are counted as they leave the relay (what the receiving node got).
import net from 'node:net'
import { DirectionClock, OPEN_LINK } from './schedule.ts'
import type { LinkSettings } from './schedule.ts'

/** bytes a direction may hold in flight before its sender is paused (backpressure) */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024

export interface LinkCounters {
  /** bytes from the dialing node to the listening node */
  forward: number
  /** bytes from the listening node back to the dialing node */
  backward: number
  connections: number
}

class ShapedDirection {
  readonly #clock = new DirectionClock()
  readonly #queue: Array<{ at: number; chunk: Buffer }> = []
  #queued = 0
  #timer: NodeJS.Timeout | null = null

  readonly from: net.Socket
  readonly to: net.Socket
  readonly settings: () => LinkSettings
  readonly random: () => number
  readonly count: (bytes: number) => void

  constructor (from: net.Socket, to: net.Socket, settings: () => LinkSettings, random: () => number, count: (bytes: number) => void) {
    this.from = from
    this.to = to
    this.settings = settings
    this.random = random
    this.count = count
    from.on('data', (chunk: Buffer) => { this.#push(chunk) })
  }

  #push (chunk: Buffer): void {
    const at = this.#clock.deliver(Date.now(), chunk.length, this.settings(), this.random)
    this.#queue.push({ at, chunk })
    this.#queued += chunk.length
    if (this.#queued > MAX_QUEUED_BYTES) this.from.pause()
    this.#arm()
  }

  #arm (): void {
    if (this.#timer !== null || this.#queue.length === 0) return
    const head = this.#queue[0]
    if (head === undefined) return
    this.#timer = setTimeout(() => { this.#timer = null; this.#flush() }, Math.max(0, head.at - Date.now()))
  }

  #flush (): void {
    const now = Date.now()
    while (this.#queue.length > 0 && (this.#queue[0]?.at ?? Infinity) <= now) {
      const { chunk } = this.#queue.shift() as { at: number; chunk: Buffer }
      this.#queued -= chunk.length
      if (this.to.destroyed) continue
      this.to.write(chunk)
      this.count(chunk.length)
    }
    if (this.#queued <= MAX_QUEUED_BYTES / 2 && this.from.isPaused()) this.from.resume()
    this.#arm()
  }

  /** drops what is in flight (a cut) */
  stop (): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    this.#queue.length = 0
    this.#queued = 0
  }
}

export class ShapedLink {
  readonly counters: LinkCounters = { forward: 0, backward: 0, connections: 0 }
  #settings: LinkSettings = { ...OPEN_LINK }
  readonly #server: net.Server
  readonly #sockets = new Set<net.Socket>()
  readonly #directions = new Set<ShapedDirection>()

  readonly targetPort: number
  readonly random: () => number

  constructor (targetPort: number, random: () => number) {
    this.targetPort = targetPort
    this.random = random
    this.#server = net.createServer((inbound) => { this.#accept(inbound) })
  }

  get settings (): LinkSettings { return this.#settings }

  /** listens on 127.0.0.1 (port 0: any free one); resolves with the port the dialer uses */
  async listen (port = 0): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject)
      this.#server.listen(port, '127.0.0.1', () => { this.#server.off('error', reject); resolve() })
    })
    return (this.#server.address() as net.AddressInfo).port
  }

  /** changes the settings now; in-flight chunks keep the delivery time they were given */
  set (change: Partial<LinkSettings>): void {
    this.#settings = { ...this.#settings, ...change }
    if (this.#settings.cut) this.#dropAll()
  }

  #accept (inbound: net.Socket): void {
    if (this.#settings.cut) { inbound.destroy(); return }
    const outbound = net.connect(this.targetPort, '127.0.0.1')
    for (const s of [inbound, outbound]) {
      s.setNoDelay(true)
      this.#sockets.add(s)
      s.on('error', () => { /* the other side's close follows */ })
      s.on('close', () => {
        this.#sockets.delete(s)
        inbound.destroy()
        outbound.destroy()
      })
    }
    this.counters.connections++
    const settings = (): LinkSettings => this.#settings
    const fwd = new ShapedDirection(inbound, outbound, settings, this.random, (n) => { this.counters.forward += n })
    const back = new ShapedDirection(outbound, inbound, settings, this.random, (n) => { this.counters.backward += n })
    this.#directions.add(fwd).add(back)
    inbound.on('close', () => { fwd.stop(); back.stop(); this.#directions.delete(fwd); this.#directions.delete(back) })
  }

  #dropAll (): void {
    for (const d of this.#directions) d.stop()
    this.#directions.clear()
    for (const s of this.#sockets) s.destroy()
    this.#sockets.clear()
  }

  async close (): Promise<void> {
    this.#dropAll()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }
}
