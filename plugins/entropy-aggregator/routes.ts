// The entropy-source REST contract (SPEC 4.6): GET /api/health, GET /api/random/bytes?n=,
// GET /api/random/hex?n=. Bytes served are taken out of the pool: no two responses share a byte.
import type { FastifyInstance } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'
import { DEVICE_HEADER, SOURCE_HEADER } from './rest-client.ts'
import type { EntropyHealthResponse } from './rest-client.ts'
import { EntropyError, EntropyErrorCode } from './errors.ts'
import type { AggregatorHealth, EntropyAggregator, EntropyTake } from './aggregator.ts'

export interface EntropyRoutesOptions {
  aggregator: EntropyAggregator
  /** how long a request may wait for the background refill when the pool holds too few bytes */
  waitMs: number
}

/** The health body: the contract's fields, then ours (reason, min_quorum, per-source state). */
export type EntropyHealthBody = EntropyHealthResponse & Pick<AggregatorHealth, 'min_quorum' | 'sources' | 'evidence'> & { last_fill: AggregatorHealth['last_fill'] }

export function healthBody (h: AggregatorHealth): EntropyHealthBody {
  return {
    status: h.status,
    uptime_seconds: h.uptime_seconds,
    pool: h.pool,
    last_fill: h.last_fill,
    source: h.source,
    device: h.device,
    reason: h.reason,
    min_quorum: h.min_quorum,
    sources: h.sources,
    evidence: h.evidence
  }
}

/** what GET / lists, like the dashboard's index */
export const ENTROPY_ENDPOINTS = (capacity: number): string[] => [
  '/api/health',
  `/api/random/bytes?n=<1..${capacity}>`,
  `/api/random/hex?n=<1..${capacity}>`
]

/** JSON only for a client that names application/json and does not also name text/plain
 *  (curl's and browsers' wildcards get the text the contract describes) */
export function wantsJson (accept: string | undefined): boolean {
  if (accept === undefined) return false
  const types = accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase())
  return types.includes('application/json') && !types.includes('text/plain')
}

/** The n of a random request: exactly one decimal integer in 1..capacity, or a 400. */
export function parseN (query: unknown, capacity: number): number {
  const raw = (query as Record<string, unknown> | null)?.n
  const range = `an integer 1..${capacity}`
  if (raw === undefined || raw === '') throw new HttpError(400, `query n is required: ${range}`)
  if (typeof raw !== 'string') throw new HttpError(400, `query n must be given once: ${range}`)
  if (!/^[0-9]{1,9}$/.test(raw)) throw new HttpError(400, `query n must be ${range}, got '${raw.slice(0, 32)}'`)
  const n = Number(raw)
  if (n < 1 || n > capacity) throw new HttpError(400, `query n must be ${range} (the pool capacity), got ${n}`)
  return n
}

function toHttpError (err: unknown): unknown {
  if (!(err instanceof EntropyError)) return err
  const retry = err.code === EntropyErrorCode.BELOW_QUORUM ? '5' : '1'
  return new HttpError(err.httpStatus, err.message, err.httpStatus === 503 ? { headers: { 'retry-after': retry } } : {})
}

export function registerEntropyRoutes (app: FastifyInstance, o: EntropyRoutesOptions): void {
  const { aggregator } = o
  const draw = async (query: unknown): Promise<EntropyTake> => {
    const n = parseN(query, aggregator.pool.capacity)
    try {
      return await aggregator.draw(n, o.waitMs)
    } catch (err) {
      throw toHttpError(err)
    }
  }

  app.get('/api/health', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return healthBody(aggregator.health())
  })

  // no HEAD twins: a HEAD would run the handler and consume bytes nobody receives
  app.get('/api/random/bytes', { exposeHeadRoute: false }, async (request, reply) => {
    const t = await draw(request.query)
    return reply
      .header('cache-control', 'no-store')
      .header(SOURCE_HEADER, t.source)
      .header(DEVICE_HEADER, t.device)
      .type('application/octet-stream')
      .send(Buffer.from(t.bytes.buffer, t.bytes.byteOffset, t.bytes.length))
  })

  // ours, beside the SPEC 4.6 contract: the bytes with the beacon rounds that back them, so a
  // miner on another host can quote them in a verifiable block (docs/entropy.md)
  app.get('/api/random/attested', { exposeHeadRoute: false }, async (request, reply) => {
    const n = parseN(request.query, aggregator.pool.capacity)
    let t
    try {
      t = await aggregator.drawAttested(n, o.waitMs)
    } catch (err) {
      throw toHttpError(err)
    }
    reply.header('cache-control', 'no-store').header(SOURCE_HEADER, t.source).header(DEVICE_HEADER, t.device)
    return { n: t.bytes.length, hex: Buffer.from(t.bytes).toString('hex'), source: t.source, device: t.device, beacons: t.beacons }
  })

  // SPEC 4.6: "the same bytes hex-encoded" is the hex text itself, which other entropy
  // services and aggregators read; a client that asks for JSON alone gets it wrapped
  app.get('/api/random/hex', { exposeHeadRoute: false }, async (request, reply) => {
    const t = await draw(request.query)
    const hex = Buffer.from(t.bytes).toString('hex')
    reply.header('cache-control', 'no-store').header(SOURCE_HEADER, t.source).header(DEVICE_HEADER, t.device).header('vary', 'accept')
    if (wantsJson(request.headers.accept)) return { n: t.bytes.length, hex, source: t.source, device: t.device }
    return reply.type('text/plain; charset=utf-8').send(hex)
  })

  app.get('/', { schema: { hide: true } }, async () => ({
    service: 'entropy',
    contract: 'SPEC 4.6 entropy source',
    status: aggregator.health().status,
    source: aggregator.health().source,
    endpoints: [...ENTROPY_ENDPOINTS(aggregator.pool.capacity)]
  }))
}
