// A third-party plugin that is its own npm package (ledger-plugin-block-stats). It imports
// nothing of the node but its public entry points, and a node loads it by package name:
//   plugins: [..., 'ledger-plugin-block-stats']
// It counts connected blocks, transactions and reorgs from the hooks, offers the counts to
// other plugins as the container service `blockStats`, and serves them on the public HTTP
// server at GET /api/block-stats.
import { definePlugin } from 'ledger-node/plugin'
import type { BlockConnectedEvent, ReorgEvent } from 'ledger-node/hooks'

export interface BlockStats {
  blocks: number
  transactions: number
  reorgs: number
  lastHeight: number | null
  /** transactions per block over the blocks seen since start */
  averageTxs(): number
}

// Declaration merging makes the new service typed for every plugin that resolves it.
declare module 'ledger-node/services' {
  interface Services { blockStats: BlockStats }
}

export interface BlockStatsConfig {
  /** log a summary every this many connected blocks */
  logEvery: number
}

export default definePlugin<BlockStatsConfig>({
  name: 'block-stats',
  description: 'counts connected blocks, transactions and reorgs (example plugin package)',
  apiVersion: '1.0',
  provides: ['blockStats'],
  needs: ['chain', 'publicHttp'],
  configSchema: {
    properties: { logEvery: { type: 'integer', minimum: 1, default: 100 } },
    additionalProperties: false
  },
  register (ctx) {
    const stats: BlockStats = {
      blocks: 0,
      transactions: 0,
      reorgs: 0,
      lastHeight: null,
      averageTxs: () => stats.blocks === 0 ? 0 : stats.transactions / stats.blocks
    }
    ctx.hooks.blockConnected.tap('block-stats', ({ block }: BlockConnectedEvent) => {
      stats.blocks++
      stats.transactions += block.transactions.length
      stats.lastHeight = block.height
      if (stats.blocks % ctx.config.logEvery === 0) ctx.logger.info({ blocks: stats.blocks, avgTxs: stats.averageTxs() }, 'block stats')
    })
    ctx.hooks.reorg.tap('block-stats', (_event: ReorgEvent) => { stats.reorgs++ })
    ctx.provide('blockStats', stats)

    ctx.resolve('publicHttp').get('/api/block-stats', async () => ({
      blocks: stats.blocks,
      transactions: stats.transactions,
      reorgs: stats.reorgs,
      last_height: stats.lastHeight,
      average_txs: stats.averageTxs(),
      tip_height: ctx.resolve('chain').tip().height
    }))
    ctx.logger.info({ tip: ctx.resolve('chain').tip().height }, 'block-stats ready')
  }
})
