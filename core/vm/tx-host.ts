// One transaction's FrameHost: the logs it emitted so far and the rules of a CALL, shared by
// both interpreter cores. A sub-call runs inside its own state snapshot and log mark; a
// callee that fails leaves no trace but the gas it burned.
import type { ExecEnv, VmState } from './host.ts'
import type { FrameHost, FrameInput, Interpreter, SubCall, SubCallResult } from './interpreter.ts'
import { LIMITS } from './params.ts'
import { CallOutcome, Status, isSuccess } from './status.ts'
import { PRECOMPILES } from './precompiles/index.ts'
import type { PrecompileCores } from './precompiles/types.ts'
import { DEFAULT_SHA3_CORE } from '../crypto/sha3.ts'
import { DEFAULT_MLDSA_CORE } from '../crypto/mldsa.ts'

const DEFAULT_PRECOMPILE_CORES: PrecompileCores = { sha3: DEFAULT_SHA3_CORE, mldsa: DEFAULT_MLDSA_CORE }

const EMPTY = new Uint8Array(0)

export interface EmittedLog {
  address: string
  topics: bigint[]
  data: Uint8Array
}

export class TxHost implements FrameHost {
  readonly state: VmState
  readonly env: ExecEnv
  readonly logs: EmittedLog[] = []
  readonly #interpreter: Interpreter
  readonly #cores: PrecompileCores

  /** `cores`: the SHA3 and ML-DSA cores the precompiles use (the transaction's kernel's) */
  constructor (state: VmState, env: ExecEnv, interpreter: Interpreter, cores: PrecompileCores = DEFAULT_PRECOMPILE_CORES) {
    this.state = state
    this.env = env
    this.#interpreter = interpreter
    this.#cores = cores
  }

  log (address: string, topics: bigint[], data: Uint8Array): void {
    this.logs.push({ address, topics, data })
  }

  /** Moves value between accounts; false (and nothing moved) when `from` cannot cover it. */
  transfer (from: string, to: string, value: bigint): boolean {
    if (value === 0n) return true
    const balance = this.state.getBalance(from)
    if (balance < value) return false
    this.state.setBalance(from, balance - value)
    this.state.setBalance(to, this.state.getBalance(to) + value)
    return true
  }

  call (parent: FrameInput, call: SubCall): SubCallResult {
    // Too deep a call stack is fatal to the whole transaction (DESIGN 4: the receipt names
    // it), not a soft failure the caller could swallow.
    if (parent.depth >= LIMITS.callDepth) return { outcome: CallOutcome.FATAL_DEPTH, gasLeft: 0, output: EMPTY }
    const { state } = this
    const snapshot = state.snapshot()
    const logMark = this.logs.length
    if (!this.transfer(parent.address, call.to, call.value)) {
      state.revert(snapshot)
      return { outcome: CallOutcome.FAILED, gasLeft: call.gas, output: EMPTY }
    }
    const result = this.#enter(parent, call)
    if (result.outcome === CallOutcome.SUCCEEDED) {
      state.commit(snapshot)
    } else {
      state.revert(snapshot)
      this.logs.length = logMark
    }
    return result
  }

  #enter (parent: FrameInput, call: SubCall): SubCallResult {
    const precompile = PRECOMPILES.get(call.to)
    if (precompile !== undefined) {
      const cost = precompile.gas(call.input)
      if (cost > call.gas) return { outcome: CallOutcome.FAILED, gasLeft: 0, output: EMPTY }
      return { outcome: CallOutcome.SUCCEEDED, gasLeft: call.gas - cost, output: precompile.run(call.input, this.#cores) }
    }
    const code = this.state.getCode(call.to)
    if (code === null) return { outcome: CallOutcome.SUCCEEDED, gasLeft: call.gas, output: EMPTY }
    const out = this.#interpreter.run({
      code,
      address: call.to,
      caller: parent.address,
      value: call.value,
      calldata: call.input,
      gas: call.gas,
      isStatic: call.isStatic,
      depth: parent.depth + 1
    }, this)
    if (out.status === Status.CALL_DEPTH) return { outcome: CallOutcome.FATAL_DEPTH, gasLeft: 0, output: EMPTY }
    return { outcome: isSuccess(out.status) ? CallOutcome.SUCCEEDED : CallOutcome.FAILED, gasLeft: out.gasLeft, output: out.output }
  }
}
