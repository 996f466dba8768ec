// Runs one conformance case on a core and reports what the case's `expect` lists, in the
// same shape, so a test can compare the two objects whole.
import { MemoryVmState, executeCall, executeDeploy } from '../../../../core/vm/index.ts'
import type { Interpreter, VmCoreName } from '../../../../core/vm/index.ts'
import { hexToBytes } from '../../../../core/vm/words.ts'
import type { Case } from './cases.ts'

export interface VectorFile { description: string; env: { blockHeight: number; timestamp: number; miner: string }; cases: Case[] }

export function runCase (c: Case, env: VectorFile['env'], core: Interpreter | VmCoreName): Case['expect'] {
  const state = new MemoryVmState()
  for (const [addr, acct] of Object.entries(c.pre)) {
    if (acct.code !== undefined) state.setCode(addr, hexToBytes(acct.code) as Uint8Array)
    if (acct.balance !== undefined) state.setBalance(addr, BigInt(acct.balance))
    if (acct.nonce !== undefined) state.setNonce(addr, BigInt(acct.nonce))
    for (const [slot, value] of Object.entries(acct.storage ?? {})) state.setStorage(addr, BigInt(slot), BigInt(value))
  }
  const value = BigInt(c.tx.value)
  const actual: Case['expect'] = c.kind === 'deploy'
    ? { ...executeDeploy({ state, deployer: c.tx.caller, code: c.tx.code ?? '', value, gasLimit: c.tx.gas_limit, env, core }).receipt }
    : { ...executeCall({ state, caller: c.tx.caller, to: c.tx.to ?? '', calldata: c.tx.calldata, value, gasLimit: c.tx.gas_limit, env, core, static: c.tx.static }).receipt }
  delete (actual as { type?: string }).type
  delete (actual as { to?: string }).to
  const dump = state.dump()
  const { expect } = c
  if (expect.storage !== undefined) {
    actual.storage = Object.fromEntries(Object.keys(expect.storage).map((a) => [a, dump[a]?.storage ?? {}]))
  }
  if (expect.balances !== undefined) {
    actual.balances = Object.fromEntries(Object.keys(expect.balances).map((a) => [a, state.getBalance(a).toString()]))
  }
  if (expect.nonces !== undefined) {
    actual.nonces = Object.fromEntries(Object.keys(expect.nonces).map((a) => [a, state.getNonce(a).toString()]))
  }
  if (expect.code !== undefined) {
    actual.code = Object.fromEntries(Object.keys(expect.code).map((a) => {
      const code = state.getCode(a)
      return [a, code === null ? null : Buffer.from(code).toString('hex')]
    }))
  }
  return actual
}
