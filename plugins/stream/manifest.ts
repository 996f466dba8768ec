// Event stream (SPEC 6): GET /api/stream, fed by the hook bus (blockConnected, txConfirmed,
// receiptWritten, messageSeen). Reorgs re-announce blocks and transactions; the per-type
// dedupe windows keep clients from seeing them twice. Beside the dashboard (when loaded), the
// node-local stream GET /api/events/stream carries the node events (core/views/node-events.ts:
// refused and mined blocks, reorgs, peers, dropped transactions, entropy, start and stop),
// which SPEC 6's event set has no room for and which must not reach every logged-in user.
import { definePlugin } from '../../core/kernel/plugin.ts'
import type { Transaction } from '../../core/chain/types.ts'
import type { Receipt } from '../../core/vm/receipt.ts'
import { EventHub } from './hub.ts'
import { blockEvent, messageEvent, receiptEvent, txEvent } from './events.ts'
import type { EventDraft } from './events.ts'
import { registerStreamRoute } from './routes.ts'
import { StreamQuota } from './quota.ts'
import type { FastifyRequest } from 'fastify'
import { nodeEventDraft, registerNodeStreamRoute, NODE_STREAM_ROUTE } from './node-routes.ts'
import { tapNodeEvents } from '../../core/views/node-events.ts'

interface StreamConfig {
  /** SPEC 8: 30 s */
  heartbeatSeconds: number
  /** SPEC 8: 64 events per connection */
  queueSize: number
  /** recent events held for Last-Event-ID replay */
  replaySize: number
  /** keys remembered per event type */
  dedupeWindow: number
  maxConnections: number
  /** open streams one session may hold */
  maxConnectionsPerSession: number
  /** open streams one client address may hold (IPv6: per /64), on each server */
  maxConnectionsPerAddress: number
}

export default definePlugin<StreamConfig>({
  name: 'stream',
  description: 'Server-Sent Events for blocks, transactions, receipts and chat messages',
  apiVersion: '1.0',
  provides: [],
  needs: ['accounts', 'http', 'publicHttp'],
  optional: ['names', 'dashboardHttp'],
  configSchema: {
    properties: {
      heartbeatSeconds: { type: 'number', minimum: 0.01, default: 30 },
      queueSize: { type: 'integer', minimum: 1, maximum: 10_000, default: 64 },
      replaySize: { type: 'integer', minimum: 0, maximum: 100_000, default: 512 },
      dedupeWindow: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 4096 },
      maxConnections: { type: 'integer', minimum: 1, default: 10_000 },
      maxConnectionsPerSession: { type: 'integer', minimum: 1, default: 16 },
      maxConnectionsPerAddress: { type: 'integer', minimum: 1, default: 32 }
    },
    additionalProperties: false
  },
  async register (ctx) {
    const accounts = ctx.resolve('accounts')
    const names = ctx.tryResolve('names')
    const hub = new EventHub({
      dedupeWindow: ctx.config.dedupeWindow,
      replaySize: ctx.config.replaySize,
      heartbeatMs: ctx.config.heartbeatSeconds * 1000,
      sessionActive: (hash) => accounts.sessionActive(hash)
    })

    // hook listeners run inside the chain's block announcement: they must never throw
    const publishOn = (target: EventHub, what: string, build: () => EventDraft<string> | null): void => {
      try {
        const draft = build()
        if (draft !== null) target.publish(draft)
      } catch (err) {
        ctx.logger.error({ err, what }, 'stream event could not be built')
      }
    }
    const publish = (what: string, build: () => EventDraft | null): void => { publishOn(hub, what, build) }
    // the block being announced: txConfirmed and receiptWritten for it follow blockConnected
    let blockTxs = new Map<string, Transaction>()
    let blockReceipts = new Map<string, Receipt>()
    ctx.hooks.blockConnected.tap('stream', ({ block, receipts }) => {
      blockTxs = new Map(block.transactions.map((tx) => [tx.transaction_id, tx]))
      blockReceipts = new Map(receipts.map((r) => [r.tx_id, r.receipt]))
      publish('block', () => blockEvent(block))
    })
    ctx.hooks.txConfirmed.tap('stream', ({ tx, block }) => publish('tx', () => txEvent(tx, block.height, blockReceipts.get(tx.transaction_id))))
    ctx.hooks.receiptWritten.tap('stream', ({ tx_id, receipt, block }) => publish('receipt', () => receiptEvent(tx_id, receipt, block.height, blockTxs.get(tx_id)?.sender)))
    ctx.hooks.messageSeen.tap('stream', ({ tx, block }) => publish('message', () => messageEvent(tx, block?.height ?? null, names)))

    const http = ctx.resolve('http')
    const app = ctx.resolve('publicHttp')
    await http.session.ensureSupport(app)
    const caps = { queueSize: ctx.config.queueSize, maxConnections: ctx.config.maxConnections, clientKey: (request: FastifyRequest) => http.clientKey(request) }
    const quota = (): StreamQuota => new StreamQuota({ perSession: ctx.config.maxConnectionsPerSession, perAddress: ctx.config.maxConnectionsPerAddress })
    registerStreamRoute(app, { ...caps, accounts, hub, quota: quota(), sessionTokenOf: (request) => http.session.tokenOf(request) })
    ctx.onClose(() => hub.close())

    const dashboard = ctx.tryResolve('dashboardHttp')
    if (dashboard === undefined) {
      ctx.logger.info(`no dashboard loaded: the node-local stream ${NODE_STREAM_ROUTE} is not served`)
      return
    }
    const nodeHub = new EventHub({
      dedupeWindow: 1,
      replaySize: ctx.config.replaySize,
      heartbeatMs: ctx.config.heartbeatSeconds * 1000,
      sessionActive: () => true
    })
    tapNodeEvents(ctx.hooks, 'stream', (event) => { publishOn(nodeHub, event.type, () => nodeEventDraft(event)) })
    registerNodeStreamRoute(dashboard, { ...caps, hub: nodeHub, quota: quota() })
    ctx.onClose(() => nodeHub.close())
  }
})
