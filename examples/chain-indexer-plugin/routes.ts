// The indexer's routes on the node's public server. Input is checked before it reaches SQLite.
import type { Services } from 'ledger-node/services'
import type { BlockRef } from 'ledger-node/plugin'
import type { IndexStore } from './store.ts'

const ADDRESS = '^[0-9a-f]{32}$'

export function registerIndexerRoutes (app: Services['publicHttp'], store: IndexStore, position: () => BlockRef | null): void {
  app.get('/api/indexer/status', async () => position() ?? { height: null, hash: null })
  app.get<{ Params: { address: string }; Querystring: { limit: number } }>('/api/indexer/address/:address', {
    schema: {
      params: { type: 'object', properties: { address: { type: 'string', pattern: ADDRESS } }, required: ['address'] },
      querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 } }, additionalProperties: false }
    }
  }, async (request) => ({
    address: request.params.address,
    balance_bohm: store.balance(request.params.address).toString(),
    transfers: store.transfers(request.params.address, request.query.limit)
  }))
}
