// The `names` service: display names of approved users by wallet (32-hex) or VM (40-hex)
// address, and "foundation" for the address holding the genesis premine.
import type { NameDirectory } from '../services.ts'
import { normalizeAddress, vmAddressOf } from '../chain/address.ts'
import type { AccountStore } from './store.ts'

export const FOUNDATION_NAME = 'foundation'

export function createNameDirectory (accounts: AccountStore, foundationAddress: string): NameDirectory {
  const foundation = new Set([foundationAddress, vmAddressOf(foundationAddress)])
  return {
    nameOf (address: string): string | null {
      const norm = normalizeAddress(address)
      if (norm === null) return null
      if (foundation.has(norm.address)) return FOUNDATION_NAME
      return accounts.userByAddress(norm.address)?.name ?? null
    }
  }
}
