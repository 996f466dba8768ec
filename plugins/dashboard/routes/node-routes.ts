// Dashboard node reads (SPEC 4.1): status, node, mining, entropy provider, peers, the
// entropy passthrough and the Prometheus metrics.
import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import { HttpError } from '../../../core/kernel/errors.ts'
import type { NodeInfo } from '../../../core/kernel/services.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import type { ChainService } from '../../../core/chain/chain-service.ts'
import type { JsonSchema } from '../../../core/kernel/plugin.ts'
import { miningView, nodeView, peerList, qrngView, statusView, syncState } from '../node-status.ts'
import type { OptionalServices } from '../node-status.ts'
import { miningSchema, nodeSchema, peersSchema, qrngRandomSchema, qrngSchema, statusSchema } from '../schemas.ts'

export interface NodeRouteDeps {
  node: NodeInfo
  params: NetworkParams
  chain: ChainService
  services: OptionalServices
  nodeId: string
  metrics: Registry
  /** the one error shape (the `http` service's chain views) */
  errorSchema: JsonSchema
}

/** bytes one passthrough request may draw: enough to inspect, too few to drain the pool */
export const QRNG_RANDOM_MAX = 1024

export function registerNodeRoutes (app: FastifyInstance, deps: NodeRouteDeps): void {
  const { node, services, errorSchema } = deps
  const tags = ['node']

  app.get('/api/status', {
    schema: { tags, summary: 'health summary; never needs the API key', response: { 200: statusSchema } }
  }, async () => statusView(node, services, deps.chain.tip().height))

  app.get('/api/node', { schema: { tags, summary: 'node identity and uptime', response: { 200: nodeSchema } } }, async () => nodeView(node, deps.params, deps.nodeId))

  app.get('/api/mining', { schema: { tags, summary: 'miner state', response: { 200: miningSchema } } }, async () => miningView(services))

  app.get('/api/qrng', { schema: { tags, summary: 'entropy provider status', response: { 200: qrngSchema } } }, async () => qrngView(services, deps.params))

  app.get('/api/qrng/random', {
    schema: {
      tags,
      summary: 'n random bytes from the entropy provider, hex-encoded',
      querystring: { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: QRNG_RANDOM_MAX, default: 32 } } },
      response: { 200: qrngRandomSchema, 400: errorSchema, 404: errorSchema, 424: errorSchema }
    }
  }, async (request) => {
    const n = (request.query as { n: number }).n
    // the schema's coercion lets "1e400" through as Infinity
    if (!Number.isSafeInteger(n) || n < 1 || n > QRNG_RANDOM_MAX) throw new HttpError(400, `querystring.n must be an integer 1..${QRNG_RANDOM_MAX}`)
    const entropy = services.entropy()
    // 5xx is kept for faults of this node's own code (what monitoring alerts on): a provider
    // that is not loaded is a missing resource, one that fails is a failed dependency
    if (entropy === undefined) throw new HttpError(404, 'no entropy provider loaded')
    let draw
    try {
      draw = await entropy.getBytes(n)
    } catch (err) {
      throw new HttpError(424, `entropy provider unavailable: ${(err as Error).message}`)
    }
    return { n: draw.bytes.length, hex: Buffer.from(draw.bytes).toString('hex'), source: draw.source }
  })

  app.get('/api/peers', { schema: { tags, summary: 'connected peers', response: { 200: peersSchema } } }, async () => {
    const peers = peerList(services)
    return { peer_count: peers.length, sync_state: syncState(services), peers }
  })

  app.get('/metrics', {
    schema: { tags, summary: 'Prometheus text format; never needs the API key', produces: ['text/plain'] }
  }, async (_request, reply) => {
    const text = await deps.metrics.metrics()
    return reply.type(deps.metrics.contentType).send(text)
  })
}
