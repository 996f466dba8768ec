// Gas per second of the contract VM's two cores and of @ethereumjs/evm on the same bytecode
// (bench/lib/vm-workloads.ts): an arithmetic loop, a storage loop and a SHA3 loop. Each run is
// a whole executeCall transaction on a fresh in-memory state.
// Run: node bench/vm-quick.ts [--json]
import { createEVM } from '@ethereumjs/evm'
import { Account, createAddressFromString } from '@ethereumjs/util'
import { executeCall, MemoryVmState } from '../core/vm/index.ts'
import { workloads } from './lib/vm-workloads.ts'
import type { Workload } from './lib/vm-workloads.ts'
import { bestRate, printTable, wantsJson } from './measure.ts'

const CALLER = '11'.repeat(20)
const CONTRACT = '22'.repeat(20)
const GAS_LIMIT = 100_000_000
const env = { blockHeight: 1, timestamp: 1_767_225_601, miner: '33'.repeat(20) }
// storage iterations cost ~5k gas each, so fewer of them fit the gas limit
const ITERATIONS = { arithmetic: 20_000, storage: 5_000, sha3: 20_000 }

function ours (core: 'wasm' | 'js', w: Workload): () => number {
  return () => {
    const state = new MemoryVmState()
    state.setCode(CONTRACT, w.code)
    const { receipt } = executeCall({ state, caller: CALLER, to: CONTRACT, calldata: '', gasLimit: GAS_LIMIT, env, core })
    if (!receipt.success) throw new Error(`${core}: ${w.name} failed: ${receipt.error ?? ''}`)
    return receipt.gas_used
  }
}

const evm = await createEVM()
const evmTo = createAddressFromString(`0x${CONTRACT}`)
await evm.stateManager.putAccount(evmTo, new Account())

async function evmRate (w: Workload, ms: number): Promise<number> {
  let best = 0
  for (let round = 0; round < 3; round++) {
    let gas = 0
    const started = performance.now()
    let elapsed = 0
    do {
      const r = await evm.runCode({ code: w.code, gasLimit: BigInt(GAS_LIMIT), to: evmTo })
      if (r.exceptionError !== undefined) throw new Error(`evm: ${w.name} failed: ${r.exceptionError.error}`)
      gas += Number(r.executionGasUsed)
      elapsed = performance.now() - started
    } while (elapsed < ms)
    best = Math.max(best, gas * 1000 / elapsed)
  }
  return best
}

const rows: Array<Record<string, string | number>> = []
const mgas = (gasPerSecond: number): number => Math.round(gasPerSecond / 1e5) / 10
for (const w of workloads(1).map((one) => workloads(ITERATIONS[one.name]).find((x) => x.name === one.name) as Workload)) {
  const wasm = bestRate(ours('wasm', w), 700)
  const js = bestRate(ours('js', w), 700)
  const ethereumjs = await evmRate(w, 1500)
  rows.push({
    workload: w.title,
    'wasm Mgas/s': mgas(wasm),
    'js Mgas/s': mgas(js),
    '@ethereumjs/evm Mgas/s': mgas(ethereumjs),
    'wasm/js': Math.round(wasm / js * 10) / 10,
    'js/evm': Math.round(js / ethereumjs * 10) / 10
  })
}
printTable(rows)
if (wantsJson) console.log(JSON.stringify({ iterations: ITERATIONS, rows }, null, 2))
