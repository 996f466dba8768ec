// Peer scoring and bans. Each offence adds points; at BAN_THRESHOLD the peer is banned for
// a period, which survives restarts (<dataDir>/p2p-bans.json). Bans are by peer id: several
// honest nodes may share one IP (NAT, or every node of a test on 127.0.0.1). A score fades by
// one point per minute without offences, so the rare slip of an honest peer (a timeout, a
// block that lost a race) never adds up, while an attacker must keep under that rate.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'

export const PENALTY = {
  /** a block or header that fails consensus rules (proof-of-work, attestation, linkage …) */
  invalidBlock: 50,
  /** undecodable or oversized data, a response that does not answer the request */
  malformed: 25,
  /** a transaction no honest node would relay (bad signature, id or format) */
  invalidTx: 10,
  /** a block on a branch forking deeper than the reorg limit (it can never win; cheap to make) */
  staleBlock: 20,
  /** a status claiming more work than the sync from the peer then delivered */
  unbackedClaim: 10,
  /** a side block lighter than our tip (an honest relay does this only in a rare race) */
  lightBlock: 5,
  /** a request that timed out */
  unresponsive: 5,
  /** a block with valid work that breaks a rule needing no state (a timestamp at or before its
   *  parent's, or beyond the future drift): useless, and an honest clock rarely does it */
  uselessBlock: 5,
  /** a block with valid work whose parent we do not know (a partition's tip does this honestly,
   *  once per block until the sync it starts catches up) */
  orphanBlock: 2,
  /** the same block announced again by the same peer (gossip never repeats a message) */
  duplicateBlock: 2,
  /** a valid transaction our state refuses (nonce, balance, unknown key) */
  uselessTx: 2,
  /** a transaction id announced again to the same peer (an honest node remembers) */
  duplicateInv: 2,
  /** more transaction ids than the per-peer announcement budget allows */
  invFlood: 20
} as const

export const BAN_THRESHOLD = 100
/** points a score loses per whole minute without offences */
export const DECAY_PER_MINUTE = 1

export interface Ban { peer_id: string; until: number; reason: string }

export interface MisbehaviourOptions {
  /** where bans are persisted; null keeps them in memory only */
  file: string | null
  banSeconds: number
  now?: () => number
  onBan?: (peerId: string, reason: string) => void
}

const MAX_TRACKED = 10_000

export class Misbehaviour {
  readonly #opts: MisbehaviourOptions
  readonly #scores = new Map<string, { points: number; at: number }>()
  readonly #bans = new Map<string, Ban>()
  readonly #now: () => number

  constructor (opts: MisbehaviourOptions) {
    this.#opts = opts
    this.#now = opts.now ?? (() => Date.now() / 1000)
    this.#load()
  }

  score (peerId: string): number {
    const s = this.#scores.get(peerId)
    if (s === undefined) return 0
    return Math.max(0, s.points - Math.floor((this.#now() - s.at) / 60) * DECAY_PER_MINUTE)
  }

  /** Adds points; returns true when this offence got the peer banned. */
  penalize (peerId: string, points: number, reason: string): boolean {
    if (this.isBanned(peerId)) return false
    const score = this.score(peerId) + points
    if (!this.#scores.has(peerId) && this.#scores.size >= MAX_TRACKED) this.#scores.delete(this.#scores.keys().next().value as string)
    this.#scores.set(peerId, { points: score, at: this.#now() })
    if (score < BAN_THRESHOLD) return false
    this.#scores.delete(peerId)
    this.#bans.set(peerId, { peer_id: peerId, until: this.#now() + this.#opts.banSeconds, reason })
    this.#save()
    this.#opts.onBan?.(peerId, reason)
    return true
  }

  isBanned (peerId: string): boolean {
    const ban = this.#bans.get(peerId)
    if (ban === undefined) return false
    if (ban.until > this.#now()) return true
    this.#bans.delete(peerId)
    this.#save()
    return false
  }

  bans (): Ban[] { return [...this.#bans.values()].filter((b) => b.until > this.#now()) }

  #load (): void {
    const file = this.#opts.file
    if (file === null || !existsSync(file)) return
    let list: unknown
    try { list = JSON.parse(readFileSync(file, 'utf8')) } catch { return } // a damaged ban list only forgets bans
    if (!Array.isArray(list)) return
    const now = this.#now()
    for (const b of list as Array<Partial<Ban>>) {
      if (typeof b?.peer_id === 'string' && typeof b.until === 'number' && b.until > now) {
        this.#bans.set(b.peer_id, { peer_id: b.peer_id, until: b.until, reason: typeof b.reason === 'string' ? b.reason : '' })
      }
    }
  }

  #save (): void {
    const file = this.#opts.file
    if (file === null) return
    const tmp = `${file}.tmp`
    writeFileSync(tmp, JSON.stringify(this.bans(), null, 2))
    renameSync(tmp, file)
  }
}
