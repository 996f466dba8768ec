// vm: gas per second of the contract VM on three workloads (arithmetic loop, storage
// read/write, SHA3 loop), the WASM interpreter against its JS twin, and the same bytecode on
// @ethereumjs/evm. Each call is a whole transaction through executeCall on a fresh in-memory
// state, as the playground runs one. The VM is loaded lazily: until it exists the family
// says why instead of measuring.
import { createEVM } from '@ethereumjs/evm'
import { Account, createAddressFromString } from '@ethereumjs/util'
import { workloads } from '../lib/vm-workloads.ts'
import type { Workload, WorkloadName } from '../lib/vm-workloads.ts'
import { asyncRateSample, interleave, rateSample } from '../lib/sampler.ts'
import type { Contender } from '../lib/sampler.ts'
import { pairedRatios, summarize } from '../lib/stats.ts'
import { goal, goalNotEvaluated } from '../lib/goals.ts'
import type { BenchContext, BenchFamily, BenchRow, FamilyReport, GoalResult } from '../lib/types.ts'

type Engine = 'wasm' | 'js' | 'evm'
const ENGINE_LABEL: Record<Engine, string> = { wasm: 'WASM interpreter', js: 'JS twin', evm: 'anchor @ethereumjs/evm' }
const GAS_LIMIT = 100_000_000
const CALLER = '11'.repeat(20)
const CONTRACT = '22'.repeat(20)

/** One workload call on an engine, returning the gas it used (throws unless it succeeded). */
type Call = () => number | Promise<number>
type CallFactory = (w: Workload) => Call

async function nodeVmCaller (core: 'wasm' | 'js'): Promise<CallFactory> {
  const { executeCall } = await import('../../core/vm/executor.ts')
  const { MemoryVmState } = await import('../../core/vm/host.ts')
  const env = { blockHeight: 1, timestamp: 1_767_225_601, miner: '33'.repeat(20) }
  const calldata = new Uint8Array(0)
  return (w) => () => {
    const state = new MemoryVmState()
    state.setCode(CONTRACT, w.code)
    const { receipt } = executeCall({ state, caller: CALLER, to: CONTRACT, calldata, gasLimit: GAS_LIMIT, env, core })
    if (!receipt.success) throw new Error(`${core} core: ${w.name} workload failed: ${receipt.error ?? 'unknown'}`)
    return receipt.gas_used
  }
}

async function evmCaller (): Promise<CallFactory> {
  const evm = await createEVM()
  const to = createAddressFromString(`0x${CONTRACT}`)
  await evm.stateManager.putAccount(to, new Account())
  return (w) => async () => {
    const r = await evm.runCode({ code: w.code, gasLimit: BigInt(GAS_LIMIT), to })
    if (r.exceptionError !== undefined) throw new Error(`@ethereumjs/evm: ${w.name} workload failed: ${r.exceptionError.error}`)
    return Number(r.executionGasUsed)
  }
}

/** Gas per second over `ms`: every call's gas is counted as it returns. */
function gasContender (call: Call, ms: number): Contender {
  return async () => {
    const probe = call()
    if (probe instanceof Promise) {
      await probe
      return await asyncRateSample(async () => await call(), ms)
    }
    return rateSample(() => call() as number, ms)
  }
}

/** The engines that load and run a trivial loop, and why the others do not. */
async function loadEngines (): Promise<{ ready: Partial<Record<Engine, CallFactory>>; missing: Partial<Record<Engine, string>> }> {
  const ready: Partial<Record<Engine, CallFactory>> = {}
  const missing: Partial<Record<Engine, string>> = {}
  const loaders: Record<Engine, () => Promise<CallFactory>> = { wasm: async () => await nodeVmCaller('wasm'), js: async () => await nodeVmCaller('js'), evm: evmCaller }
  const probe = workloads(2)[0]!
  for (const engine of ['wasm', 'js', 'evm'] as const) {
    try {
      const factory = await loaders[engine]()
      await factory(probe)()
      ready[engine] = factory
    } catch (err) {
      missing[engine] = (err instanceof Error ? err.message : String(err)).split('\n')[0]!
    }
  }
  return { ready, missing }
}

async function run (ctx: BenchContext): Promise<FamilyReport> {
  const started = performance.now()
  const seconds = (): number => (performance.now() - started) / 1000
  const { ready, missing } = await loadEngines()
  if (ready.wasm === undefined && ready.js === undefined) {
    return { family: 'vm', title: 'contract VM', available: false, reason: `the node's VM does not run: ${missing.js ?? missing.wasm ?? 'unknown'}`, rows: [], goals: [], seconds: seconds() }
  }
  const ms = ctx.quick ? 20 : 400
  const iterations = ctx.quick ? 50 : 5_000
  const rows: BenchRow[] = []
  const goals: GoalResult[] = []
  const engines = (['wasm', 'js', 'evm'] as const).filter((e) => ready[e] !== undefined)
  for (const w of workloads(iterations)) {
    ctx.progress(`${w.title}: ${engines.join(', ')} × ${ctx.runs + 1} runs of ${ms} ms`)
    const calls = Object.fromEntries(engines.map((e) => [e, ready[e]!(w)])) as Partial<Record<Engine, Call>>
    const gasPerCall: Partial<Record<Engine, number>> = {}
    for (const e of engines) gasPerCall[e] = await calls[e]!()
    const samples = await interleave(Object.fromEntries(engines.map((e) => [e, gasContender(calls[e]!, ms)])) as Record<Engine, Contender>, { runs: ctx.runs })
    for (const e of (['wasm', 'js', 'evm'] as const)) {
      if (samples[e] === undefined) {
        rows.push({ family: 'vm', name: `${w.title}, ${ENGINE_LABEL[e]}`, unit: 'gas/s', stats: null, note: `not available yet: ${missing[e] ?? 'unknown'}` })
        continue
      }
      const perIteration = gasPerCall[e]! / iterations
      rows.push({ family: 'vm', name: `${w.title}, ${ENGINE_LABEL[e]}`, unit: 'gas/s', stats: summarize(samples[e]), note: `≈ ${Math.round(summarize(samples[e]).median / perIteration).toLocaleString('en-US')} iterations/s at ${perIteration.toFixed(0)} gas each` })
    }
    goals.push(samples.wasm !== undefined && samples.js !== undefined
      ? goal('vm', `${w.title}: WASM ≥ 3× JS twin`, pairedRatios(samples.wasm, samples.js), '>=', 3)
      : goalNotEvaluated('vm', `${w.title}: WASM ≥ 3× JS twin`, '>=', 3, `not available yet: ${missing.wasm ?? missing.js ?? ''}`))
    if (w.name === ('arithmetic' satisfies WorkloadName)) {
      goals.push(samples.js !== undefined && samples.evm !== undefined
        ? goal('vm', 'arithmetic loop: JS twin ≥ @ethereumjs/evm (gas/s)', pairedRatios(samples.js, samples.evm), '>=', 1)
        : goalNotEvaluated('vm', 'arithmetic loop: JS twin ≥ @ethereumjs/evm (gas/s)', '>=', 1, `not available yet: ${missing.js ?? missing.evm ?? ''}`))
    }
  }
  return { family: 'vm', title: 'contract VM', available: true, rows, goals, seconds: seconds() }
}

export const vmFamily: BenchFamily = { name: 'vm', title: 'contract VM', run }
