// Deploy a contract from source into a MemoryVmState and call its methods by name.
import { compile } from '../../../core/contracts/index.ts'
import type { CompileResult } from '../../../core/contracts/index.ts'
import { MemoryVmState, executeCall, executeDeploy, encodeCall, decodeReturn } from '../../../core/vm/index.ts'
import type { CallReceipt, DeployReceipt, VmCoreKind } from '../../../core/vm/index.ts'

export const DEPLOYER = 'de'.repeat(20)
export const ALICE = 'a1'.repeat(20)
export const BOB = 'b0'.repeat(20)
export const CAROL = 'c0'.repeat(20)
export const env = { blockHeight: 42, timestamp: 1_760_000_000, miner: 'ee'.repeat(20) }

export interface CallOutcome {
  receipt: CallReceipt
  /** the decoded return value (null for no value or a failed call) */
  value: string | boolean | null
}

export class Deployed {
  readonly state: MemoryVmState
  readonly compiled: CompileResult
  readonly address: string
  readonly deployReceipt: DeployReceipt
  readonly core: VmCoreKind

  constructor (source: string, core: VmCoreKind = 'js', opts: { value?: bigint; state?: MemoryVmState } = {}) {
    this.core = core
    this.state = opts.state ?? new MemoryVmState()
    for (const who of [DEPLOYER, ALICE, BOB, CAROL]) if (this.state.getBalance(who) === 0n) this.state.setBalance(who, 10n ** 21n)
    this.compiled = compile(source)
    const { receipt } = executeDeploy({ state: this.state, deployer: DEPLOYER, code: this.compiled.bytecode, value: opts.value, gasLimit: 3_000_000, env, core })
    if (!receipt.success) throw new Error(`deploy failed: ${receipt.error ?? ''} ${receipt.revert_reason ?? ''}`)
    this.deployReceipt = receipt
    this.address = receipt.contract
  }

  method (name: string): CompileResult['abi']['methods'][number] {
    const m = this.compiled.abi.methods.find((x) => x.name === name)
    if (m === undefined) throw new Error(`no method ${name}`)
    return m
  }

  call (name: string, args: unknown[] = [], opts: { from?: string; value?: bigint; gasLimit?: number } = {}): CallOutcome {
    const m = this.method(name)
    const { receipt, returnData } = executeCall({
      state: this.state,
      caller: opts.from ?? DEPLOYER,
      to: this.address,
      calldata: encodeCall(m.selector, args, m.params),
      value: opts.value,
      gasLimit: opts.gasLimit ?? 1_000_000,
      env,
      core: this.core
    })
    return { receipt, value: receipt.success ? decodeReturn(returnData, m.returns) : null }
  }

  /** the return value; throws with the revert reason when the call failed */
  get (name: string, args: unknown[] = [], opts: { from?: string; value?: bigint } = {}): string | boolean | null {
    const { receipt, value } = this.call(name, args, opts)
    if (!receipt.success) throw new Error(`${name} failed: ${receipt.error ?? ''}: ${receipt.revert_reason ?? ''}`)
    return value
  }

  /** the revert reason of a call that must fail */
  reason (name: string, args: unknown[] = [], opts: { from?: string; value?: bigint } = {}): string | null {
    const { receipt } = this.call(name, args, opts)
    if (receipt.success) throw new Error(`${name} succeeded but should have failed`)
    return receipt.revert_reason ?? receipt.error
  }
}
