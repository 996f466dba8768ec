// What this node serves to peers from its chain: its status, headers after a locator's fork
// point (from the header index), and blocks by hash within a byte budget. Reads go through
// the chain service only.
import type { ChainService } from '../../core/chain/chain-service.ts'
import { encodeHeader, headerParent } from './header-codec.ts'
import { forkPoint } from './locator.ts'
import { setImmediate as nextTick } from 'node:timers/promises'
import { LIMITS } from './protocol.ts'
import type { BlocksRequest, HeadersRequest, StatusMessage } from './protocol.ts'

export function ourStatus (chain: ChainService, version: string): StatusMessage {
  const tip = chain.tip()
  return { chain_id: chain.params.chainId, genesis_hash: chain.genesisHash(), best_height: tip.height, best_hash: tip.hash, best_work: tip.work, version }
}

/** header reads done in one go before other work (other peers, HTTP) gets the event loop */
export const HEADER_READS_PER_TICK = 250

/**
 * Up to `max` headers after the locator's fork point, from the header index: 272 bytes per
 * header read, never a block body. Blocks stored before the index existed fall back to their body.
 * The reads are synchronous: every HEADER_READS_PER_TICK of them the event loop runs other work.
 */
export async function headersAfter (chain: ChainService, req: HeadersRequest): Promise<string[]> {
  const from = forkPoint(chain, req.locator) + 1
  const last = Math.min(chain.tip().height, from + req.max - 1)
  const out: string[] = []
  let previous = chain.hashAtHeight(from - 1)
  for (let h = from; h <= last; h++) {
    if ((h - from) % HEADER_READS_PER_TICK === HEADER_READS_PER_TICK - 1) await nextTick()
    const hash = chain.hashAtHeight(h)
    const bytes = hash === undefined ? undefined : chain.getHeader(hash) ?? await unindexedHeader(chain, hash)
    // The tip may move under us (a reorg): stop where the chain we read stops linking up,
    // rather than send a batch that looks forged.
    if (bytes === undefined || headerParent(bytes) !== previous) break
    out.push(Buffer.from(bytes).toString('hex'))
    previous = hash
  }
  return out
}

async function unindexedHeader (chain: ChainService, hash: string): Promise<Uint8Array | undefined> {
  const block = await chain.getBlockByHash(hash)
  return block === undefined ? undefined : encodeHeader(block)
}

/**
 * Blocks in the requested order, stopping at the first unknown one or once the response holds
 * `budget` bytes (always at least one block): one request makes us read and buffer at most
 * the budget plus one block. The requester asks again for the rest.
 */
export async function * blocksByHash (chain: ChainService, req: BlocksRequest, budget: number = LIMITS.maxBlocksResponseBytes, held?: (hash: string) => Promise<Uint8Array | undefined> | Uint8Array | undefined): AsyncGenerator<Uint8Array> {
  let sent = 0
  for (const hash of req.hashes) {
    if (sent >= budget) return
    // `held`: a block announced before the chain stored it (our own, found a moment ago, or a
    // peer's we relayed while its transactions were on their way)
    const bytes = await chain.getBlockBinary(hash) ?? await held?.(hash)
    if (bytes === undefined) return
    sent += bytes.length
    yield bytes
  }
}
