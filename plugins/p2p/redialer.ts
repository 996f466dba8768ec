// Keeps the configured bootstrap peers connected: dials each one that has no connection,
// backing off exponentially while it is unreachable, so a partition heals by itself once
// the network between the nodes is back.
import type { Logger } from 'pino'
import type { Multiaddr } from '@multiformats/multiaddr'
import type { LedgerLibp2p } from './libp2p-node.ts'
import { peerIdOf } from './address.ts'

interface Target {
  addr: Multiaddr
  /** learned on the first successful dial (or given in the multiaddr) */
  peerId: string | undefined
  nextAt: number
  backoffMs: number
  dialing: boolean
}

export interface RedialerOptions {
  node: LedgerLibp2p
  addrs: Multiaddr[]
  logger: Logger
  intervalMs: number
  maxBackoffMs: number
}

export class Redialer {
  readonly #o: RedialerOptions
  readonly #targets: Target[]
  #timer: NodeJS.Timeout | null = null

  constructor (o: RedialerOptions) {
    this.#o = o
    this.#targets = o.addrs.map((addr) => ({ addr, peerId: peerIdOf(addr), nextAt: 0, backoffMs: o.intervalMs, dialing: false }))
  }

  start (): void {
    this.tick()
    this.#timer = setInterval(() => this.tick(), this.#o.intervalMs)
    this.#timer.unref()
  }

  stop (): void {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
  }

  /** Waits longer before dialing this peer again (another network, or it misbehaved). */
  holdOff (peerId: string, ms: number): void {
    for (const t of this.#targets) if (t.peerId === peerId) t.nextAt = Date.now() + ms
  }

  /** one of the configured bootstrap peers (its slot is protected from eviction) */
  isBootstrap (peerId: string): boolean { return this.#targets.some((t) => t.peerId === peerId) }

  tick (): void {
    const now = Date.now()
    for (const t of this.#targets) {
      if (t.dialing || now < t.nextAt || this.#connected(t)) continue
      t.dialing = true
      this.#o.node.dial(t.addr, { signal: AbortSignal.timeout(10_000) }).then((conn) => {
        t.peerId = conn.remotePeer.toString()
        t.backoffMs = this.#o.intervalMs
        t.nextAt = Date.now() + t.backoffMs
      }, (err: unknown) => {
        this.#o.logger.debug({ peer: t.addr.toString(), err: (err as Error).message }, 'dial failed')
        t.backoffMs = Math.min(t.backoffMs * 2, this.#o.maxBackoffMs)
        t.nextAt = Date.now() + t.backoffMs
      }).finally(() => { t.dialing = false })
    }
  }

  #connected (t: Target): boolean {
    if (t.peerId === undefined) return false
    return this.#o.node.getConnections().some((c) => c.remotePeer.toString() === t.peerId && c.status === 'open')
  }
}
