// GET /api/events: the node's recent events (refused and mined blocks, reorgs, peers, dropped
// transactions, entropy reachability, start and stop) for the page's feed, polled with
// ?after=<last id seen>. Node-local: it names peers' addresses.
import type { FastifyInstance } from 'fastify'
import type { NodeEventLog } from '../../../core/views/node-events.ts'
import { NODE_EVENT_TYPES } from '../../../core/views/node-events.ts'
import { eventsSchema } from '../schemas.ts'

/** events the dashboard keeps (and one request may read) */
export const EVENT_LOG_SIZE = 200

export function registerEventsRoute (app: FastifyInstance, log: NodeEventLog): void {
  app.get('/api/events', {
    schema: {
      tags: ['node'],
      summary: `recent node events, oldest first (${NODE_EVENT_TYPES.join(', ')})`,
      querystring: {
        type: 'object',
        properties: {
          after: { type: 'integer', minimum: 0, default: 0, description: 'only events with a greater id' },
          limit: { type: 'integer', minimum: 1, maximum: EVENT_LOG_SIZE, default: 50, description: 'at most this many, the newest' }
        },
        additionalProperties: false
      },
      response: { 200: eventsSchema }
    }
  }, async (request) => {
    const { after, limit } = request.query as { after: number; limit: number }
    return { events: log.after(after, limit), last_id: log.lastId }
  })
}
