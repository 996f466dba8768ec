// The `http` service's `chainViews`: the HTTP side of the chain views, one definition for
// every surface serving them (contract: core/kernel/chain-views-http.ts).
import type { ChainViewsHttp } from '../../../core/kernel/chain-views-http.ts'
import {
  addressDetailSchema, blockDetailSchema, blockPageSchema, decodedTxSchema, errorSchema, paginationSchema, rawTxLookupSchema,
  receiptListSchema, receiptSchema, statsSchema, txLookupSchema
} from './schemas.ts'
import { VIEW_ERRORS } from './errors.ts'
import { pageQuerySchema, pageRequest } from './page-query.ts'
import { resolveSearch } from './search.ts'

export const chainViewsHttp: ChainViewsHttp = {
  schemas: {
    errorSchema,
    paginationSchema,
    statsSchema,
    blockPageSchema,
    blockDetailSchema,
    decodedTxSchema,
    txLookupSchema,
    rawTxLookupSchema,
    addressDetailSchema,
    receiptSchema,
    receiptListSchema
  },
  errors: VIEW_ERRORS,
  pageQuerySchema,
  pageRequest,
  search: resolveSearch
}
