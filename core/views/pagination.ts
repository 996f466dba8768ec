// Offset/limit paging (SPEC 2.4 pagination object, SPEC 8 page sizes). Reading a page request
// from a querystring (and its 400s) is HTTP: plugins/http/chain-views/page-query.ts.
export interface Pagination {
  offset: number
  limit: number
  total: number
  has_more: boolean
}

export interface PageRequest { offset: number; limit: number }

export const PAGE_DEFAULT_LIMIT = 25
export const PAGE_MAX_LIMIT = 100

export function pagination (page: PageRequest, total: number, returned: number): Pagination {
  return { offset: page.offset, limit: page.limit, total, has_more: page.offset + returned < total }
}
