// Peer scoring and bans. Each offence adds points to the peer id and to its address; at
// BAN_THRESHOLD the id is banned for a period, and so is the address (ids are free: a new key
// per connection would otherwise reset the score), except the shared loopback addresses
// (every node of a local testbed is 127.0.0.1). Bans survive restarts (<dataDir>/p2p-bans.json,
// written asynchronously by BanStore) and their number is bounded (those expiring first go
// first). A score fades by one point per minute without offences, so the rare slip of an
// honest peer (a timeout, a block that lost a race) never adds up, while an attacker must
// keep under that rate.
import type { TxRefusalClass } from '../../core/chain/errors.ts'
import { BanStore } from './ban-store.ts'
import { isSharedAddress } from './netgroup.ts'

export const PENALTY = {
  /** a block or header that fails consensus rules (proof-of-work, attestation, linkage …) */
  invalidBlock: 50,
  /** undecodable or oversized data, a response that does not answer the request */
  malformed: 25,
  /** a transaction no honest node would relay (bad signature, id or format) */
  invalidTx: 10,
  /** a transaction that fails against our chain (nonce, balance, expired): junk, or an honest relay's rare race (fades in a minute) */
  staleTx: 1,
  /** a block on a branch forking deeper than the reorg limit (it can never win; cheap to make) */
  staleBlock: 20,
  /** a status claiming more work than the sync from the peer then delivered */
  unbackedClaim: 10,
  /** a side block lighter than our tip (an honest relay does this only in a rare race) */
  lightBlock: 5,
  /** a request that timed out */
  unresponsive: 5,
  /** a response the peer asked for and then did not read (it held a serving slot) */
  unreadResponse: 10,
  /** a headers request over the peer's rate (HEADERS_RATE in p2p.ts) */
  headersFlood: 5,
  /** a block with valid work that breaks a rule needing no state (a timestamp at or before its
   *  parent's, or beyond the future drift): useless, and an honest clock rarely does it */
  uselessBlock: 5,
  /** a block with valid work whose parent we do not know (a partition's tip does this honestly,
   *  once per block until the sync it starts catches up) */
  orphanBlock: 2,
  /** the same block announced again by the same peer (gossip never repeats a message) */
  duplicateBlock: 2,
  /** a transaction id announced again to the same peer (an honest node remembers) */
  duplicateInv: 2,
  /** more transaction ids than the per-peer announcement budget allows */
  invFlood: 20
} as const

/** points for a gossiped transaction the mempool refused, by the refusal's class */
export const TX_REFUSAL_PENALTY: Record<TxRefusalClass, number> = { invalid: PENALTY.invalidTx, stale: PENALTY.staleTx, policy: 0 }

export const BAN_THRESHOLD = 100
/** points a score loses per whole minute without offences */
export const DECAY_PER_MINUTE = 1

export interface Ban {
  /** empty for a ban of an address alone */
  peer_id: string
  /** the IP address banned with the id (absent for a shared loopback address) */
  address?: string
  until: number
  reason: string
}

export interface MisbehaviourOptions {
  /** where bans are persisted; null keeps them in memory only */
  file: string | null
  banSeconds: number
  now?: () => number
  onBan?: (peerId: string, reason: string) => void
  /** a ban list write failed (the bans stay in memory) */
  onPersistError?: (err: NodeJS.ErrnoException) => void
  /** most bans kept (default 10,000) */
  maxBans?: number
}

const MAX_TRACKED = 10_000
const MAX_BANS = 10_000

export class Misbehaviour {
  readonly #opts: MisbehaviourOptions
  readonly #scores = new Map<string, { points: number; at: number }>()
  readonly #bans = new Map<string, Ban>()
  readonly #byAddress = new Map<string, Ban>()
  readonly #now: () => number
  readonly #store: BanStore | null
  readonly #maxBans: number

  constructor (opts: MisbehaviourOptions) {
    this.#opts = opts
    this.#now = opts.now ?? (() => Date.now() / 1000)
    this.#maxBans = opts.maxBans ?? MAX_BANS
    this.#store = opts.file === null ? null : new BanStore({ file: opts.file, onError: opts.onPersistError })
    this.#load()
  }

  score (peerId: string): number { return this.#scoreOf(peerId) }

  /** the points the address has collected across all the ids seen there */
  addressScore (address: string): number { return this.#scoreOf(`ip:${address}`) }

  #scoreOf (key: string): number {
    const s = this.#scores.get(key)
    if (s === undefined) return 0
    return Math.max(0, s.points - Math.floor((this.#now() - s.at) / 60) * DECAY_PER_MINUTE)
  }

  #add (key: string, points: number): number {
    const score = this.#scoreOf(key) + points
    if (!this.#scores.has(key) && this.#scores.size >= MAX_TRACKED) this.#scores.delete(this.#scores.keys().next().value as string)
    this.#scores.set(key, { points: score, at: this.#now() })
    return score
  }

  /**
   * Adds points to the id and (unless it is a shared loopback address) to its address;
   * returns true when this offence got the peer banned.
   */
  penalize (peerId: string, points: number, reason: string, address?: string): boolean {
    const scoredAddress = address !== undefined && !isSharedAddress(address) ? address : undefined
    if (this.isBanned(peerId) || (scoredAddress !== undefined && this.isAddressBanned(scoredAddress))) return false
    const score = this.#add(peerId, points)
    const addressScore = scoredAddress === undefined ? 0 : this.#add(`ip:${scoredAddress}`, points)
    if (score < BAN_THRESHOLD && addressScore < BAN_THRESHOLD) return false
    this.#scores.delete(peerId)
    if (scoredAddress !== undefined) this.#scores.delete(`ip:${scoredAddress}`)
    this.#insert({ peer_id: peerId, ...(scoredAddress === undefined ? {} : { address: scoredAddress }), until: this.#now() + this.#opts.banSeconds, reason })
    this.#save()
    this.#opts.onBan?.(peerId, reason)
    return true
  }

  isBanned (peerId: string): boolean {
    const ban = this.#bans.get(peerId)
    if (ban === undefined) return false
    if (ban.until > this.#now()) return true
    this.#drop(ban)
    return false
  }

  isAddressBanned (address: string): boolean {
    const ban = this.#byAddress.get(address)
    if (ban === undefined) return false
    if (ban.until > this.#now()) return true
    this.#drop(ban)
    return false
  }

  bans (): Ban[] { return [...new Set([...this.#bans.values(), ...this.#byAddress.values()])].filter((b) => b.until > this.#now()) }

  /** Resolves once the ban list on disk is as current as it can be (tests, shutdown). */
  async flush (): Promise<void> { await this.#store?.flush() }

  #insert (ban: Ban): void {
    if (ban.peer_id !== '') this.#bans.set(ban.peer_id, ban)
    if (ban.address !== undefined) this.#byAddress.set(ban.address, ban)
    while (this.#bans.size > this.#maxBans || this.#byAddress.size > this.#maxBans) {
      // the one expiring first goes first (an expired one before any other)
      let first: Ban | undefined
      for (const b of this.#bans.size > this.#maxBans ? this.#bans.values() : this.#byAddress.values()) if (first === undefined || b.until < first.until) first = b
      if (first === undefined) break
      this.#drop(first)
    }
  }

  /** Forgets a ban (expired or pushed out); the file catches up with the next ban. */
  #drop (ban: Ban): void {
    if (this.#bans.get(ban.peer_id) === ban) this.#bans.delete(ban.peer_id)
    if (ban.address !== undefined && this.#byAddress.get(ban.address) === ban) this.#byAddress.delete(ban.address)
  }

  #load (): void {
    const now = this.#now()
    const list = (this.#store?.load() ?? []) as Array<Partial<Ban> | null>
    for (const b of list) {
      if (b === null || typeof b !== 'object' || typeof b.until !== 'number' || b.until <= now) continue
      const peerId = typeof b.peer_id === 'string' ? b.peer_id : ''
      const address = typeof b.address === 'string' && b.address !== '' ? b.address : undefined
      if (peerId === '' && address === undefined) continue
      this.#insert({ peer_id: peerId, ...(address === undefined ? {} : { address }), until: b.until, reason: typeof b.reason === 'string' ? b.reason : '' })
    }
  }

  #save (): void { this.#store?.schedule(() => this.bans()) }
}
