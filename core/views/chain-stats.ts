// Chain-wide figures shared by explorer stats (SPEC 2.4), the dashboard chain summary
// (SPEC 2.2) and the metrics.
import { bohmToCoin } from '../chain/money.ts'
import type { ViewContext } from './context.ts'

export interface ChainStats {
  height: number
  tip_hash: string
  tip_timestamp: number
  total_supply: number
  max_supply: number
  mempool_size: number
  /** leading-zero count the next block must meet */
  difficulty: number
  block_time_target: number
  testnet: boolean
  /** the network this node runs: testnet, mainnet or devnet (testnet alone cannot tell devnet apart) */
  network: string
}

/** the figures of a tip that cost a state read: they change only when the tip does */
export interface TipFigures { hash: string; totalSupply: number; difficulty: number }

export function tipFigures (chain: ViewContext['chain']): TipFigures {
  return { hash: chain.tip().hash, totalSupply: bohmToCoin(chain.totalSupply()), difficulty: chain.nextDifficulty() }
}

/** `figures` may hand back the figures it computed for this tip before (explorer stats) */
export function chainStats (ctx: Pick<ViewContext, 'chain' | 'mempool' | 'params'>, figures: (chain: ViewContext['chain']) => TipFigures = tipFigures): ChainStats {
  const tip = ctx.chain.tip()
  const f = figures(ctx.chain)
  return {
    height: tip.height,
    tip_hash: tip.hash,
    tip_timestamp: tip.timestamp,
    total_supply: f.totalSupply,
    max_supply: ctx.params.maxSupplyCoin,
    mempool_size: ctx.mempool.size,
    difficulty: f.difficulty,
    block_time_target: ctx.params.blockTimeTarget,
    testnet: ctx.params.testnet,
    network: ctx.params.name
  }
}
