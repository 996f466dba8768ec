// Dashboard chain reads (SPEC 4.1): chain summary, blocks, a block by height or hash, a
// transaction with its raw data, an address, the mempool, the fee estimate and search.
import type { FastifyInstance } from 'fastify'
import { HttpError } from '../../../core/kernel/errors.ts'
import type { ViewContext } from '../../../core/views/context.ts'
import { chainStats } from '../../../core/views/chain-stats.ts'
import { BLOCK_HASH_RE, blockAtHeight, blockWithHash, listBlocks, looksLikeHeight, parseHeight } from '../../../core/views/block-queries.ts'
import type { BlockDetail } from '../../../core/views/block-view.ts'
import { lookupTx } from '../../../core/views/tx-lookup.ts'
import { addressDetail, resolveAddress } from '../../../core/views/address-detail.ts'
import { bohmToCoin } from '../../../core/chain/money.ts'
import { txKind } from '../../../core/views/tx-view.ts'
import type { PageRequest } from '../../../core/views/pagination.ts'
import type { ChainViewsHttp, ViewErrorTexts } from '../../../core/kernel/chain-views-http.ts'
import { accountSchema, chainSummarySchema, feeSchema, mempoolSchema } from '../schemas.ts'
import type { FeeEstimator } from '../fee-estimate.ts'

const tags = ['chain']
type Query = { offset?: number; limit?: number }
const pathParam = (name: string, description: string) => ({
  type: 'object',
  properties: { [name]: { type: 'string', description } }
})

async function blockByIdentifier (ctx: ViewContext, identifier: string, viewErrors: ViewErrorTexts): Promise<BlockDetail> {
  const id = identifier.trim()
  const height = looksLikeHeight(id) ? parseHeight(id) : null
  const hash = id.toLowerCase().replace(/^0x/, '')
  if (height === null && !BLOCK_HASH_RE.test(hash)) throw new HttpError(400, viewErrors.badBlockIdentifier)
  const block = height !== null ? await blockAtHeight(ctx, height) : await blockWithHash(ctx, hash)
  if (block === undefined) throw new HttpError(404, viewErrors.noSuchBlock)
  return block
}

async function rawTx (ctx: ViewContext, txId: string, viewErrors: ViewErrorTexts) {
  const tx = await lookupTx(ctx, txId, { raw: true })
  if (tx === undefined) throw new HttpError(404, viewErrors.txNotFound)
  return tx
}

async function address (ctx: ViewContext, input: string, page: PageRequest, viewErrors: ViewErrorTexts) {
  const detail = await addressDetail(ctx, input, page)
  if (detail === null) throw new HttpError(400, viewErrors.invalidAddress)
  return detail
}

export function registerChainRoutes (app: FastifyInstance, views: ChainViewsHttp, ctx: ViewContext, fees: FeeEstimator): void {
  const { addressDetailSchema, blockDetailSchema, blockPageSchema, errorSchema, rawTxLookupSchema } = views.schemas
  const { errors: viewErrors, pageQuerySchema } = views
  const pageRequest = (query: Query): PageRequest => views.pageRequest(query)
  app.get('/api/chain', { schema: { tags, summary: 'chain summary', response: { 200: chainSummarySchema } } }, async () => {
    const s = chainStats(ctx)
    return {
      height: s.height,
      tip_hash: s.tip_hash,
      tip_timestamp: s.tip_timestamp,
      total_supply: s.total_supply,
      max_supply: s.max_supply,
      difficulty: s.difficulty,
      block_time_target: s.block_time_target,
      testnet: s.testnet,
      network: ctx.params.name,
      genesis_hash: ctx.chain.genesisHash(),
      chain_id: ctx.params.chainId
    }
  })

  app.get('/api/account/:address', {
    schema: {
      tags,
      summary: 'balance and next nonce of a wallet address: what a wallet needs to sign its next transaction',
      params: pathParam('address', '32-hex wallet address (or a 40-hex VM address the chain has seen)'),
      response: { 200: accountSchema, 400: errorSchema }
    }
  }, async (request) => {
    const resolved = resolveAddress(ctx, (request.params as { address: string }).address)
    if (resolved === null || resolved.wallet === null) throw new HttpError(400, viewErrors.invalidAddress)
    const wallet = resolved.wallet
    const account = ctx.chain.getAccount(wallet)
    const pendingSpend = ctx.mempool.pendingSpend(wallet)
    const nextNonce = ctx.mempool.nextNonce(wallet)
    return {
      address: wallet,
      balance: bohmToCoin(account.balance),
      spendable: bohmToCoin(account.balance > pendingSpend ? account.balance - pendingSpend : 0n),
      nonce: account.nonce,
      next_nonce: nextNonce,
      pending_count: nextNonce - account.nonce,
      public_key_known: account.publicKey !== null
    }
  })

  app.get('/api/blocks', {
    schema: { tags, summary: 'blocks, newest first (same shape as the explorer)', querystring: pageQuerySchema, response: { 200: blockPageSchema, 400: errorSchema } }
  }, async (request) => listBlocks(ctx, pageRequest(request.query as Query)))

  // a wildcard, not a :param: a 128-hex hash is longer than the router's parameter limit
  app.get('/api/block/*', {
    schema: {
      tags,
      summary: 'one block by height or 128-hex hash',
      params: pathParam('*', 'block height or block hash'),
      response: { 200: blockDetailSchema, 400: errorSchema, 404: errorSchema }
    }
  }, async (request) => await blockByIdentifier(ctx, (request.params as { '*': string })['*'], viewErrors))

  app.get('/api/tx/:tx_id', {
    schema: {
      tags,
      summary: 'one transaction with its raw data field (deploy bytecode, call calldata)',
      params: pathParam('tx_id', '64-hex transaction id'),
      response: { 200: rawTxLookupSchema, 404: errorSchema }
    }
  }, async (request) => await rawTx(ctx, (request.params as { tx_id: string }).tx_id, viewErrors))

  app.get('/api/address/:address', {
    schema: {
      tags,
      summary: 'address detail with balance and transaction history',
      params: pathParam('address', '32-hex or 40-hex address'),
      querystring: pageQuerySchema,
      response: { 200: addressDetailSchema, 400: errorSchema }
    }
  }, async (request) => await address(ctx, (request.params as { address: string }).address, pageRequest(request.query as Query), viewErrors))

  app.get('/api/mempool', { schema: { tags, summary: 'pending transactions, highest fee first', response: { 200: mempoolSchema } } }, async () => {
    const txs = ctx.mempool.list()
    return {
      pending_count: ctx.mempool.size,
      capacity: ctx.mempool.capacity,
      transactions: txs.map((tx) => ({
        tx_id: tx.transaction_id,
        sender: tx.sender,
        recipient: tx.recipient,
        amount: tx.amount,
        fee: tx.fee,
        timestamp: tx.timestamp,
        nonce: tx.nonce,
        kind: txKind(tx),
        data: tx.data
      }))
    }
  })

  app.get('/api/fee', {
    schema: { tags, summary: 'fee estimate from mempool depth and recent blocks (see docs/dashboard.md)', response: { 200: feeSchema } }
  }, async () => await fees.estimate())

  app.get('/api/search', {
    schema: {
      tags,
      summary: 'integer -> block; block hash -> block; 64 hex or a unique prefix of 8+ hex -> transaction; 32/40 hex or a user name -> address. Answers with that endpoint\'s shape and names it in x-result-type',
      querystring: { type: 'object', required: ['q'], properties: { q: { type: 'string', minLength: 1, maxLength: 256 } } },
      response: { 400: errorSchema, 404: errorSchema }
    }
  }, async (request, reply) => {
    const hit = await views.search(ctx, (request.query as { q: string }).q)
    let body: object
    let schema: Record<string, unknown>
    if (hit.type === 'block') {
      body = await blockByIdentifier(ctx, String(hit.height), viewErrors)
      schema = blockDetailSchema
    } else if (hit.type === 'tx') {
      body = await rawTx(ctx, hit.tx_id, viewErrors)
      schema = rawTxLookupSchema
    } else {
      body = await address(ctx, hit.address, { offset: 0, limit: 25 }, viewErrors)
      schema = addressDetailSchema
    }
    // serialized through the same schema as the type-specific endpoint
    return reply.header('x-result-type', hit.type).type('application/json; charset=utf-8').send(reply.serializeInput(body as Record<string, unknown>, schema))
  })
}
