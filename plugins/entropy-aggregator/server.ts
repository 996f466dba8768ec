// The entropy server: the node's one HTTP error shape (core/http.ts) plus the REST contract.
// Built apart from listen(), so tests use inject().
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { createHttpServer } from '../../core/http.ts'
import { registerEntropyRoutes } from './routes.ts'
import type { EntropyAggregator } from './aggregator.ts'

export interface EntropyServerOptions {
  aggregator: EntropyAggregator
  logger: Logger
  waitMs: number
}

export function buildEntropyServer (o: EntropyServerOptions): FastifyInstance {
  const app = createHttpServer({ logger: o.logger, name: 'entropy' })
  registerEntropyRoutes(app, { aggregator: o.aggregator, waitMs: o.waitMs })
  return app
}
