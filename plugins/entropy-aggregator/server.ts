// The entropy server: the node's one HTTP error shape (a server of the `http` service) plus
// the REST contract.
// Built apart from listen(), so tests use inject().
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { HttpService } from '../../core/kernel/http-service.ts'
import { registerEntropyRoutes } from './routes.ts'
import type { EntropyAggregator } from './aggregator.ts'

export interface EntropyServerOptions {
  http: HttpService
  aggregator: EntropyAggregator
  logger: Logger
  waitMs: number
}

export function buildEntropyServer (o: EntropyServerOptions): FastifyInstance {
  const app = o.http.createServer({ logger: o.logger, name: 'entropy' })
  registerEntropyRoutes(app, { aggregator: o.aggregator, waitMs: o.waitMs })
  return app
}
