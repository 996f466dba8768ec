// A third-party plugin, written outside the node's tree and loaded by path from
// ledger.config.ts: { path: './examples/block-stats-plugin' }. It only uses the documented
// hook catalogue and container services, and adds a service of its own.
import { definePlugin } from '../../core/kernel/plugin.ts'

export interface BlockStats {
  blocks: number
  transactions: number
  reorgs: number
  lastHeight: number | null
  /** transactions per block over the blocks seen since start */
  averageTxs(): number
}

// Declaration merging makes the new service typed for every plugin that resolves it.
declare module '../../core/kernel/services.ts' {
  interface Services { blockStats: BlockStats }
}

interface BlockStatsConfig { logEvery: number }

export default definePlugin<BlockStatsConfig>({
  name: 'block-stats',
  description: 'counts connected blocks and transactions (example third-party plugin)',
  provides: ['blockStats'],
  needs: ['chain'],
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
    ctx.hooks.blockConnected.tap('block-stats', ({ block }) => {
      stats.blocks++
      stats.transactions += block.transactions.length
      stats.lastHeight = block.height
      if (stats.blocks % ctx.config.logEvery === 0) ctx.logger.info({ blocks: stats.blocks, avgTxs: stats.averageTxs() }, 'block stats')
    })
    ctx.hooks.reorg.tap('block-stats', () => { stats.reorgs++ })
    ctx.provide('blockStats', stats)
    ctx.logger.info({ tip: ctx.resolve('chain').tip().height }, 'block-stats ready')
  }
})
