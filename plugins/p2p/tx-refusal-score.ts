// What a peer's refused transaction costs it. Honest relays race our chain all the time (a
// block confirms what they relay, a balance they saw is spent here already), so a refusal of
// class `stale` is free within a per-peer budget (a token bucket) and costs points only beyond
// it: a hostile flood of failing transactions still bans its sender, the network's natural
// reordering never does. A nonce gap is not refused at all (the mempool holds it as an orphan).
import type { TxRefusalClass } from '../../core/chain/errors.ts'
import { TX_REFUSAL_PENALTY } from './misbehaviour.ts'
import { TokenBuckets } from './token-bucket.ts'

/** stale refusals a peer may cause for free: a burst, then per second */
export const STALE_TX_BUDGET = { capacity: 100, refillPerSecond: 1 } as const

export class TxRefusalScore {
  readonly #budget: TokenBuckets

  /** `now`: seconds */
  constructor (now?: () => number) {
    this.#budget = new TokenBuckets({ ...STALE_TX_BUDGET, now })
  }

  /** the points a refusal of class `cls` costs `peerId` now */
  points (peerId: string, cls: TxRefusalClass): number {
    if (cls !== 'stale') return TX_REFUSAL_PENALTY[cls]
    return this.#budget.take(peerId, 1) ? 0 : TX_REFUSAL_PENALTY.stale
  }
}
