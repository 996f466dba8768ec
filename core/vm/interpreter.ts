// The seam between the transaction machinery (executor, CALL handling, precompiles) and an
// interpreter core. A core runs exactly one frame; every CALL it meets goes back through
// FrameHost.call, so depth, value transfer, snapshots and precompiles are decided in one
// place for both cores.
import type { ExecEnv, VmState } from './host.ts'

export type VmCoreKind = 'wasm' | 'js'

export interface FrameInput {
  readonly code: Uint8Array
  /** the executing contract */
  readonly address: string
  readonly caller: string
  readonly value: bigint
  readonly calldata: Uint8Array
  readonly gas: number
  readonly isStatic: boolean
  /** 1 for the transaction's own frame */
  readonly depth: number
}

export interface FrameOutput {
  /** a Status code */
  status: number
  /** 0 unless the frame stopped, returned or reverted */
  gasLeft: number
  /** RETURN or REVERT payload */
  output: Uint8Array
}

export interface SubCall {
  readonly isStatic: boolean
  readonly gas: number
  readonly to: string
  readonly value: bigint
  readonly input: Uint8Array
}

export interface SubCallResult {
  /** a CallOutcome */
  outcome: number
  gasLeft: number
  /** the callee's RETURN or REVERT payload: the caller's new return data */
  output: Uint8Array
}

export interface FrameHost {
  readonly state: VmState
  readonly env: ExecEnv
  log(address: string, topics: bigint[], data: Uint8Array): void
  call(parent: FrameInput, call: SubCall): SubCallResult
}

export interface Interpreter {
  readonly kind: VmCoreKind
  run(frame: FrameInput, host: FrameHost): FrameOutput
}
