// executeDeploy / executeCall: the transaction rules around the interpreters, on both cores.
import t from 'tap'
import crypto from 'node:crypto'
import {
  MemoryVmState, executeCall, executeDeploy, contractAddress, getVmCore, resolveVmCore, DEFAULT_VM_CORE, LIMITS
} from '../../../core/vm/index.ts'
import { assemble } from '../../../core/vm/assembler.ts'

const ME = '12'.repeat(20)
const env = { blockHeight: 9, timestamp: 1_700_000_000, miner: '34'.repeat(20) }
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** init code that returns `runtime` (CODECOPY of what follows a 10-byte prelude) */
function initFor (runtime: Uint8Array): Uint8Array {
  const prelude = assemble(`PUSH1 ${runtime.length} PUSH1 10 PUSH0 CODECOPY PUSH1 ${runtime.length} PUSH0 RETURN`)
  return Uint8Array.from([...prelude, ...runtime])
}

t.test('contract address is SHA3-256(deployer ‖ nonce as a 32-byte word), first 20 bytes', async (t) => {
  const preimage = Buffer.concat([Buffer.from(ME, 'hex'), Buffer.from((7).toString(16).padStart(64, '0'), 'hex')])
  t.equal(contractAddress(ME, 7n), crypto.hash('sha3-256', preimage, 'hex').slice(0, 40))
  t.throws(() => contractAddress('xyz', 0n), TypeError)
})

for (const core of ['wasm', 'js'] as const) {
  t.test(`${core}: deploys take the nonce before the deploy and bump it even on failure`, async (t) => {
    const state = new MemoryVmState()
    state.setNonce(ME, 3n)
    const ok = executeDeploy({ state, deployer: ME, code: initFor(assemble('STOP')), gasLimit: 100_000, env, core })
    t.equal(ok.receipt.contract, contractAddress(ME, 3n))
    t.equal(ok.receipt.success, true)
    t.equal(hex(state.getCode(ok.receipt.contract) as Uint8Array), '00')
    const failed = executeDeploy({ state, deployer: '0x' + ME.toUpperCase(), code: assemble('INVALID'), gasLimit: 50_000, env, core })
    t.strictSame(failed.receipt, {
      type: 'deploy', contract: contractAddress(ME, 4n), success: false, gas_used: 50_000, logs: [], error: 'invalid opcode', revert_reason: null
    })
    t.equal(state.getNonce(ME), 5n, 'both deploys bumped the nonce')
    t.equal(state.getCode(contractAddress(ME, 4n)), null)
  })

  t.test(`${core}: deploy value, init_calldata, bad fields`, async (t) => {
    const state = new MemoryVmState()
    state.setBalance(ME, 100n)
    const withValue = executeDeploy({ state, deployer: ME, code: initFor(assemble('STOP')), value: 40n, gasLimit: 100_000, env, core })
    t.equal(state.getBalance(withValue.receipt.contract), 40n)
    t.equal(state.getBalance(ME), 60n)
    const tooMuch = executeDeploy({ state, deployer: ME, code: initFor(assemble('STOP')), value: 61n, gasLimit: 100_000, env, core })
    t.equal(tooMuch.receipt.error, 'insufficient balance')
    t.equal(tooMuch.receipt.gas_used, 0)
    t.equal(state.getBalance(ME), 60n, 'nothing moved')
    const withCalldata = executeDeploy({ state, deployer: ME, code: initFor(assemble('STOP')), calldata: '01', gasLimit: 100_000, env, core })
    t.equal(withCalldata.receipt.error, 'bad fields: init_calldata must be empty in this version')
    const badGas = executeDeploy({ state, deployer: ME, code: '00', gasLimit: 1.5, env, core })
    t.match(badGas.receipt.error, /^bad fields: gas_limit/)
    const hugeGas = executeDeploy({ state, deployer: ME, code: '00', gasLimit: LIMITS.gasLimit + 1, env, core })
    t.match(hugeGas.receipt.error, /^bad fields: gas_limit/)
    t.equal(executeDeploy({ state, deployer: ME, code: 'xyz', gasLimit: 100, env, core }).receipt.error, 'bad code: not hex')
    t.equal(executeDeploy({ state, deployer: ME, code: '', gasLimit: 100, env, core }).receipt.error, 'bad code: empty code')
    t.equal(state.getNonce(ME), 7n, 'every deploy, good or bad, took a nonce')
  })

  t.test(`${core}: runtime code the init returns must be valid too`, async (t) => {
    const state = new MemoryVmState()
    const r = executeDeploy({ state, deployer: ME, code: assemble('PUSH1 0x60 PUSH0 MSTORE8 PUSH1 1 PUSH0 RETURN'), gasLimit: 100_000, env, core })
    t.equal(r.receipt.error, 'bad code: returned runtime code: truncated PUSH1 at 0')
    t.equal(r.receipt.gas_used, 100_000)
    const empty = executeDeploy({ state, deployer: ME, code: assemble('PUSH0 PUSH0 RETURN'), gasLimit: 100_000, env, core })
    t.equal(empty.receipt.error, 'bad code: returned runtime code: empty code')
  })

  t.test(`${core}: calls normalize the address and move value inside the call`, async (t) => {
    const state = new MemoryVmState()
    const contract = 'ab'.repeat(20)
    state.setCode(contract, assemble('CALLVALUE PUSH0 MSTORE PUSH1 32 PUSH0 RETURN'))
    state.setBalance(ME, 50n)
    const r = executeCall({ state, caller: ME, to: '0x' + contract.toUpperCase(), calldata: new Uint8Array(0), value: 20n, gasLimit: 10_000, env, core })
    t.equal(r.receipt.to, contract)
    t.equal(r.receipt.return_data, (20).toString(16).padStart(64, '0'))
    t.equal(r.returnData.length, 32)
    t.equal(state.getBalance(contract), 20n)
    state.setCode(contract, assemble('PUSH1 1 PUSH1 1 SSTORE INVALID'))
    const failed = executeCall({ state, caller: ME, to: contract, calldata: '', value: 5n, gasLimit: 30_000, env, core })
    t.equal(failed.receipt.success, false)
    t.equal(state.getBalance(ME), 30n, 'the value of a failed call stays with the caller')
    t.equal(state.getStorage(contract, 1n), 0n)
    t.match(executeCall({ state, caller: ME, to: 'nope', calldata: '', gasLimit: 1, env, core }).receipt.error, /^bad fields: to must be/)
    t.equal(executeCall({ state, caller: ME, to: contract, calldata: '', value: 1n, static: true, gasLimit: 1, env, core }).receipt.error,
      'bad fields: a static call cannot carry value')
    t.throws(() => executeCall({ state, caller: 'not-an-address', to: contract, calldata: '', gasLimit: 1, env, core }), TypeError)
  })

  t.test(`${core}: a failed call keeps no logs; a successful one reports them in order`, async (t) => {
    const state = new MemoryVmState()
    const contract = 'cd'.repeat(20)
    state.setCode(contract, assemble('PUSH1 7 PUSH0 PUSH0 LOG1 PUSH0 CALLDATALOAD PUSH1 @bad JUMPI STOP bad: JUMPDEST INVALID'))
    const ok = executeCall({ state, caller: ME, to: contract, calldata: '', gasLimit: 10_000, env, core })
    t.strictSame(ok.receipt.logs, [{ address: contract, topics: ['07'.padStart(64, '0')], data: '' }])
    const bad = executeCall({ state, caller: ME, to: contract, calldata: '01'.padStart(64, '0'), gasLimit: 10_000, env, core })
    t.strictSame(bad.receipt.logs, [])
    t.equal(bad.receipt.error, 'invalid opcode')
  })
}

t.test('a request names its core (object or name); wasm is the default', async (t) => {
  t.equal(DEFAULT_VM_CORE.kind, 'wasm')
  t.equal(resolveVmCore(undefined), DEFAULT_VM_CORE)
  t.equal(getVmCore('js').kind, 'js')
  t.equal(getVmCore('wasm').kind, 'wasm')
  t.equal(resolveVmCore('js'), getVmCore('js'))
  t.equal(resolveVmCore(getVmCore('js')), getVmCore('js'))
  t.throws(() => getVmCore('evm' as 'js'), RangeError)
  t.throws(() => getVmCore('toString' as 'js'), RangeError)
})

t.test('MemoryVmState snapshots nest', async (t) => {
  const s = new MemoryVmState()
  s.setStorage(ME, 1n, 1n)
  const outer = s.snapshot()
  s.setStorage(ME, 1n, 2n)
  s.setBalance(ME, 9n)
  const inner = s.snapshot()
  s.setStorage(ME, 2n, 3n)
  s.setCode(ME, Uint8Array.of(1))
  s.revert(inner)
  t.equal(s.getStorage(ME, 2n), 0n)
  t.equal(s.getCode(ME), null)
  t.equal(s.getStorage(ME, 1n), 2n)
  const again = s.snapshot()
  s.setNonce(ME, 4n)
  s.commit(again)
  s.revert(outer)
  t.equal(s.getStorage(ME, 1n), 1n)
  t.equal(s.getBalance(ME), 0n)
  t.equal(s.getNonce(ME), 0n, 'a committed inner change is still undone by the outer revert')
  t.throws(() => s.setBalance(ME, -1n), RangeError)
  t.strictSame(s.dump(), { [ME]: { balance: '0', nonce: '0', code: null, storage: { '0x1': '0x1' } } })
})

t.test('a state that throws leaves no half-applied transaction behind', async (t) => {
  for (const core of ['wasm', 'js'] as const) {
    const state = new MemoryVmState()
    const contract = 'ef'.repeat(20)
    state.setCode(contract, assemble('PUSH1 1 PUSH1 1 SSTORE PUSH1 2 SLOAD'))
    state.setBalance(ME, 10n)
    const original = state.getStorage.bind(state)
    state.getStorage = (addr: string, slot: bigint): bigint => {
      if (slot === 2n) throw new Error('disk on fire')
      return original(addr, slot)
    }
    t.throws(() => executeCall({ state, caller: ME, to: contract, calldata: '', value: 4n, gasLimit: 100_000, env, core }), /disk on fire/)
    t.equal(original(contract, 1n), 0n, `${core}: the write was undone`)
    t.equal(state.getBalance(ME), 10n, `${core}: the value went back`)
    state.getStorage = original
    t.equal(executeCall({ state, caller: ME, to: contract, calldata: '', gasLimit: 100_000, env, core }).receipt.success, true, `${core}: the core still works afterwards`)
  }
})

t.test('MemoryVmState keeps no journal when no snapshot is open', async (t) => {
  const s = new MemoryVmState()
  s.setStorage(ME, 1n, 1n)
  const id = s.snapshot()
  t.equal(id, 0, 'nothing was journaled outside a snapshot')
  s.setStorage(ME, 1n, 2n)
  s.commit(id)
  t.equal(s.snapshot(), 0, 'the journal was dropped when the last snapshot closed')
  t.throws(() => { const fresh = new MemoryVmState(); fresh.revert(0) }, /not open/)
})
