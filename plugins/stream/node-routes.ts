// GET {dashboard_url}/api/events/stream: the node-local event stream. SPEC 6 fixes the public
// stream's four event types, and node events name peers' addresses, so they are served beside
// the dashboard (loopback by default, its API-key policy applies) and never on /api/stream.
// Same framing as /api/stream: `id:` and one-line `data:` JSON per event, heartbeats, a
// bounded queue per connection, Last-Event-ID replay, `?types=` (node event types).
import type { FastifyInstance } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'
import { NODE_EVENT_TYPES } from '../../core/views/node-events.ts'
import type { NodeEventDraft } from '../../core/views/node-events.ts'
import { parseFilter } from './filter.ts'
import type { EventDraft } from './events.ts'
import { acceptsEventStream, openEventStream } from './routes.ts'
import type { EventStreamOptions } from './routes.ts'

export const NODE_STREAM_ROUTE = '/api/events/stream'

export type NodeStreamRouteOptions = EventStreamOptions

/** a node event as the hub carries it: every one is new (no dedupe key), it touches no address filter */
export function nodeEventDraft (event: NodeEventDraft): EventDraft<string> {
  return { type: event.type, key: null, addresses: new Set(), payload: { ...event } }
}

export function registerNodeStreamRoute (app: FastifyInstance, o: NodeStreamRouteOptions): void {
  app.get(NODE_STREAM_ROUTE, {
    schema: {
      tags: ['node'],
      summary: `Server-Sent Events of this node's events (${NODE_EVENT_TYPES.join(', ')}); needs Accept: text/event-stream`,
      querystring: {
        type: 'object',
        properties: { types: { type: 'string', description: `comma-separated subset of ${NODE_EVENT_TYPES.join(', ')}; unknown values are ignored` } }
      }
    }
  }, async (request, reply) => {
    if (!acceptsEventStream(request)) throw new HttpError(406, 'this endpoint serves text/event-stream; send Accept: text/event-stream')
    const filter = parseFilter({ types: (request.query as { types?: unknown }).types }, NODE_EVENT_TYPES)
    openEventStream(request, reply, o, filter, null)
  })
}
