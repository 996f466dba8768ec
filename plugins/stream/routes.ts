// GET /api/stream (SPEC 6): Server-Sent Events for a logged-in user. The reply is hijacked
// from fastify and held open; the hub writes to it until the client leaves.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'
import type { AccountService } from '../../core/kernel/account-service.ts'
import { parseFilter } from './filter.ts'
import type { EventFilter } from './filter.ts'
import { SseConnection } from './connection.ts'
import type { EventHub } from './hub.ts'
import type { StreamQuota } from './quota.ts'

/** what openEventStream needs: the hub, its caps, and the per-session / per-address quota */
export interface EventStreamOptions {
  hub: EventHub
  queueSize: number
  maxConnections: number
  quota: StreamQuota
  /** the client address a per-address cap counts (the `http` service's clientKey) */
  clientKey: (request: FastifyRequest) => string
}

export interface StreamRouteOptions extends EventStreamOptions {
  accounts: AccountService
  /** the request's session cookie, if any (the `http` service reads it) */
  sessionTokenOf: (request: FastifyRequest) => string | undefined
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // nginx and similar proxies would otherwise buffer the stream
  'x-accel-buffering': 'no'
}

export function acceptsEventStream (request: FastifyRequest): boolean {
  const accept = request.headers.accept
  return typeof accept === 'string' && accept.toLowerCase().includes('text/event-stream')
}

export function lastEventId (request: FastifyRequest): number | null {
  const raw = request.headers['last-event-id']
  const text = Array.isArray(raw) ? raw[0] : raw
  return typeof text === 'string' && /^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : null
}

export function registerStreamRoute (app: FastifyInstance, o: StreamRouteOptions): void {
  app.get('/api/stream', {
    schema: {
      tags: ['stream'],
      summary: 'Server-Sent Events: message, tx, block and receipt events (needs a session and Accept: text/event-stream)',
      querystring: {
        type: 'object',
        properties: {
          types: { type: 'string', description: 'comma-separated subset of message, tx, block, receipt' },
          address: { type: 'string', description: '32-hex chain address or 40-hex VM address' }
        }
      }
    }
  }, async (request, reply) => {
    const token = o.sessionTokenOf(request)
    if (o.accounts.sessionUser(token) === undefined || token === undefined) throw new HttpError(401, 'no session present')
    if (!acceptsEventStream(request)) throw new HttpError(406, 'this endpoint serves text/event-stream; send Accept: text/event-stream')
    const filter = parseFilter(request.query as { types?: unknown; address?: unknown })
    openEventStream(request, reply, o, filter, o.accounts.sessionKeyOf(token))
  })
}

/** Takes over the response as an SSE stream of `filter`'s events from the hub (replaying
 *  after Last-Event-ID), or refuses with 503 when the hub holds its maximum of streams, 429
 *  when the session or the address holds its own. */
export function openEventStream (request: FastifyRequest, reply: FastifyReply, o: EventStreamOptions, filter: EventFilter, sessionHash: string | null): void {
  if (o.hub.size >= o.maxConnections) throw new HttpError(503, 'too many open streams; retry later', { headers: { 'retry-after': '30' } })
  const release = o.quota.take(sessionHash, o.clientKey(request))
  reply.raw.once('close', release)
  reply.hijack()
  const res = reply.raw
  res.writeHead(200, SSE_HEADERS)
  res.flushHeaders()
  request.raw.socket.setKeepAlive(true)
  request.raw.socket.setNoDelay(true)
  const conn = new SseConnection(res, filter, sessionHash, o.queueSize)
  res.on('close', () => o.hub.detach(conn))
  o.hub.attach(conn, lastEventId(request))
}
