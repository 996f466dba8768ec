// Differential test: random programs and random calldata run on the WASM core and the JS
// twin must give identical receipts and identical state afterwards.
import t from 'tap'
import { MemoryVmState, executeCall, executeDeploy } from '../../../core/vm/index.ts'
import type { VmCoreKind } from '../../../core/vm/index.ts'
import { assemble } from '../../../core/vm/assembler.ts'
import { compile, EXAMPLES } from '../../../core/contracts/index.ts'
import { Rng, randomProgram } from './random-program.ts'

const CALLER = '9a'.repeat(20)
const TARGET = 'a1'.repeat(20)
const CALLEE = 'b2'.repeat(20)
const env = { blockHeight: 77, timestamp: 1_750_000_000.25, miner: 'c3'.repeat(20) }

interface World { target: Uint8Array; callee: Uint8Array; calldata: Uint8Array; value: bigint; gasLimit: number }

function runWorld (w: World, core: VmCoreKind): string {
  const state = new MemoryVmState()
  state.setCode(TARGET, w.target)
  state.setCode(CALLEE, w.callee)
  state.setBalance(CALLER, 1000n)
  state.setBalance(TARGET, 5n)
  state.setStorage(TARGET, 1n, 0x1234n)
  state.setStorage(CALLEE, 2n, 7n)
  const { receipt } = executeCall({ state, caller: CALLER, to: TARGET, calldata: w.calldata, value: w.value, gasLimit: w.gasLimit, env, core })
  return JSON.stringify({ receipt, state: state.dump() })
}

t.test('random programs behave identically on both cores', async (t) => {
  const rng = new Rng(0x5eed1234)
  let failures = 0
  let successes = 0
  const RUNS = 4000
  for (let i = 0; i < RUNS; i++) {
    const world: World = {
      target: assemble(randomProgram(rng, CALLEE, 10 + rng.int(50))),
      callee: assemble(randomProgram(rng, TARGET, 5 + rng.int(25))),
      calldata: rng.bytes(rng.int(70)),
      value: BigInt(rng.pick([0, 0, 3])),
      gasLimit: rng.pick([2_000, 30_000, 200_000, 1_000_000])
    }
    const wasm = runWorld(world, 'wasm')
    const js = runWorld(world, 'js')
    if (wasm !== js) {
      t.equal(wasm, js, `run ${i} differs: target ${Buffer.from(world.target).toString('hex')}`)
      failures++
      if (failures > 3) break
    }
    if (JSON.parse(js).receipt.success === true) successes++
  }
  t.equal(failures, 0, `${RUNS} random programs agree`)
  // the generator must exercise both outcomes, or the comparison says little
  t.ok(successes > RUNS * 0.2 && successes < RUNS * 0.95, `${successes} of ${RUNS} succeeded`)
})

t.test('random calldata to the bundled examples behaves identically on both cores', async (t) => {
  const rng = new Rng(0xc0ffee)
  for (const example of EXAMPLES) {
    const { bytecode, abi } = compile(example.source)
    const states = { wasm: new MemoryVmState(), js: new MemoryVmState() }
    const addresses: Record<VmCoreKind, string> = { wasm: '', js: '' }
    for (const core of ['wasm', 'js'] as const) {
      states[core].setBalance(CALLER, 10n ** 20n)
      addresses[core] = executeDeploy({ state: states[core], deployer: CALLER, code: bytecode, gasLimit: 2_000_000, env, core }).receipt.contract
    }
    let agreed = 0
    for (let i = 0; i < 150; i++) {
      const method = rng.chance(0.9) ? rng.pick(abi.methods) : null
      const selector = method?.selector ?? rng.int(256)
      const words = method?.params.length ?? rng.int(3)
      const calldata = new Uint8Array(1 + 32 * words + (rng.chance(0.1) ? 1 : 0))
      calldata[0] = selector
      for (let w = 0; w < words; w++) {
        // mostly small values so require() checks pass sometimes; a bool or address that is
        // out of range must be refused the same way by both
        const small = rng.chance(0.7)
        const bytes = small ? Uint8Array.of(rng.int(4)) : rng.bytes(32)
        calldata.set(bytes, 1 + 32 * w + 32 - bytes.length)
      }
      const value = BigInt(rng.pick([0, 0, 10 ** 6]))
      const out = (['wasm', 'js'] as const).map((core) => {
        const { receipt } = executeCall({ state: states[core], caller: rng.chance(0.5) ? CALLER : CALLER, to: addresses[core], calldata, value, gasLimit: 300_000, env, core })
        return JSON.stringify({ receipt, state: states[core].dump() })
      })
      if (out[0] === out[1]) agreed++
      else t.equal(out[0], out[1], `${example.id} call ${i} differs`)
    }
    t.equal(agreed, 150, `${example.id}: 150 random calls agree`)
  }
})
