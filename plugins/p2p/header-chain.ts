// Header-first sync checks every header a peer sends before any body is requested: it must
// be of this block version, hash to at most its target, extend its parent (height, time),
// carry the target the schedule demands there (canonical and inside the network's bounds),
// and not lie in the future. Cumulative work is summed from the targets (2^512 / (target + 1)). Bodies later go through processBlock,
// which checks all of this again along with everything else.
import type { NetworkParams } from '../../core/chain/params.ts'
import { blockWork, nextBits, retargetTimestampCount } from '../../core/chain/difficulty.ts'
import { BLOCK_VERSION } from '../../core/chain/genesis.ts'
import { workFault } from './work-first.ts'
import type { WireHeader } from './header-codec.ts'

/** What the checks need to know of a header's ancestors (local blocks or headers already checked). */
export interface HeaderNode {
  hash: string
  height: number
  timestamp: number
  previous_hash: string
  /** the compact target the block carries */
  bits: number
  work: bigint
}

export type HeaderLookup = (hash: string) => HeaderNode | undefined

export class HeaderError extends Error { override name = 'HeaderError' }
/** A header beyond our future-drift limit: our clocks may disagree, it proves no bad faith. */
export class FutureHeaderError extends HeaderError { override name = 'FutureHeaderError' }

/**
 * Checks a batch (oldest first). The first header's parent must be known to `lookup`; each
 * later header must extend the one before it. Returns the batch with cumulative work.
 */
export function verifyHeaderBatch (params: NetworkParams, batch: readonly WireHeader[], lookup: HeaderLookup, now: number): HeaderNode[] {
  const out: HeaderNode[] = []
  const local = new Map<string, HeaderNode>()
  const find = (hash: string): HeaderNode | undefined => local.get(hash) ?? lookup(hash)
  for (const [i, h] of batch.entries()) {
    // work first (docs/p2p.md "Work first"): a header's own hash and target are checked
    // before what links it to anything, so a batch of junk costs its maker real work
    const fault = workFault(params, h)
    if (fault !== null) throw new HeaderError(`header ${h.height}: ${fault}`)
    if (h.version !== BLOCK_VERSION) throw new HeaderError(`header ${h.height} has block version ${h.version}, expected ${BLOCK_VERSION}`)
    const parent = i === 0 ? lookup(h.previous_hash) : out[i - 1]
    if (parent === undefined) throw new HeaderError(`header ${h.height} does not connect to a known block`)
    if (h.previous_hash !== parent.hash) throw new HeaderError(`header ${h.height} does not extend the header before it`)
    if (h.height !== parent.height + 1) throw new HeaderError(`header height ${h.height} after parent ${parent.height}`)
    if (!(h.timestamp > parent.timestamp)) throw new HeaderError(`header ${h.height} is not later than its parent`)
    if (h.timestamp > now + params.maxFutureDrift) throw new FutureHeaderError(`header ${h.height} lies more than ${params.maxFutureDrift}s in the future`)
    const expected = nextBits(params, h.height, parent.bits, () => recentTimestamps(parent, retargetTimestampCount(params), find))
    if (h.bits !== expected) throw new HeaderError(`header ${h.height} has target bits ${h.bits.toString(16)}, the schedule demands ${expected.toString(16)}`)
    const node: HeaderNode = { hash: h.hash, height: h.height, timestamp: h.timestamp, previous_hash: h.previous_hash, bits: h.bits, work: parent.work + blockWork(h.bits) }
    out.push(node)
    local.set(node.hash, node)
  }
  return out
}

/** Timestamps of the `count` blocks ending at `last`, oldest first (what nextBits reads). */
function recentTimestamps (last: HeaderNode, count: number, find: HeaderLookup): number[] {
  const ts: number[] = []
  let cur: HeaderNode | undefined = last
  while (cur !== undefined && ts.length < count) {
    ts.unshift(cur.timestamp)
    cur = cur.height === 0 ? undefined : find(cur.previous_hash)
  }
  return ts
}
