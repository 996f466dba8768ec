// Search (SPEC 4.1 rule, widened for people): an integer is a block height; a 128-hex string a
// block hash; 64 hex a transaction id; 32 or 40 hex an address; any other run of at least 8
// hex characters a unique transaction id prefix (the chat shows 16); a user name the address
// of that user. Shared by the dashboard's GET /api/search and the explorer's search box.
import { HttpError } from '../../../core/kernel/errors.ts'
import { NAME_RE } from '../../../core/views/user-names.ts'
import { normalizeAddress } from '../../../core/chain/address.ts'
import type { ViewContext } from '../../../core/views/context.ts'
import { BLOCK_HASH_RE, looksLikeHeight, parseHeight } from '../../../core/views/block-queries.ts'
import type { SearchHit } from '../../../core/kernel/chain-views-http.ts'
import { VIEW_ERRORS } from './errors.ts'

export const MIN_TX_PREFIX = 8

export const SEARCH_HELP = 'enter a block height, a block hash, a transaction id (or its first 8 or more hex characters), an address or a user name'

export async function resolveSearch (ctx: ViewContext, query: string): Promise<SearchHit> {
  const q = query.trim()
  if (q.length === 0 || q.length > 256) throw new HttpError(400, `search: ${SEARCH_HELP}`)
  if (looksLikeHeight(q)) {
    const height = parseHeight(q)
    if (height === null || !Number.isSafeInteger(height) || height < 0 || ctx.chain.hashAtHeight(height) === undefined) throw new HttpError(404, VIEW_ERRORS.noSuchBlock)
    return { type: 'block', height }
  }
  const hex = /^(0x)?[0-9a-f]+$/i.test(q) ? q.toLowerCase().replace(/^0x/, '') : null
  if (hex !== null && BLOCK_HASH_RE.test(hex)) {
    const meta = ctx.chain.getBlockMeta(hex)
    if (meta === undefined || ctx.chain.hashAtHeight(meta.height) !== hex) throw new HttpError(404, VIEW_ERRORS.noSuchBlock)
    return { type: 'block', height: meta.height }
  }
  if (hex !== null && hex.length === 64) {
    const known = ctx.mempool.get(hex) !== undefined || (await ctx.chain.getTransaction(hex)) !== undefined
    if (!known) throw new HttpError(404, VIEW_ERRORS.txNotFound)
    return { type: 'tx', tx_id: hex }
  }
  if (hex !== null && (hex.length === 32 || hex.length === 40)) {
    const norm = normalizeAddress(hex)
    if (norm !== null) return { type: 'address', address: hex }
  }
  if (hex !== null && hex.length >= MIN_TX_PREFIX && hex.length < 128) {
    const ids = await txIdsStartingWith(ctx, hex, 2)
    if (ids.length === 1 && ids[0] !== undefined) return { type: 'tx', tx_id: ids[0] }
    if (ids.length > 1) throw new HttpError(400, `more than one transaction id starts with ${hex}: type more characters`)
    // "deadbeef" may also be somebody's name
    const named = nameHit(ctx, q)
    if (named !== undefined) return named
    throw new HttpError(404, `no transaction id starts with ${hex}`)
  }
  if (NAME_RE.test(q)) {
    const named = nameHit(ctx, q)
    if (named !== undefined) return named
    throw new HttpError(404, `no user named ${q}`)
  }
  throw new HttpError(400, `nothing to search for in "${q.slice(0, 64)}": ${SEARCH_HELP}`)
}

function nameHit (ctx: ViewContext, name: string): SearchHit | undefined {
  const address = ctx.addressOfName?.(name) ?? null
  return address === null ? undefined : { type: 'address', address, name }
}

/** ids in the mempool and on the main chain that start with `prefix`, at most `limit` */
async function txIdsStartingWith (ctx: ViewContext, prefix: string, limit: number): Promise<string[]> {
  const ids = new Set<string>()
  for (const tx of ctx.mempool.list()) {
    if (tx.transaction_id.startsWith(prefix)) ids.add(tx.transaction_id)
    if (ids.size >= limit) return [...ids]
  }
  for (const id of await ctx.chain.txIdsWithPrefix(prefix, limit)) ids.add(id)
  return [...ids].slice(0, limit)
}
