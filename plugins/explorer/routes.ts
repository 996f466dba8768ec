// Public explorer API (SPEC 4.2): stats, blocks, one block, one transaction, one address,
// receipts. Read-only; every heavy lookup goes through the chain's indexes.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'
import type { ViewContext } from '../../core/views/context.ts'
import type { ContractAbiDirectory } from '../../core/kernel/services.ts'
import { decodeTx } from '../../core/views/tx-view.ts'
import { pagination } from '../../core/views/pagination.ts'
import { chainStats } from '../../core/views/chain-stats.ts'
import { blockAtHeight, listBlocks, parseHeight } from '../../core/views/block-queries.ts'
import { confirmationsOf, lookupTx, normalizeTxId } from '../../core/views/tx-lookup.ts'
import { addressDetail } from '../../core/views/address-detail.ts'
import { receiptBody } from '../../core/views/receipt-view.ts'
import type { ChainViewsHttp, ViewErrorTexts } from '../../core/kernel/chain-views-http.ts'
import { EXPLORER_PAGE } from './page.ts'
import { trustedBeacons } from '../../config/entropy-sources.ts'
import { confirmationsMark, cutTemplate, nameMark, renderTemplate } from './response-cache.ts'
import type { ExplorerCache } from './response-cache.ts'

const tags = ['explorer']
const pathParam = (name: string, description: string) => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'string', description } }
})

export const EXPLORER_ROUTES = [
  '/api/explorer',
  '/api/explorer/stats',
  '/api/explorer/blocks',
  '/api/explorer/block/:height',
  '/api/explorer/block/:height/raw',
  '/api/explorer/beacons',
  '/api/explorer/tx/:tx_id',
  '/api/explorer/address/:address',
  '/api/explorer/search',
  '/api/explorer/mempool',
  '/api/explorer/abi/:address',
  '/api/receipt/:tx_id',
  '/api/receipts/block/:idx'
] as const

/** height path parameter: 400 unless an integer, 404 unless a main-chain height */
function heightOf (text: string, errors: ViewErrorTexts): number {
  const height = parseHeight(text)
  if (height === null) throw new HttpError(400, errors.heightNotInteger)
  return height
}

/** the content type fastify gives a serialized answer: a cached one goes out the same */
const JSON_TYPE = 'application/json; charset=utf-8'

/** sends text the route's serializer produced (now or for an earlier request) as is */
function sendJson (reply: FastifyReply, json: string): string {
  reply.type(JSON_TYPE)
  return json
}

/**
 * `cache` (ready-to-send blocks and transactions, tip figures) must follow the node's block
 * hooks (ExplorerCache.follow); without one every answer is built afresh.
 */
export function registerExplorerRoutes (app: FastifyInstance, views: ChainViewsHttp, ctx: ViewContext, abis: () => ContractAbiDirectory | undefined = () => undefined, cache?: ExplorerCache): void {
  const {
    addressDetailSchema, blockDetailSchema, blockPageSchema, decodedTxSchema, errorSchema, paginationSchema, receiptListSchema,
    receiptSchema, statsSchema, txLookupSchema
  } = views.schemas
  const { errors: viewErrors, pageQuerySchema } = views
  app.get('/api/explorer', {
    schema: {
      tags,
      summary: 'explorer API index: endpoints and the web page',
      response: {
        200: {
          type: 'object',
          properties: { service: { type: 'string' }, page: { type: 'string' }, docs: { type: 'string' }, endpoints: { type: 'array', items: { type: 'string' } } }
        }
      }
    }
  }, async () => ({ service: 'explorer', page: EXPLORER_PAGE, docs: '/docs', endpoints: [...EXPLORER_ROUTES] }))

  const confirmationsAt = (height: number): number => confirmationsOf(ctx.chain.tip().height, height)

  app.get('/api/explorer/stats', {
    schema: { tags, summary: 'chain statistics', response: { 200: statsSchema } }
  }, async () => chainStats(ctx, cache?.tipFigures))

  app.get('/api/explorer/blocks', {
    schema: { tags, summary: 'blocks, newest first', querystring: pageQuerySchema, response: { 200: blockPageSchema, 400: errorSchema } }
  }, async (request) => listBlocks(ctx, views.pageRequest(request.query as { offset?: number; limit?: number })))

  app.get('/api/explorer/block/:height', {
    schema: {
      tags,
      summary: 'one block with its decoded transactions',
      params: pathParam('height', 'block height (integer)'),
      response: { 200: blockDetailSchema, 400: errorSchema, 404: errorSchema }
    }
  }, async (request, reply) => {
    const height = heightOf((request.params as { height: string }).height, viewErrors)
    const hit = cache?.blocks.get(height)
    if (hit !== undefined) return sendJson(reply, renderTemplate(hit, ctx.nameOf, 0))
    const generation = cache?.generation
    const block = await blockAtHeight(ctx, height)
    if (block === undefined) throw new HttpError(404, viewErrors.noSuchBlock)
    // the names are the only part of a main-chain block's detail that can change: serialized
    // once with marks where they go, the answer is the template filled in
    const template = cutTemplate(reply.serialize({ ...block, transactions: block.transactions.map((tx, i) => ({ ...tx, sender_name: nameMark(2 * i), recipient_name: nameMark(2 * i + 1) })) }) as string, block.transactions.flatMap((tx) => [tx.sender, tx.recipient]))
    if (template === null) return sendJson(reply, reply.serialize(block) as string)
    if (cache?.blocks.keeps === true && generation === cache.generation) cache.blocks.set(height, template, template.bytes)
    return sendJson(reply, renderTemplate(template, ctx.nameOf, 0))
  })

  // the block exactly as gossiped and stored (SPEC 2.3 wire form): what `ledger verify` and
  // anyone else re-checks (header hash, PoW, merkle root, attestation, beacon signatures)
  app.get('/api/explorer/block/:height/raw', {
    schema: {
      tags,
      summary: 'one block as stored and gossiped, raw transactions and attestation envelope included',
      params: pathParam('height', 'block height (integer)'),
      response: { 200: { type: 'object', additionalProperties: true }, 400: errorSchema, 404: errorSchema }
    }
  }, async (request) => {
    const height = heightOf((request.params as { height: string }).height, viewErrors)
    const block = Number.isSafeInteger(height) && height >= 0 ? await ctx.chain.getBlockByHeight(height) : undefined
    if (block === undefined) throw new HttpError(404, viewErrors.noSuchBlock)
    return block
  })

  // the same list as GET {dashboard}/api/qrng beacons: what the page verifies attestations under
  app.get('/api/explorer/beacons', {
    schema: {
      tags,
      summary: 'the beacons this network trusts, with the keys their rounds must verify under',
      response: { 200: { type: 'object', required: ['beacons'], properties: { beacons: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, scheme: { type: 'string' }, public_key: { type: 'string' }, period: { type: 'integer' }, genesis_time: { type: 'integer' }, chain_hash: { type: 'string' } } } } } } }
    }
  }, async () => ({ beacons: trustedBeacons(ctx.params.trustedSources, ctx.params.sourceRegistry) }))

  app.get('/api/explorer/tx/:tx_id', {
    schema: {
      tags,
      summary: 'one transaction: the chain (by index) first, then the mempool',
      params: pathParam('tx_id', '64-hex transaction id'),
      response: { 200: txLookupSchema, 404: errorSchema }
    }
  }, async (request, reply) => {
    const id = normalizeTxId((request.params as { tx_id: string }).tx_id)
    const hit = id === null ? undefined : cache?.txs.get(id)
    if (hit !== undefined) return sendJson(reply, renderTemplate(hit.template, ctx.nameOf, confirmationsAt(hit.height)))
    const generation = cache?.generation
    const tx = id === null ? undefined : await lookupTx(ctx, id)
    if (tx === undefined) throw new HttpError(404, viewErrors.txNotFound)
    // a pending transaction is not kept: it has no block yet
    if (cache?.txs.keeps !== true || id === null || generation !== cache.generation || tx.status !== 'confirmed' || tx.block_height === undefined) return sendJson(reply, reply.serialize(tx) as string)
    const template = cutTemplate(reply.serialize({ ...tx, sender_name: nameMark(0), recipient_name: nameMark(1), confirmations: confirmationsMark }) as string, [tx.sender, tx.recipient])
    if (template === null) return sendJson(reply, reply.serialize(tx) as string)
    cache.txs.set(id, { height: tx.block_height, template }, template.bytes)
    return sendJson(reply, renderTemplate(template, ctx.nameOf, tx.confirmations))
  })

  app.get('/api/explorer/address/:address', {
    schema: {
      tags,
      summary: 'one address: balance and transaction history, newest first',
      params: pathParam('address', '32-hex or 40-hex address, with or without 0x, any case'),
      querystring: pageQuerySchema,
      response: { 200: addressDetailSchema, 400: errorSchema }
    }
  }, async (request) => {
    const detail = await addressDetail(ctx, (request.params as { address: string }).address, views.pageRequest(request.query as { offset?: number; limit?: number }))
    if (detail === null) throw new HttpError(400, viewErrors.invalidAddress)
    return detail
  })

  app.get('/api/explorer/search', {
    schema: {
      tags,
      summary: 'where a search leads: a block (height or hash), a transaction (id or a unique prefix of 8+ hex), an address (32/40 hex or a user name)',
      querystring: { type: 'object', required: ['q'], properties: { q: { type: 'string', minLength: 1, maxLength: 256 } } },
      response: {
        200: {
          type: 'object',
          required: ['type'],
          properties: { type: { type: 'string', enum: ['block', 'tx', 'address'] }, height: { type: 'integer' }, tx_id: { type: 'string' }, address: { type: 'string' }, name: { type: 'string' } }
        },
        400: errorSchema,
        404: errorSchema
      }
    }
  }, async (request) => await views.search(ctx, (request.query as { q: string }).q))

  app.get('/api/explorer/mempool', {
    schema: {
      tags,
      summary: 'pending transactions, in the order a miner takes them (highest fee first)',
      querystring: pageQuerySchema,
      response: {
        200: { type: 'object', required: ['pending_count', 'transactions', 'pagination'], properties: { pending_count: { type: 'integer' }, transactions: { type: 'array', items: decodedTxSchema }, pagination: paginationSchema } },
        400: errorSchema
      }
    }
  }, async (request) => {
    const page = views.pageRequest(request.query as { offset?: number; limit?: number })
    const all = ctx.mempool.list()
    const slice = all.slice(page.offset, page.offset + page.limit)
    return { pending_count: all.length, transactions: slice.map((tx) => decodeTx(tx, ctx.nameOf)), pagination: pagination(page, all.length, slice.length) }
  })

  app.get('/api/explorer/abi/:address', {
    schema: {
      tags,
      summary: 'the ABI of a contract when this node compiled it (playground deploys): decodes its logs',
      params: pathParam('address', '40-hex contract address, with or without 0x'),
      response: { 404: errorSchema }
    }
  }, async (request) => {
    const abi = abis()?.abiAt((request.params as { address: string }).address)
    if (abi === undefined) throw new HttpError(404, 'no ABI known for this contract')
    return abi
  })

  app.get('/api/receipt/:tx_id', {
    schema: {
      tags: ['receipts'],
      summary: 'receipt of a contract transaction (SPEC 2.5)',
      params: pathParam('tx_id', '64-hex transaction id'),
      response: { 200: receiptSchema, 404: errorSchema }
    }
  }, async (request) => {
    const id = normalizeTxId((request.params as { tx_id: string }).tx_id)
    const receipt = id === null ? undefined : await ctx.chain.getReceipt(id)
    if (receipt === undefined) throw new HttpError(404, viewErrors.noReceipt)
    return receiptBody(receipt)
  })

  app.get('/api/receipts/block/:idx', {
    schema: {
      tags: ['receipts'],
      summary: 'receipts of one block, in block order',
      params: pathParam('idx', 'block height (integer)'),
      response: { 200: receiptListSchema, 400: errorSchema, 404: errorSchema }
    }
  }, async (request) => {
    const height = heightOf((request.params as { idx: string }).idx, viewErrors)
    if (ctx.chain.hashAtHeight(height) === undefined) throw new HttpError(404, viewErrors.noSuchBlock)
    return (await ctx.chain.receiptsOfBlock(height)).map(receiptBody)
  })
}
