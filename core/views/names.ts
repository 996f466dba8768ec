// Display names for addresses in explorer and dashboard views. The `names` service (the
// messenger's directory of approved users) is optional; the foundation address is named
// "foundation" whether or not that service is present.
import type { NameDirectory } from '../kernel/services.ts'
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

/** the reverse of nameLookup: the address a display name stands for, or null */
export function addressLookup (directory: () => NameDirectory | undefined, foundationAddress: string): (name: string) => string | null {
  return (name) => {
    if (name.toLowerCase() === FOUNDATION_NAME) return foundationAddress
    return directory()?.addressOf?.(name) ?? null
  }
}
