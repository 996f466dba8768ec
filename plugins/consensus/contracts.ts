// Bridges the chain's state overlay to the contract VM: every validator runs each deploy and
// call of a block through the configured interpreter core (`cores.vm`), against the block's
// overlay, so contract state, receipts and indexes commit (and undo on a reorg) with the block.
import type { ContractCall, ContractExecutor } from '../../core/chain/apply.ts'
import { ChainVmState } from '../../core/chain/vm-state.ts'
import { executeCall, executeDeploy, MemoryVmState, resolveVmCore } from '../../core/vm/index.ts'
import type { Interpreter, VmCoreName } from '../../core/vm/index.ts'
import type { Receipt } from '../../core/vm/receipt.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'
import type { MldsaCore } from '../../core/crypto/mldsa.ts'

/** the kernel's SHA3 and ML-DSA cores: contract addresses and precompiles */
type HashCores = { sha3: Sha3Core; mldsa: MldsaCore }

/**
 * Runs one contract transaction. applyTransaction has already taken amount + fee from the
 * sender and bumped its nonce; the fee stays spent (gas_used x GAS_PRICE comes out of it,
 * the rest is not refunded, SPEC 2.5). The amount is handed back to the sender so the VM
 * moves it to the contract inside the transaction's frame: a failed frame leaves it with
 * the sender.
 */
export function runContractCall (call: ContractCall, core: Interpreter | VmCoreName, cores?: HashCores): Receipt {
  const { overlay, tx, sender, value, gasLimit, env, maxLogBytes } = call
  const state = new ChainVmState(overlay)
  if (value > 0n) state.setBalance(sender, state.getBalance(sender) + value)
  const calldata = typeof tx.data.calldata === 'string' ? tx.data.calldata : ''
  if (tx.data.type === 'deploy') {
    return executeDeploy({ state, deployer: sender, code: String(tx.data.code ?? ''), calldata, value, gasLimit, env, core, cores, maxLogBytes }).receipt
  }
  return executeCall({ state, caller: sender, to: String(tx.data.to ?? ''), calldata, value, gasLimit, env, core, cores, maxLogBytes }).receipt
}

/** A tiny contract (init returns a runtime that stores 42 in slot 0 and returns it). */
const PROBE_RUNTIME = '602a600055602a60005260206000f3'
const probeInit = (): string => {
  const runtime = Buffer.from(PROBE_RUNTIME, 'hex')
  // PUSH1 len, PUSH1 offset, PUSH1 0, CODECOPY, PUSH1 len, PUSH1 0, RETURN, then the runtime
  const init = Buffer.from([0x60, runtime.length, 0x60, 12, 0x60, 0x00, 0x38, 0x60, runtime.length, 0x60, 0x00, 0xf3])
  return Buffer.concat([init, runtime]).toString('hex')
}

/**
 * Loads the interpreter core and proves it runs (a deploy and a call on a scratch state)
 * before the node accepts contract transactions: a core that cannot run must stop the node
 * at boot, not mark valid blocks invalid later.
 */
export function probeVmCore (core: Interpreter | VmCoreName, cores?: HashCores): void {
  const name = resolveVmCore(core).kind
  const state = new MemoryVmState()
  const env = { blockHeight: 0, timestamp: 0, miner: '0'.repeat(40) }
  const deployer = '1'.repeat(40)
  const deployed = executeDeploy({ state, deployer, code: probeInit(), gasLimit: 200_000, env, core, cores }).receipt
  if (!deployed.success) throw new Error(`VM core "${name}" failed its self-test deploy: ${deployed.error ?? 'unknown error'}`)
  const called = executeCall({ state, caller: deployer, to: deployed.contract, calldata: '', gasLimit: 100_000, env, core, cores })
  if (!called.receipt.success || BigInt('0x' + called.receipt.return_data) !== 42n || state.getStorage(deployed.contract, 0n) !== 42n) {
    throw new Error(`VM core "${name}" failed its self-test call: ${called.receipt.error ?? 'wrong result'}`)
  }
}

/** `core`: the kernel's interpreter (its `cores.vm`), used for every contract transaction of its chain. */
export async function createContractExecutor (core: Interpreter | VmCoreName, cores?: HashCores): Promise<ContractExecutor> {
  probeVmCore(core, cores)
  return { execute: (call) => runContractCall(call, core, cores) }
}
