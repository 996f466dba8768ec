// Entry points for the chain and the playground: run a deploy or a call as one transaction
// against a VmState and get its SPEC 2.5 receipt. The caller's state is left with the
// transaction's effects (or, on failure, with only the deployer's nonce bump).
import type { ExecEnv, VmState } from './host.ts'
import type { FrameOutput, Interpreter } from './interpreter.ts'
import type { CallReceipt, DeployReceipt, LogEntry } from './types.ts'
import { resolveVmCore } from './cores.ts'
import type { VmCoreName } from './cores.ts'
import { TxHost } from './tx-host.ts'
import type { PrecompileCores } from './precompiles/types.ts'
import type { EmittedLog } from './tx-host.ts'
import { GAS, LIMITS } from './params.ts'
import { Status, isSuccess, statusError } from './status.ts'
import { codeDefect } from './code.ts'
import { contractAddress, normalizeVmAddress } from './address.ts'
import { decodeRevertReason } from './revert-reason.ts'
import { bytesToHex, hexToBytes, wordToHex } from './words.ts'

export interface DeployRequest {
  state: VmState
  /** VM address of the deploying account */
  deployer: string
  /** init code (bytes or hex): it runs once and RETURNs the runtime code to store */
  code: Uint8Array | string
  /** bohm moved from the deployer to the new contract */
  value?: bigint
  gasLimit: number
  env: ExecEnv
  /** init_calldata: must be empty in this version */
  calldata?: Uint8Array | string
  /** the interpreter (a kernel hands its own), or a core's name; DEFAULT_VM_CORE when absent */
  core?: Interpreter | VmCoreName
  /** the kernel's SHA3 and ML-DSA cores (contract addresses, precompiles); WASM SHA3 and native ML-DSA when absent */
  cores?: PrecompileCores
  /** log bytes (logBytes) the transaction may emit; more fails it, consuming its gas. Unbounded when absent. */
  maxLogBytes?: number
}

export interface CallRequest {
  state: VmState
  caller: string
  /** contract address, 40 hex with or without 0x */
  to: string
  calldata: Uint8Array | string
  value?: bigint
  gasLimit: number
  env: ExecEnv
  /** a read-only call: any state change, log or value transfer fails it */
  static?: boolean
  /** the interpreter (a kernel hands its own), or a core's name; DEFAULT_VM_CORE when absent */
  core?: Interpreter | VmCoreName
  /** the kernel's SHA3 and ML-DSA cores (contract addresses, precompiles); WASM SHA3 and native ML-DSA when absent */
  cores?: PrecompileCores
  /** as DeployRequest.maxLogBytes */
  maxLogBytes?: number
}

export interface DeployResult { receipt: DeployReceipt }
export interface CallResult { receipt: CallReceipt; returnData: Uint8Array }

const EMPTY = new Uint8Array(0)

function toLogEntries (logs: EmittedLog[]): LogEntry[] {
  return logs.map((l) => ({ address: l.address, topics: l.topics.map(wordToHex), data: bytesToHex(l.data) }))
}

/** What a log weighs against the log limits: its address, its topics and its data, in bytes. */
export function logBytes (topicCount: number, dataBytes: number): number {
  return 20 + 32 * topicCount + dataBytes
}

function emittedLogBytes (logs: EmittedLog[]): number {
  return logs.reduce((sum, l) => sum + logBytes(l.topics.length, l.data.length), 0)
}

function checkAccount (role: string, addr: string): string {
  const canonical = normalizeVmAddress(addr)
  if (canonical === null) throw new TypeError(`${role} must be a 40-hex VM address, got ${JSON.stringify(addr)}`)
  return canonical
}

/** Why the request's gas or value is unusable, or null. */
function fieldsDefect (gasLimit: number, value: bigint): string | null {
  if (!Number.isSafeInteger(gasLimit) || gasLimit < 0 || gasLimit > LIMITS.gasLimit) return `gas_limit must be an integer 0..${LIMITS.gasLimit}, got ${gasLimit}`
  if (typeof value !== 'bigint' || value < 0n) return `value must be a non-negative bohm amount, got ${String(value)}`
  return null
}

function toBytes (data: Uint8Array | string | undefined): Uint8Array | null {
  if (data === undefined) return EMPTY
  return typeof data === 'string' ? hexToBytes(data) : data
}

interface Outcome { success: boolean; gasUsed: number; error: string | null; reason: string | null; output: Uint8Array; logs: LogEntry[] }

/** Runs the frame; if the host (the chain's state) throws, undoes the transaction's changes first. */
function guarded (state: VmState, snapshot: number, run: () => FrameOutput): FrameOutput {
  try {
    return run()
  } catch (err) {
    state.revert(snapshot)
    throw err
  }
}

const rejected = (error: string): Outcome => ({ success: false, gasUsed: 0, error, reason: null, output: EMPTY, logs: [] })

function settle (state: VmState, snapshot: number, gasLimit: number, out: FrameOutput, host: TxHost, maxLogBytes = Infinity): Outcome {
  if (isSuccess(out.status) && emittedLogBytes(host.logs) > maxLogBytes) {
    // gas bounds what a frame can log; this bound is the chain's, so checked once at the end
    state.revert(snapshot)
    return { ...rejected(`log limit exceeded: more than ${maxLogBytes} bytes of logs`), gasUsed: gasLimit }
  }
  const success = isSuccess(out.status)
  if (success) state.commit(snapshot)
  else state.revert(snapshot)
  return {
    success,
    gasUsed: gasLimit - out.gasLeft,
    error: statusError(out.status),
    reason: out.status === Status.REVERT ? decodeRevertReason(out.output) : null,
    output: success ? out.output : EMPTY,
    logs: success ? toLogEntries(host.logs) : []
  }
}

/**
 * Deploys a contract: bumps the deployer's nonce (kept even if the deploy fails), moves
 * `value` to the new address, runs the init code and stores what it returns as the code,
 * charging GAS.codeDeposit per byte.
 */
export function executeDeploy (req: DeployRequest): DeployResult {
  const { state, env } = req
  const deployer = checkAccount('deployer', req.deployer)
  const nonce = state.getNonce(deployer)
  const contract = contractAddress(deployer, nonce, req.cores?.sha3)
  state.setNonce(deployer, nonce + 1n)
  const outcome = runDeploy(req, deployer, contract, env)
  return {
    receipt: {
      type: 'deploy',
      contract,
      success: outcome.success,
      gas_used: outcome.gasUsed,
      logs: outcome.logs,
      error: outcome.error,
      revert_reason: outcome.reason
    }
  }
}

function runDeploy (req: DeployRequest, deployer: string, contract: string, env: ExecEnv): Outcome {
  const { state, gasLimit } = req
  const value = req.value ?? 0n
  const fields = fieldsDefect(gasLimit, value)
  if (fields !== null) return rejected(`bad fields: ${fields}`)
  const initCalldata = toBytes(req.calldata)
  if (initCalldata === null || initCalldata.length > 0) return rejected('bad fields: init_calldata must be empty in this version')
  const code = toBytes(req.code)
  if (code === null) return rejected('bad code: not hex')
  const defect = codeDefect(code, LIMITS.initCodeBytes)
  if (defect !== null) return rejected(`bad code: ${defect}`)
  if (state.getCode(contract) !== null) return rejected('bad code: contract address already in use')

  const interpreter = resolveVmCore(req.core)
  const host = new TxHost(state, env, interpreter, req.cores)
  const snapshot = state.snapshot()
  if (!host.transfer(deployer, contract, value)) {
    state.revert(snapshot)
    return rejected('insufficient balance')
  }
  const out = guarded(state, snapshot, () => interpreter.run({ code, address: contract, caller: deployer, value, calldata: EMPTY, gas: gasLimit, isStatic: false, depth: 1 }, host))
  const storeError = isSuccess(out.status) ? storeRuntime(state, contract, out) : null
  if (storeError !== null) {
    state.revert(snapshot)
    return { ...rejected(storeError), gasUsed: gasLimit }
  }
  return settle(state, snapshot, gasLimit, out, host, req.maxLogBytes)
}

/**
 * Stores the runtime code the init code returned, charging its deposit to the frame; the
 * receipt error when it cannot be stored (the whole gas limit is then consumed).
 */
function storeRuntime (state: VmState, contract: string, out: FrameOutput): string | null {
  const runtime = out.output
  const defect = codeDefect(runtime, LIMITS.codeBytes)
  if (defect !== null) return `bad code: returned runtime code: ${defect}`
  const deposit = GAS.codeDeposit * runtime.length
  if (deposit > out.gasLeft) return statusError(Status.OUT_OF_GAS)
  out.gasLeft -= deposit
  state.setCode(contract, runtime)
  return null
}

/** Calls a contract; value moves from the caller to the contract inside the call. */
export function executeCall (req: CallRequest): CallResult {
  const caller = checkAccount('caller', req.caller)
  const to = normalizeVmAddress(req.to)
  const outcome = to === null
    ? rejected(`bad fields: to must be a 40-hex contract address, got ${JSON.stringify(req.to)}`)
    : runCall(req, caller, to)
  return {
    receipt: {
      type: 'call',
      to: to ?? req.to,
      success: outcome.success,
      gas_used: outcome.gasUsed,
      return_data: bytesToHex(outcome.output),
      logs: outcome.logs,
      error: outcome.error,
      revert_reason: outcome.reason
    },
    returnData: outcome.output
  }
}

function runCall (req: CallRequest, caller: string, to: string): Outcome {
  const { state, gasLimit, env } = req
  const value = req.value ?? 0n
  const isStatic = req.static === true
  const fields = fieldsDefect(gasLimit, value)
  if (fields !== null) return rejected(`bad fields: ${fields}`)
  if (isStatic && value !== 0n) return rejected('bad fields: a static call cannot carry value')
  const calldata = toBytes(req.calldata)
  if (calldata === null) return rejected('bad fields: calldata must be hex')
  const code = state.getCode(to)
  if (code === null) return rejected(`bad fields: no contract at ${to}`)

  const interpreter = resolveVmCore(req.core)
  const host = new TxHost(state, env, interpreter, req.cores)
  const snapshot = state.snapshot()
  if (!host.transfer(caller, to, value)) {
    state.revert(snapshot)
    return rejected('insufficient balance')
  }
  const out = guarded(state, snapshot, () => interpreter.run({ code, address: to, caller, value, calldata, gas: gasLimit, isStatic, depth: 1 }, host))
  return settle(state, snapshot, gasLimit, out, host, req.maxLogBytes)
}
