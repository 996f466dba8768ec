// POST /api/playground/query: a method run read-only against the tip state (issue 14 item 9).
// The same fields as a call, but no transaction, no fee and nothing mined: the VM runs the
// call as a static call over a throw-away view of the state (any storage write, event or coin
// transfer fails it), with the gas capped so one request costs a bounded amount of CPU.
import { ChainVmState } from '../../core/chain/vm-state.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { ApprovedUser } from '../../core/kernel/account-service.ts'
import { executeCall } from '../../core/vm/index.ts'
import type { Cores } from '../../core/cores/cores.ts'
import { playgroundErrors } from './errors.ts'
import { encodedCallOf, gasLimitOf } from './submit.ts'
import type { Body } from './submit.ts'
import { returnUint } from './receipt.ts'

/** the most gas one query may burn: the default limit of a mined call */
export const QUERY_GAS_CAP = 1_000_000

export interface QueryResult {
  status: 'ok'
  contract_addr: string
  selector: number
  success: boolean
  gas_used: number
  gas_limit: number
  return_hex: string
  return_uint?: number | string
  revert_reason?: string
  error?: string
  block_height: number
}

/** `cores`: the kernel's VM, SHA3 and ML-DSA cores (the defaults when absent) */
export function runQuery (chain: ChainService, user: ApprovedUser, body: Body, cores?: Pick<Cores, 'vm' | 'sha3' | 'mldsa'>): QueryResult {
  const { to, selector, calldata } = encodedCallOf(body)
  if (body.value !== undefined && body.value !== null && body.value !== 0 && body.value !== '0') {
    throw playgroundErrors.badField('a query carries no value: send coin with POST /api/playground/call')
  }
  const gasLimit = Math.min(gasLimitOf(body), QUERY_GAS_CAP)
  const tip = chain.tip()
  const state = new ChainVmState(chain.stateView())
  const env = { blockHeight: tip.height + 1, timestamp: Math.max(tip.timestamp, Math.floor(Date.now() / 1000)), miner: '0'.repeat(40) }
  const { receipt } = executeCall({ state, caller: user.vm_address, to, calldata, gasLimit, env, static: true, core: cores?.vm, cores })
  const out: QueryResult = {
    status: 'ok',
    contract_addr: `0x${to}`,
    selector,
    success: receipt.success,
    gas_used: receipt.gas_used,
    gas_limit: gasLimit,
    return_hex: receipt.return_data,
    block_height: tip.height
  }
  const word = returnUint(receipt.return_data)
  if (word !== undefined) out.return_uint = word
  if (!receipt.success) {
    if (typeof receipt.revert_reason === 'string') out.revert_reason = receipt.revert_reason
    if (receipt.error !== null) out.error = receipt.error
  }
  return out
}
