// GET /api/history: what the page charts beyond the chain itself, recorded from the node's boot
// (hash rate, mempool and peer samples; when each block was connected), so the charts have
// data the moment the page opens.
import type { FastifyInstance } from 'fastify'
import type { BlockTiming, HistorySample, Ring } from '../history.ts'
import { historySchema } from '../schemas.ts'

export interface HistoryRouteDeps {
  sampleSeconds: number
  samples: Ring<HistorySample>
  blocks: Ring<BlockTiming>
}

export function registerHistoryRoute (app: FastifyInstance, deps: HistoryRouteDeps): void {
  app.get('/api/history', {
    schema: { tags: ['node'], summary: 'samples of hash rate, mempool and peers, and block connect times, since boot', response: { 200: historySchema } }
  }, async () => ({ sample_seconds: deps.sampleSeconds, samples: deps.samples.list(), blocks: deps.blocks.list() }))
}
