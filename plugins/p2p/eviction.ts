// Which inbound peer to drop when the inbound slots are full and a newcomer knocks, after
// Bitcoin Core's AttemptToEvictConnection: whatever an attacker can fake cheaply (many
// connections, from few networks, recently) must not be enough to push out the peers that
// are useful or hard to imitate. Pure: the caller gathers the facts and closes the victim.
import { createHash } from 'node:crypto'

export interface EvictionCandidate {
  /** the connection's id */
  id: string
  netgroup: string
  /** ms since the epoch */
  connectedAt: number
  /** the last status round trip; Infinity when not measured yet */
  pingMs: number
  /** when the peer last gave us a block we stored (0: never) */
  lastBlockAt: number
  /** when the peer last gave us a transaction we admitted (0: never) */
  lastTxAt: number
  /** outbound, bootstrap: never evicted */
  protected: boolean
}

/** How many candidates each rule protects (Bitcoin Core's numbers). */
export const PROTECT = { netgroups: 4, ping: 8, txs: 4, blocks: 4 } as const

/**
 * The connection to close, or undefined when every candidate is protected (the newcomer is
 * then refused instead). `key` is a secret of this node: which netgroups are protected for
 * diversity cannot be predicted (and so not targeted) from outside.
 */
export function selectEvictionVictim (candidates: readonly EvictionCandidate[], key: string): EvictionCandidate | undefined {
  let pool = candidates.filter((c) => !c.protected)
  const keep = (sorted: EvictionCandidate[], n: number): void => {
    const kept = new Set(sorted.slice(0, n))
    pool = pool.filter((c) => !kept.has(c))
  }
  // netgroup diversity: one peer from each of a few netgroups an attacker cannot choose
  const keyed = (g: string): string => createHash('sha256').update(key).update(g).digest('hex')
  const seen = new Set<string>()
  const diverse: EvictionCandidate[] = []
  for (const c of [...pool].sort((a, b) => keyed(a.netgroup) < keyed(b.netgroup) ? -1 : keyed(a.netgroup) > keyed(b.netgroup) ? 1 : a.connectedAt - b.connectedAt)) {
    if (seen.has(c.netgroup) || diverse.length >= PROTECT.netgroups) continue
    seen.add(c.netgroup)
    diverse.push(c)
  }
  keep(diverse, diverse.length)
  keep([...pool].sort((a, b) => a.pingMs - b.pingMs), PROTECT.ping)
  keep(pool.filter((c) => c.lastTxAt > 0).sort((a, b) => b.lastTxAt - a.lastTxAt), PROTECT.txs)
  keep(pool.filter((c) => c.lastBlockAt > 0).sort((a, b) => b.lastBlockAt - a.lastBlockAt), PROTECT.blocks)
  // half of the rest: the longest connected
  keep([...pool].sort((a, b) => a.connectedAt - b.connectedAt), Math.floor(pool.length / 2))
  if (pool.length === 0) return undefined
  // the netgroup with the most connections (ties: the one with the newest connection); its newest goes
  const groups = new Map<string, EvictionCandidate[]>()
  for (const c of pool) groups.set(c.netgroup, [...(groups.get(c.netgroup) ?? []), c])
  let worst: EvictionCandidate[] = []
  const newest = (g: EvictionCandidate[]): number => Math.max(...g.map((c) => c.connectedAt))
  for (const g of groups.values()) {
    if (g.length > worst.length || (g.length === worst.length && newest(g) > newest(worst))) worst = g
  }
  return worst.reduce((a, b) => (b.connectedAt > a.connectedAt ? b : a))
}
