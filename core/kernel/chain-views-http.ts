// The HTTP side of the chain views, shared by every surface that serves them (the explorer on
// the public server, the dashboard on the operator's): response schemas for fastify and
// OpenAPI, the read surfaces' error texts, the offset/limit querystring, and search answered
// as a hit or a 400/404. The views themselves are pure (core/views); this is the `http`
// service's `chainViews` member (plugins/http/chain-views/), so one definition serves both
// surfaces byte for byte and neither plugin imports the other's files.
import type { JsonSchema } from './plugin.ts'
import type { ViewContext } from '../views/context.ts'
import type { PageRequest } from '../views/pagination.ts'

export type SearchHit =
  | { type: 'block'; height: number }
  | { type: 'tx'; tx_id: string }
  | { type: 'address'; address: string; name?: string }

/** the response schemas of the chain views, named as routes use them */
export interface ChainViewSchemas {
  /** the one error shape `{ "error", "phase"? }`, open to context a handler adds */
  readonly errorSchema: JsonSchema
  readonly paginationSchema: JsonSchema
  readonly statsSchema: JsonSchema
  readonly blockPageSchema: JsonSchema
  readonly blockDetailSchema: JsonSchema
  readonly decodedTxSchema: JsonSchema
  readonly txLookupSchema: JsonSchema
  /** a transaction lookup as the dashboard serves it (raw transaction fields) */
  readonly rawTxLookupSchema: JsonSchema
  readonly addressDetailSchema: JsonSchema
  readonly receiptSchema: JsonSchema
  readonly receiptListSchema: JsonSchema
}

/** error texts of the read surfaces (SPEC 7 fixes the first three) */
export interface ViewErrorTexts {
  readonly heightNotInteger: string
  readonly noSuchBlock: string
  readonly txNotFound: string
  readonly noReceipt: string
  readonly invalidAddress: string
  readonly badBlockIdentifier: string
}

export interface ChainViewsHttp {
  readonly schemas: ChainViewSchemas
  readonly errors: ViewErrorTexts
  /** querystring schema of `offset` / `limit` (non-negative integers, defaults applied) */
  readonly pageQuerySchema: JsonSchema
  /** the page a validated querystring asks for: 400 for what is no safe integer, limit clamped */
  pageRequest(query: { offset?: number; limit?: number }): PageRequest
  /** what a search box query names (SPEC 4.1, widened for user names), or an HttpError 400 / 404 */
  search(ctx: ViewContext, query: string): Promise<SearchHit>
}
