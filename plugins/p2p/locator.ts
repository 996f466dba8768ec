// Block locators (as in Bitcoin's getheaders): the requester lists main-chain hashes from
// its tip back to genesis, dense near the tip and exponentially sparser below, so the
// responder finds the last block both share in one round trip, however far apart they are.
import type { ChainService } from '../../core/chain/chain-service.ts'
import { LIMITS } from './protocol.ts'

type ChainReads = Pick<ChainService, 'tip' | 'hashAtHeight' | 'getBlockMeta'>

export function locatorHeights (tipHeight: number, max: number = LIMITS.maxLocatorLength): number[] {
  const heights: number[] = []
  let step = 1
  for (let h = tipHeight; h > 0 && heights.length < max - 1; h -= step) {
    heights.push(h)
    if (heights.length >= 10) step *= 2
  }
  heights.push(0)
  return heights
}

export function buildLocator (chain: ChainReads): string[] {
  const out: string[] = []
  for (const h of locatorHeights(chain.tip().height)) {
    const hash = chain.hashAtHeight(h)
    if (hash !== undefined) out.push(hash)
  }
  return out
}

/** Height of the first locator entry on our main chain (the fork point); 0 when none is. */
export function forkPoint (chain: ChainReads, locator: readonly string[]): number {
  for (const hash of locator) {
    const meta = chain.getBlockMeta(hash)
    if (meta !== undefined && chain.hashAtHeight(meta.height) === hash) return meta.height
  }
  return 0
}
