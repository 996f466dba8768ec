// The opcode table is the single source both cores read: dense, consistent, and the
// AssemblyScript copy is exactly what the generator renders from it.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { OPCODES, STACK_IN, STACK_OUT, BASE_GAS, IS_DEFINED, op, opcodeByName } from '../../../core/vm/opcodes.ts'
import { GAS } from '../../../core/vm/params.ts'
import { renderWasmOpcodes, WASM_OPCODES_PATH } from '../../../scripts/gen-wasm-opcodes.ts'

t.test('256 entries, one per byte, undefined bytes are inert', async (t) => {
  t.equal(OPCODES.length, 256)
  OPCODES.forEach((o, i) => t.equal(o.code, i))
  for (const o of OPCODES.filter((x) => !x.defined)) {
    if (o.inputs !== 0 || o.outputs !== 0 || o.gas !== 0) t.fail(`${o.name} has a stack effect or gas`)
  }
  t.equal(IS_DEFINED.reduce((a, b) => a + b, 0), OPCODES.filter((o) => o.defined).length)
  t.equal(new Set(OPCODES.filter((o) => o.defined).map((o) => o.name)).size, OPCODES.filter((o) => o.defined).length, 'names are unique')
})

t.test('families have the expected arity and fees', async (t) => {
  for (let n = 1; n <= 32; n++) t.strictSame([opcodeByName(`PUSH${n}`).immediate, opcodeByName(`PUSH${n}`).outputs], [n, 1])
  for (let n = 1; n <= 16; n++) {
    t.strictSame([opcodeByName(`DUP${n}`).inputs, opcodeByName(`DUP${n}`).outputs], [n, n + 1])
    t.strictSame([opcodeByName(`SWAP${n}`).inputs, opcodeByName(`SWAP${n}`).outputs], [n + 1, n + 1])
  }
  for (let n = 0; n <= 4; n++) {
    const log = opcodeByName(`LOG${n}`)
    t.strictSame([log.inputs, log.gas], [2 + n, GAS.log + GAS.logTopic * n])
  }
  t.equal(opcodeByName('SLOAD').gas, 200)
  t.equal(opcodeByName('SSTORE').gas, 5000)
  t.equal(opcodeByName('CALL').gas, 700)
  t.equal(opcodeByName('SHA3').gas, 30)
  t.equal(op('ADD'), 0x01)
  t.throws(() => op('CREATE'), /unknown opcode/)
  t.strictSame([...STACK_IN.subarray(0, 3)], [0, 2, 2])
  t.strictSame([...STACK_OUT.subarray(0, 3)], [0, 1, 1])
  t.equal(BASE_GAS[0x5b], 1)
})

t.test('wasm/assembly/vm/opcodes.ts is the generator\'s current output', async (t) => {
  t.equal(readFileSync(WASM_OPCODES_PATH, 'utf8'), renderWasmOpcodes(), 'run `node scripts/gen-wasm-opcodes.ts` after changing the tables')
})
