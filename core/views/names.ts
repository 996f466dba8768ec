// Display names for addresses in explorer and dashboard views. The `names` service (the
// messenger's directory of approved users) is optional; the foundation address is named
// "foundation" whether or not that service is present.
import type { NameDirectory } from '../services.ts'
import { normalizeAddress, vmAddressOf } from '../chain/address.ts'

export const FOUNDATION_NAME = 'foundation'

/** name of an address in either form, or null; special senders (genesis, mining_reward) get null */
export type NameOf = (address: string) => string | null

export function nameLookup (directory: () => NameDirectory | undefined, foundationAddress: string): NameOf {
  const foundation = new Set([foundationAddress, vmAddressOf(foundationAddress)])
  return (address) => {
    const norm = normalizeAddress(address)
    if (norm === null) return null
    if (foundation.has(norm.address)) return FOUNDATION_NAME
    return directory()?.nameOf(norm.address) ?? null
  }
}
