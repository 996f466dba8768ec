// What this node serves to peers from its chain: its status, headers after a locator's fork
// point, and blocks by hash. Reads go through the chain service only.
import type { ChainService } from '../../core/chain/chain-service.ts'
import { encodeHeaderHex } from './header-codec.ts'
import { forkPoint } from './locator.ts'
import type { BlocksRequest, HeadersRequest, StatusMessage } from './protocol.ts'

export function ourStatus (chain: ChainService, version: string): StatusMessage {
  const tip = chain.tip()
  return { chain_id: chain.params.chainId, genesis_hash: chain.genesisHash(), best_height: tip.height, best_hash: tip.hash, best_work: tip.work, version }
}

export async function headersAfter (chain: ChainService, req: HeadersRequest): Promise<string[]> {
  const from = forkPoint(chain, req.locator) + 1
  const last = Math.min(chain.tip().height, from + req.max - 1)
  const out: string[] = []
  let previous = chain.hashAtHeight(from - 1)
  for (let h = from; h <= last; h++) {
    const block = await chain.getBlockByHeight(h)
    // The tip may move under us (a reorg): stop where the chain we read stops linking up,
    // rather than send a batch that looks forged.
    if (block === undefined || block.previous_hash !== previous) break
    out.push(encodeHeaderHex(block))
    previous = block.hash
  }
  return out
}

/** Each block's binary form, made from the stored bytes without decoding its transactions. */
export async function * blocksByHash (chain: ChainService, req: BlocksRequest): AsyncGenerator<Uint8Array> {
  for (const hash of req.hashes) {
    const block = await chain.getBlockBinary(hash)
    if (block === undefined) return
    yield block
  }
}
