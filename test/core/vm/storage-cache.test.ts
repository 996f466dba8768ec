// The WASM core caches a transaction's storage; these programs push the cache where it could
// go wrong (re-entrant writes, writes undone by a failed sub-call, a full table) and check both
// cores against the same expected state.
import t from 'tap'
import { MemoryVmState, executeCall } from '../../../core/vm/index.ts'
import { assemble } from '../../../core/vm/assembler.ts'

const ME = '11'.repeat(20)
const A = 'a0'.repeat(20)
const B = 'b0'.repeat(20)
const C = 'c0'.repeat(20)
const env = { blockHeight: 1, timestamp: 1, miner: '22'.repeat(20) }
const call = (to: string, calldata: string): string => `PUSH1 ${calldata} PUSH0 MSTORE8 PUSH0 PUSH0 PUSH1 1 PUSH0 PUSH0 PUSH20 0x${to} GAS CALL POP`

// A, by its first calldata byte: 0 = the test; 1 = write slot 1; 2 = write slots 2 and 30001.
// The test first reads `reads` distinct slots: 8300 fill the cache, so later new slots bypass it.
const contractA = (reads: number): string => `
  PUSH0 CALLDATALOAD PUSH1 248 SHR
  DUP1 PUSH1 1 EQ PUSH2 @one JUMPI
  DUP1 PUSH1 2 EQ PUSH2 @two JUMPI
  POP
  PUSH2 ${reads}
  loop: JUMPDEST
    DUP1 PUSH2 1000 ADD SLOAD POP
    PUSH1 1 SWAP1 SUB
    DUP1 PUSH2 @loop JUMPI
  POP
  PUSH1 7 PUSH2 30000 SSTORE
  PUSH1 8 PUSH2 1000 SSTORE       // a cached slot
  ${call(B, '1')}                 // B calls A(1), which writes slot 1
  ${call(C, '2')}                 // C calls A(2), which writes slots 2 and 30001, then C reverts
  PUSH1 1 SLOAD PUSH0 MSTORE
  PUSH1 2 SLOAD PUSH1 32 MSTORE
  PUSH2 30001 SLOAD PUSH1 64 MSTORE
  PUSH2 30000 SLOAD PUSH1 96 MSTORE
  PUSH1 128 PUSH0 RETURN
  one: JUMPDEST PUSH1 0x42 PUSH1 1 SSTORE STOP
  two: JUMPDEST PUSH1 0x43 PUSH1 2 SSTORE PUSH1 0x44 PUSH2 30001 SSTORE STOP
`
const forward = (selector: string, revert: boolean): string =>
  `${call(A, selector)} ${revert ? 'PUSH0 PUSH0 REVERT' : 'STOP'}`

for (const [core, reads] of [['wasm', 10], ['wasm', 8300], ['js', 10], ['js', 8300]] as const) {
  t.test(`${core}: re-entrant writes and undone writes, after ${reads} reads`, async (t) => {
    const state = new MemoryVmState()
    state.setCode(A, assemble(contractA(reads)))
    state.setCode(B, assemble(forward('1', false)))
    state.setCode(C, assemble(forward('2', true)))
    state.setStorage(A, 1000n, 5n)
    state.setStorage(A, 1001n, 6n)
    const { receipt } = executeCall({ state, caller: ME, to: A, calldata: '', gasLimit: 20_000_000, env, core })
    t.equal(receipt.error, null)
    const w = (v: number): string => v.toString(16).padStart(64, '0')
    t.equal(receipt.return_data, w(0x42) + w(0) + w(0) + w(7), 'A sees its re-entrant write, not the reverted ones')
    t.strictSame(state.dump()[A]?.storage, { '0x1': '0x42', '0x3e8': '0x8', '0x3e9': '0x6', '0x7530': '0x7' })
  })
}

for (const core of ['wasm', 'js'] as const) {
  t.test(`${core}: a failed transaction leaves cached writes unwritten`, async (t) => {
    const state = new MemoryVmState()
    state.setCode(A, assemble('PUSH1 9 PUSH1 1 SSTORE PUSH1 1 SLOAD PUSH1 1 SSTORE INVALID'))
    const { receipt } = executeCall({ state, caller: ME, to: A, calldata: '', gasLimit: 100_000, env, core })
    t.equal(receipt.error, 'invalid opcode')
    t.equal(state.getStorage(A, 1n), 0n)
    // and the next transaction starts from the state, not from the cache
    state.setStorage(A, 1n, 3n)
    state.setCode(A, assemble('PUSH1 1 SLOAD PUSH0 MSTORE PUSH1 32 PUSH0 RETURN'))
    t.equal(executeCall({ state, caller: ME, to: A, calldata: '', gasLimit: 100_000, env, core }).receipt.return_data, '3'.padStart(64, '0'))
  })
}
