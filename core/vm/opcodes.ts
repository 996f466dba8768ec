// The one opcode table of the VM, keyed by the opcode byte and densified to 256 entries
// (undefined bytes are INVALID). Both interpreters take their stack arity and base gas from
// here: the JS twin imports it, and `scripts/gen-wasm-opcodes.ts` renders it into
// wasm/assembly/vm/opcodes.ts for the AssemblyScript core (a test checks the two agree).
// Byte assignments follow the EVM's grouping where an EVM opcode of the same meaning exists.
import { GAS } from './params.ts'

export interface OpcodeInfo {
  readonly code: number
  readonly name: string
  /** stack items popped */
  readonly inputs: number
  /** stack items pushed */
  readonly outputs: number
  /** gas charged before the instruction runs; dynamic parts are added by the handler */
  readonly gas: number
  /** immediate bytes following the opcode (PUSHn) */
  readonly immediate: number
  readonly defined: boolean
}

type Row = [name: string, inputs: number, outputs: number, gas: number]

const defined: Record<number, Row> = {
  0x00: ['STOP', 0, 0, GAS.zero],
  0x01: ['ADD', 2, 1, GAS.veryLow],
  0x02: ['MUL', 2, 1, GAS.low],
  0x03: ['SUB', 2, 1, GAS.veryLow],
  0x04: ['DIV', 2, 1, GAS.low],
  0x05: ['SDIV', 2, 1, GAS.low],
  0x06: ['MOD', 2, 1, GAS.low],
  0x07: ['SMOD', 2, 1, GAS.low],
  0x08: ['ADDMOD', 3, 1, GAS.mid],
  0x09: ['MULMOD', 3, 1, GAS.mid],
  0x0a: ['EXP', 2, 1, GAS.exp],
  0x0b: ['SIGNEXTEND', 2, 1, GAS.low],
  0x10: ['LT', 2, 1, GAS.veryLow],
  0x11: ['GT', 2, 1, GAS.veryLow],
  0x12: ['SLT', 2, 1, GAS.veryLow],
  0x13: ['SGT', 2, 1, GAS.veryLow],
  0x14: ['EQ', 2, 1, GAS.veryLow],
  0x15: ['ISZERO', 1, 1, GAS.veryLow],
  0x16: ['AND', 2, 1, GAS.veryLow],
  0x17: ['OR', 2, 1, GAS.veryLow],
  0x18: ['XOR', 2, 1, GAS.veryLow],
  0x19: ['NOT', 1, 1, GAS.veryLow],
  0x1a: ['BYTE', 2, 1, GAS.veryLow],
  0x1b: ['SHL', 2, 1, GAS.veryLow],
  0x1c: ['SHR', 2, 1, GAS.veryLow],
  0x1d: ['SAR', 2, 1, GAS.veryLow],
  0x20: ['SHA3', 2, 1, GAS.sha3],
  0x30: ['ADDRESS', 0, 1, GAS.base],
  0x31: ['BALANCE', 1, 1, GAS.balance],
  0x32: ['CALLER', 0, 1, GAS.base],
  0x33: ['CALLVALUE', 0, 1, GAS.base],
  0x34: ['CALLDATALOAD', 1, 1, GAS.veryLow],
  0x35: ['CALLDATASIZE', 0, 1, GAS.base],
  0x36: ['CALLDATACOPY', 3, 0, GAS.veryLow],
  0x37: ['CODESIZE', 0, 1, GAS.base],
  0x38: ['CODECOPY', 3, 0, GAS.veryLow],
  0x39: ['RETURNDATASIZE', 0, 1, GAS.base],
  0x3a: ['RETURNDATACOPY', 3, 0, GAS.veryLow],
  0x3b: ['SELFBALANCE', 0, 1, GAS.low],
  0x40: ['BLOCKHEIGHT', 0, 1, GAS.base],
  0x41: ['TIMESTAMP', 0, 1, GAS.base],
  0x42: ['MINER', 0, 1, GAS.base],
  0x50: ['POP', 1, 0, GAS.base],
  0x51: ['MLOAD', 1, 1, GAS.veryLow],
  0x52: ['MSTORE', 2, 0, GAS.veryLow],
  0x53: ['MSTORE8', 2, 0, GAS.veryLow],
  0x54: ['SLOAD', 1, 1, GAS.sload],
  0x55: ['SSTORE', 2, 0, GAS.sstore],
  0x56: ['JUMP', 1, 0, GAS.mid],
  0x57: ['JUMPI', 2, 0, GAS.high],
  0x58: ['PC', 0, 1, GAS.base],
  0x59: ['MSIZE', 0, 1, GAS.base],
  0x5a: ['GAS', 0, 1, GAS.base],
  0x5b: ['JUMPDEST', 0, 0, GAS.jumpdest],
  0x5f: ['PUSH0', 0, 1, GAS.base],
  0xf1: ['CALL', 7, 1, GAS.call],
  0xf2: ['STATICCALL', 6, 1, GAS.call],
  0xf3: ['RETURN', 2, 0, GAS.zero],
  0xfd: ['REVERT', 2, 0, GAS.zero],
  0xfe: ['INVALID', 0, 0, GAS.zero]
}
for (let n = 1; n <= 32; n++) defined[0x5f + n] = [`PUSH${n}`, 0, 1, GAS.veryLow]
for (let n = 1; n <= 16; n++) defined[0x7f + n] = [`DUP${n}`, n, n + 1, GAS.veryLow]
for (let n = 1; n <= 16; n++) defined[0x8f + n] = [`SWAP${n}`, n + 1, n + 1, GAS.veryLow]
// LOGn's base covers the per-topic fee; the per-byte fee is dynamic
for (let n = 0; n <= 4; n++) defined[0xa0 + n] = [`LOG${n}`, 2 + n, 0, GAS.log + GAS.logTopic * n]

export const OPCODES: readonly OpcodeInfo[] = Array.from({ length: 256 }, (_, code) => {
  const row = defined[code]
  if (row === undefined) return { code, name: `INVALID_${code.toString(16).padStart(2, '0')}`, inputs: 0, outputs: 0, gas: 0, immediate: 0, defined: false }
  const [name, inputs, outputs, gas] = row
  const immediate = code >= 0x60 && code <= 0x7f ? code - 0x5f : 0
  return { code, name, inputs, outputs, gas, immediate, defined: true }
})

const byName = new Map<string, OpcodeInfo>(OPCODES.filter((o) => o.defined).map((o) => [o.name, o]))

/** The opcode named `name` (as in the table: ADD, PUSH1, LOG2 ...). */
export function opcodeByName (name: string): OpcodeInfo {
  const info = byName.get(name)
  if (info === undefined) throw new RangeError(`unknown opcode ${name}`)
  return info
}

/** The byte of the opcode named `name`. */
export function op (name: string): number { return opcodeByName(name).code }

/** Dense per-byte arrays, the form both interpreters index in their hot loop. */
export const STACK_IN: Uint8Array = Uint8Array.from(OPCODES, (o) => o.inputs)
export const STACK_OUT: Uint8Array = Uint8Array.from(OPCODES, (o) => o.outputs)
export const BASE_GAS: Uint32Array = Uint32Array.from(OPCODES, (o) => o.gas)
export const IS_DEFINED: Uint8Array = Uint8Array.from(OPCODES, (o) => o.defined ? 1 : 0)
