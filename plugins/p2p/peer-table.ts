// The peers this node has completed a handshake with, and what each claims about its chain.
// Only handshaken peers count: a connection that has not shown the same chain id and genesis
// is not a peer of this network.
import type { PeerInfo } from '../../core/kernel/services.ts'
import type { StatusMessage } from './protocol.ts'

export interface PeerRecord {
  peerId: string
  address: string
  version: string
  connectedAt: number
  bestHeight: number
  bestHash: string
  bestWork: bigint
  /** who dialed */
  direction?: 'inbound' | 'outbound'
  /** the last status round trip (ms); Infinity until measured */
  pingMs: number
  /** when the peer last gave us a block we stored / a transaction we admitted (ms; 0: never) */
  lastBlockAt: number
  lastTxAt: number
}

export class PeerTable {
  readonly #peers = new Map<string, PeerRecord>()

  get size (): number { return this.#peers.size }
  has (peerId: string): boolean { return this.#peers.has(peerId) }
  get (peerId: string): PeerRecord | undefined { return this.#peers.get(peerId) }
  all (): PeerRecord[] { return [...this.#peers.values()] }

  add (peerId: string, address: string, status: StatusMessage, connectedAt: number, direction?: 'inbound' | 'outbound'): PeerRecord {
    const record: PeerRecord = { peerId, address, version: status.version, connectedAt, bestHeight: 0, bestHash: status.best_hash, bestWork: 0n, pingMs: Infinity, lastBlockAt: 0, lastTxAt: 0 }
    if (direction !== undefined) record.direction = direction
    this.#peers.set(peerId, record)
    this.noteStatus(peerId, status)
    return record
  }

  remove (peerId: string): PeerRecord | undefined {
    const r = this.#peers.get(peerId)
    this.#peers.delete(peerId)
    return r
  }

  /** A fresh status replaces what we knew, even when it is lower (the peer reorganized). */
  noteStatus (peerId: string, status: StatusMessage): void {
    const r = this.#peers.get(peerId)
    if (r === undefined) return
    r.version = status.version
    r.bestHeight = status.best_height
    r.bestHash = status.best_hash
    r.bestWork = BigInt(status.best_work)
  }

  /** A block the peer relayed or served: it has at least this much work. */
  noteBlock (peerId: string, height: number, hash: string, work: bigint): void {
    const r = this.#peers.get(peerId)
    if (r === undefined) return
    r.lastBlockAt = Date.now()
    if (work <= r.bestWork) return
    r.bestHeight = height
    r.bestHash = hash
    r.bestWork = work
  }

  /** The peer claiming the most work (ties: the longest-connected). */
  best (): PeerRecord | undefined {
    let best: PeerRecord | undefined
    for (const r of this.#peers.values()) if (best === undefined || r.bestWork > best.bestWork) best = r
    return best
  }

  /** The SPEC 2.2 peer records. */
  list (): PeerInfo[] {
    return this.all().map((r) => ({
      peer_id: r.peerId,
      address: r.address,
      version: r.version,
      best_height: r.bestHeight,
      connected_at: r.connectedAt,
      ...(r.direction === undefined ? {} : { direction: r.direction })
    }))
  }
}
