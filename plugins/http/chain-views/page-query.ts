// A page request read from a querystring (SPEC 8 page sizes). A limit above the maximum is
// clamped rather than refused: asking for "a lot" gets the most a page holds.
import { HttpError } from '../../../core/kernel/errors.ts'
import { PAGE_DEFAULT_LIMIT, PAGE_MAX_LIMIT } from '../../../core/views/pagination.ts'
import type { PageRequest } from '../../../core/views/pagination.ts'

/** querystring schema: non-negative integers; anything else is a 400 naming the field */
export const pageQuerySchema = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: 'items to skip, 0 = newest' },
    limit: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: PAGE_DEFAULT_LIMIT, description: `page size, default ${PAGE_DEFAULT_LIMIT}, at most ${PAGE_MAX_LIMIT} (larger values are clamped)` }
  }
} as const

/** the schema's coercion lets "1e400" through as Infinity: refuse what is no safe integer */
function safeInteger (name: string, value: number): number {
  if (!Number.isSafeInteger(value)) throw new HttpError(400, `querystring.${name} must be <= ${Number.MAX_SAFE_INTEGER}`)
  return value
}

export function pageRequest (query: { offset?: number; limit?: number }): PageRequest {
  return {
    offset: safeInteger('offset', query.offset ?? 0),
    limit: Math.min(safeInteger('limit', query.limit ?? PAGE_DEFAULT_LIMIT), PAGE_MAX_LIMIT)
  }
}
