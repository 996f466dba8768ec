// The stream's query filters (SPEC 6): `types` (comma-separated; unknown values ignored) and
// `address` (32-hex or 40-hex, 0x optional, any case), combined with AND.
import { HttpError } from '../../core/kernel/errors.ts'
import { normalizeAddress } from '../../core/chain/address.ts'
import { EVENT_TYPES } from './events.ts'
import type { StreamEvent } from './events.ts'

export interface EventFilter {
  /** null: every type */
  types: ReadonlySet<string> | null
  /** null: every address; otherwise the canonical form asked for */
  address: string | null
}

export const MATCH_ALL: EventFilter = { types: null, address: null }

/** @param known the stream's event types (SPEC 6's four by default) */
export function parseFilter (query: { types?: unknown; address?: unknown }, known: readonly string[] = EVENT_TYPES): EventFilter {
  let types: Set<string> | null = null
  if (typeof query.types === 'string') {
    const asked = query.types.split(',').map((t) => t.trim().toLowerCase()).filter((t) => known.includes(t))
    // only unknown values (or none) leave nothing to filter by: the client gets everything
    if (asked.length > 0) types = new Set(asked)
  }
  let address: string | null = null
  if (typeof query.address === 'string' && query.address.length > 0) {
    const norm = normalizeAddress(query.address)
    if (norm === null) throw new HttpError(400, 'address must be a 32-hex chain address or a 40-hex VM address')
    address = norm.address
  }
  return { types, address }
}

export function matches (f: EventFilter, e: StreamEvent): boolean {
  if (f.types !== null && !f.types.has(e.type)) return false
  if (f.address !== null && !e.addresses.has(f.address)) return false
  return true
}
