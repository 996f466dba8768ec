// What every chain view reads from: the chain and mempool services, the network parameters
// and the (optional) name directory. Built once per HTTP surface.
import type { ChainService } from '../chain/chain-service.ts'
import type { MempoolService } from '../chain/mempool-service.ts'
import type { NetworkParams } from '../chain/params.ts'
import type { NameOf } from './names.ts'

export interface ViewContext {
  chain: ChainService
  mempool: MempoolService
  params: NetworkParams
  nameOf: NameOf
  /** the address of a user (or "foundation") by name, any case; absent without a directory */
  addressOfName?: (name: string) => string | null
}
