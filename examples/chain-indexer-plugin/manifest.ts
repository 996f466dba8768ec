// An indexer outside the node's tree: follows the best chain (ctx.follow) into SQLite and serves
// balances and transfers per address on the public server:
//   GET /api/indexer/status             { height, hash } the index is at
//   GET /api/indexer/address/:address   { address, balance_bohm, transfers: [...] }
// The cursor lives in the index's own database, written with each block (exactly once).
import path from 'node:path'
import { definePlugin } from 'ledger-node/plugin'
import { IndexStore } from './store.ts'
import { registerIndexerRoutes } from './routes.ts'

interface IndexerConfig {
  /** the SQLite file, relative to the node's data dir */
  file: string
}

export default definePlugin<IndexerConfig>({
  name: 'chain-indexer',
  description: 'balances and transfers per address in SQLite, following the chain',
  apiVersion: '1.0',
  provides: [],
  needs: ['chainFollow', 'publicHttp'],
  configSchema: {
    properties: { file: { type: 'string', minLength: 1, default: 'chain-indexer.sqlite' } },
    additionalProperties: false
  },
  register (ctx) {
    const store = new IndexStore(path.resolve(ctx.node.dataDir, ctx.config.file))
    const follower = ctx.follow('index', (n) => { store.apply(n) }, { cursor: { load: () => store.cursor() } })
    registerIndexerRoutes(ctx.resolve('publicHttp'), store, () => follower.position)
    // the kernel stops the followers before any plugin closes
    ctx.onClose(() => { store.close() })
  }
})
