// Shared by the fork-choice tests: a node with the real consensus plugin (so the mempool upkeep
// on reorgs is the one the node runs), block refs, and a dump of everything a block writes.
import type { KvStore } from '../../../core/kernel/kv.ts'
import type { Block } from '../../../core/chain/types.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import type { ChainService } from '../../../core/chain/chain-service.ts'
import type { MempoolService } from '../../../core/chain/mempool-service.ts'
import type { Hooks } from '../../../core/kernel/hooks.ts'
import { startTestNode } from '../../helpers/node.ts'
import { testParams } from '../../helpers/chain.ts'
import type { ParentRef } from '../../helpers/chain.ts'

export interface PluginChain {
  chain: ChainService
  mempool: MempoolService
  hooks: Hooks
  db: KvStore
  stop(): Promise<void>
}

export async function startChainNode (params: NetworkParams = testParams()): Promise<PluginChain> {
  const node = await startTestNode({ plugins: ['storage', 'consensus'], params, start: false })
  return {
    chain: node.resolve('chain'),
    mempool: node.resolve('mempool'),
    hooks: node.kernel.hooks,
    db: node.resolve('chainDb'),
    stop: () => node.stop()
  }
}

export const refOf = (b: Pick<Block, 'hash' | 'height' | 'timestamp'>): ParentRef => ({ hash: b.hash, height: b.height, timestamp: b.timestamp })

/**
 * Every key a connected block writes (state, indexes, receipts, undo records, main-chain index,
 * tip) as hex. Stored block bodies, their transaction spans, headers, metas and the side-block index are left
 * out: a node that saw a side branch keeps those by design.
 */
export async function stateDump (db: KvStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for await (const [k, v] of db.entries({})) {
    if (k.startsWith('b:') || k.startsWith('bx:') || k.startsWith('bm:') || k.startsWith('hd:') || k.startsWith('sd:') || k.startsWith('iv:')) continue
    out[k] = v.toString('hex')
  }
  return out
}

export async function feed (chain: ChainService, blocks: Block[]): Promise<void> {
  for (const b of blocks) await chain.processBlock(b, 'test')
}
