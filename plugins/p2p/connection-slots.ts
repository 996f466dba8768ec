// Who may hold one of this node's connection slots, enforced from libp2p's connection gater
// at each step of an inbound upgrade:
// - before any byte is read (denyInboundConnection): a banned address is refused, and an
//   address or netgroup may have only a few upgrades pending at once, so a handful of
//   silent sockets cannot use up the node's budget of pending upgrades;
// - once the peer has proven its id (denyInboundEncryptedConnection): a banned id is refused;
// - once upgraded (denyInboundUpgradedConnection): per id, per address and per netgroup
//   limits on established inbound connections; when the inbound slots are all taken, the
//   least useful inbound peer is evicted for the newcomer (eviction.ts), or the newcomer is
//   refused when every inbound peer is protected.
// Outbound slots are not counted against inbound ones: the dials this node makes (bootstrap
// peers, the operator's connects) always find room.
import { randomBytes } from 'node:crypto'
import type { Multiaddr } from '@multiformats/multiaddr'
import { ipOf, isSharedAddress, netgroupOf } from './netgroup.ts'
import { selectEvictionVictim } from './eviction.ts'
import { hostPort } from './address.ts'
import type { EvictionCandidate } from './eviction.ts'

export interface SlotLimits {
  /** established inbound connections */
  maxInbound: number
  /** established inbound connections from one address (shared loopback exempt) */
  perAddress: number
  /** established inbound connections from one netgroup (shared loopback exempt) */
  perNetgroup: number
  /** connections (either direction) with one peer id */
  perPeerId: number
  /** upgrades in progress from one address */
  pendingPerAddress: number
  /** upgrades in progress from one netgroup */
  pendingPerNetgroup: number
  /** a pending upgrade older than this is no longer counted (libp2p has aborted it by then) */
  upgradeTimeoutMs: number
}

/** An open connection as the slots see it. */
export interface SlotConnection {
  id: string
  peerId: string
  remoteAddr: Multiaddr
  direction: 'inbound' | 'outbound'
  /** ms since the epoch */
  openedAt: number
}

export interface PeerUsefulness { pingMs: number; lastBlockAt: number; lastTxAt: number; protected: boolean }

export interface SlotsView {
  connections(): SlotConnection[]
  usefulness(peerId: string): PeerUsefulness
  close(connectionId: string): Promise<void>
  isBanned(peerId: string): boolean
  isAddressBanned(ip: string): boolean
  now?: () => number
}

/** What a refusal was for (counted, so tests and metrics can tell them apart). */
export type Refusal = 'banned' | 'pending' | 'peer-id' | 'address' | 'netgroup' | 'full'

interface Pending { ip: string; netgroup: string; at: number }
/** a connection admitted by the gater that libp2p has not listed yet */
interface Admitted { peerId: string; remoteAddr: Multiaddr; at: number }
/** how long an admitted connection is counted before libp2p lists it (it normally takes microseconds) */
const ADMITTED_GRACE_MS = 2_000

export class ConnectionSlots {
  readonly limits: SlotLimits
  readonly #view: SlotsView
  readonly #pending = new Map<object, Pending>()
  #admitted: Admitted[] = []
  readonly #key = randomBytes(16).toString('hex')
  readonly refused: Record<Refusal, number> = { banned: 0, pending: 0, 'peer-id': 0, address: 0, netgroup: 0, full: 0 }
  evicted = 0

  constructor (limits: SlotLimits, view: SlotsView) {
    this.limits = limits
    this.#view = view
  }

  #now (): number { return this.#view.now?.() ?? Date.now() }

  #refuse (why: Refusal): true {
    this.refused[why]++
    return true
  }

  /** the upgrades in progress now (stale entries dropped) */
  get pending (): number {
    this.#sweep()
    return this.#pending.size
  }

  #sweep (): void {
    const oldest = this.#now() - this.limits.upgradeTimeoutMs - 1000
    for (const [k, p] of this.#pending) if (p.at < oldest) this.#pending.delete(k)
  }

  /** gater: a socket was accepted, nothing read yet. `conn` is released when it closes or upgrades. */
  denyInboundConnection (conn: { remoteAddr: Multiaddr, addEventListener?: (type: 'close', fn: () => void) => void }): boolean {
    const ip = ipOf(conn.remoteAddr)
    if (ip === undefined) return false
    if (this.#view.isAddressBanned(ip)) return this.#refuse('banned')
    if (!isSharedAddress(ip)) {
      this.#sweep()
      const netgroup = netgroupOf(ip)
      let sameIp = 0
      let sameGroup = 0
      for (const p of this.#pending.values()) {
        if (p.ip === ip) sameIp++
        if (p.netgroup === netgroup) sameGroup++
      }
      if (sameIp >= this.limits.pendingPerAddress || sameGroup >= this.limits.pendingPerNetgroup) return this.#refuse('pending')
      this.#pending.set(conn, { ip, netgroup, at: this.#now() })
      conn.addEventListener?.('close', () => { this.#pending.delete(conn) })
    }
    return false
  }

  /** gater: the peer proved its id. */
  denyInboundEncryptedConnection (peerId: string): boolean {
    return this.#view.isBanned(peerId) ? this.#refuse('banned') : false
  }

  /** gater: the upgrade is done; the connection is admitted only if it finds a slot. */
  async denyInboundUpgradedConnection (peerId: string, conn: { remoteAddr: Multiaddr }): Promise<boolean> {
    this.#pending.delete(conn)
    if (this.#view.isBanned(peerId)) return this.#refuse('banned')
    const ip = ipOf(conn.remoteAddr)
    const all = this.#established()
    if (all.filter((c) => c.peerId === peerId).length >= this.limits.perPeerId) return this.#refuse('peer-id')
    const inbound = all.filter((c) => c.direction === 'inbound')
    if (ip !== undefined && !isSharedAddress(ip)) {
      const group = netgroupOf(ip)
      const ips = inbound.map((c) => ipOf(c.remoteAddr))
      if (ips.filter((x) => x === ip).length >= this.limits.perAddress) return this.#refuse('address')
      if (ips.filter((x) => x !== undefined && netgroupOf(x) === group).length >= this.limits.perNetgroup) return this.#refuse('netgroup')
    }
    const admit = (): false => {
      this.#admitted.push({ peerId, remoteAddr: conn.remoteAddr, at: this.#now() })
      return false
    }
    if (inbound.length < this.limits.maxInbound) return admit()
    const victim = selectEvictionVictim(inbound.filter((c) => c.id !== '').map((c) => this.#candidate(c)), this.#key)
    if (victim === undefined) return this.#refuse('full')
    this.evicted++
    await this.#view.close(victim.id).catch(() => undefined)
    return admit()
  }

  /**
   * Open connections plus those admitted a moment ago that libp2p does not list yet: many
   * upgrades finishing at once must not all see the same free slot.
   */
  #established (): SlotConnection[] {
    const open = this.#view.connections()
    const listed = new Set(open.map((c) => hostPort(c.remoteAddr)))
    const since = this.#now() - ADMITTED_GRACE_MS
    this.#admitted = this.#admitted.filter((a) => a.at >= since && !listed.has(hostPort(a.remoteAddr)))
    return [...open, ...this.#admitted.map((a) => ({ id: '', peerId: a.peerId, remoteAddr: a.remoteAddr, direction: 'inbound' as const, openedAt: a.at }))]
  }

  #candidate (c: SlotConnection): EvictionCandidate {
    const ip = ipOf(c.remoteAddr)
    const u = this.#view.usefulness(c.peerId)
    return { id: c.id, netgroup: ip === undefined ? c.remoteAddr.toString() : netgroupOf(ip), connectedAt: c.openedAt, ...u }
  }
}

/** The slot limits for a node allowed `maxPeers` connections in all. */
export function slotLimits (maxPeers: number): SlotLimits {
  // a quarter of the slots (at most 8) stay for the dials this node makes itself
  const outbound = Math.min(8, Math.floor(maxPeers / 4))
  return {
    maxInbound: Math.max(1, maxPeers - outbound),
    perAddress: 4,
    perNetgroup: 8,
    perPeerId: 2,
    pendingPerAddress: 2,
    pendingPerNetgroup: 8,
    upgradeTimeoutMs: INBOUND_UPGRADE_TIMEOUT_MS
  }
}

/** how long an inbound connection has to finish noise and yamux (libp2p's default: 10 s) */
export const INBOUND_UPGRADE_TIMEOUT_MS = 5_000
/** inbound upgrades in progress at once across all addresses (libp2p's default: 10) */
export const MAX_PENDING_INBOUND = 64
