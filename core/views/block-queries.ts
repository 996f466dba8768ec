// Block reads for the explorer and the dashboard: newest-first pages built from block metas,
// and one block's detail by main-chain height or hash.
import type { ViewContext } from './context.ts'
import { blockDetail, summaryOfMeta } from './block-view.ts'
import type { BlockDetail, ListedBlock } from './block-view.ts'
import { pagination } from './pagination.ts'
import type { PageRequest, Pagination } from './pagination.ts'

export interface BlockPage { blocks: ListedBlock[]; pagination: Pagination }

/** offset 0 is the tip; heights walk down from there */
export function listBlocks (ctx: ViewContext, page: PageRequest): BlockPage {
  const total = ctx.chain.tip().height + 1
  const blocks: ListedBlock[] = []
  for (let height = total - 1 - page.offset; height >= 0 && blocks.length < page.limit; height--) {
    const hash = ctx.chain.hashAtHeight(height)
    const meta = hash === undefined ? undefined : ctx.chain.getBlockMeta(hash)
    if (meta !== undefined) blocks.push(summaryOfMeta(meta))
  }
  return { blocks, pagination: pagination(page, total, blocks.length) }
}

/** Decimal integer text (optional sign) as a number; null for anything else. Unsafe or
 *  negative integers are still integers: they simply name no block. */
export function parseHeight (text: string): number | null {
  if (!/^[+-]?\d{1,400}$/.test(text.trim())) return null
  return Number(text.trim())
}

/** A height where a hash or transaction id could also be meant (dashboard identifier,
 *  search): at most 16 digits, since 64 or 128 decimal digits are valid hex too. */
export function looksLikeHeight (text: string): boolean {
  return /^[+-]?\d{1,16}$/.test(text.trim())
}

export async function blockAtHeight (ctx: ViewContext, height: number): Promise<BlockDetail | undefined> {
  if (!Number.isSafeInteger(height) || height < 0) return undefined
  const block = await ctx.chain.getBlockByHeight(height)
  return block === undefined ? undefined : blockDetail(block, ctx.nameOf)
}

export const BLOCK_HASH_RE = /^[0-9a-f]{128}$/

/** main-chain blocks only: a side-branch block is not part of the chain the explorer shows */
export async function blockWithHash (ctx: ViewContext, hash: string): Promise<BlockDetail | undefined> {
  const h = hash.trim().toLowerCase().replace(/^0x/, '')
  if (!BLOCK_HASH_RE.test(h)) return undefined
  const meta = ctx.chain.getBlockMeta(h)
  if (meta === undefined || ctx.chain.hashAtHeight(meta.height) !== h) return undefined
  const block = await ctx.chain.getBlockByHash(h)
  return block === undefined ? undefined : blockDetail(block, ctx.nameOf)
}
