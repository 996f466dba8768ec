// Bridges the chain's state overlay to the contract VM. Until the VM core is present the
// node runs without contracts and refuses contract transactions with a clear reason.
import type { ContractExecutor } from '../../core/chain/apply.ts'

export async function createContractExecutor (_core: 'wasm' | 'js'): Promise<ContractExecutor | null> {
  return null
}
