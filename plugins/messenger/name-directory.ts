// The `names` service: display names of approved users by wallet (32-hex) or VM (40-hex)
// address, and "foundation" for the address holding the genesis premine. A blocked user's
// wallet keeps the name it signed with, so earlier messages stay readable. A user name that
// equals a system label (one approved before the names were reserved) is never shown: the
// label must only ever mean the system.
import type { NameDirectory } from '../../core/kernel/services.ts'
import { normalizeAddress, vmAddressOf } from '../../core/chain/address.ts'
import type { AccountStore } from './accounts/store.ts'
import { isReservedName } from '../../core/views/user-names.ts'

export const FOUNDATION_NAME = 'foundation'

export function createNameDirectory (accounts: AccountStore, foundationAddress: string): NameDirectory {
  const foundation = new Set([foundationAddress, vmAddressOf(foundationAddress)])
  return {
    nameOf (address: string): string | null {
      const norm = normalizeAddress(address)
      if (norm === null) return null
      if (foundation.has(norm.address)) return FOUNDATION_NAME
      const name = accounts.userByAddress(norm.address)?.name ?? accounts.formerNameOf(norm.address)
      return name === undefined || isReservedName(name) ? null : name
    },
    addressOf (name: string): string | null {
      const user = accounts.user(name)
      return user === undefined || isReservedName(user.name) ? null : user.address
    }
  }
}
