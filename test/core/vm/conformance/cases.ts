// The VM conformance cases, written by hand: each program's expected gas is derived from the
// fee table (DESIGN 4, docs/contracts.md) instruction by instruction in the `gas` sums below,
// and expected values are worked out by hand (hashes come from node:crypto, an independent
// SHA3). `node test/core/vm/conformance/write.ts` renders them into
// test/vectors/vm-conformance.json, which both interpreters must match exactly.
import crypto from 'node:crypto'
import { assemble } from '../../../../core/vm/assembler.ts'
import { mldsa } from '../../../../core/crypto/mldsa.ts'

export const CALLER = 'cccccccccccccccccccccccccccccccccccccccc'
export const CONTRACT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
export const OTHER = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'
export const THIRD = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
export const ENV = { blockHeight: 1234, timestamp: 1_700_000_000.75, miner: 'dddddddddddddddddddddddddddddddddddddddd' }

export interface PreAccount { code?: string; balance?: string; storage?: Record<string, string>; nonce?: string }
export interface ExpectedLog { address: string; topics: string[]; data: string }
export interface Case {
  name: string
  kind: 'call' | 'deploy'
  pre: Record<string, PreAccount>
  /** call: to/calldata; deploy: code */
  tx: { caller: string; to?: string; code?: string; calldata: string; value: string; gas_limit: number; static?: boolean }
  expect: {
    success: boolean
    gas_used: number
    return_data?: string
    contract?: string
    logs: ExpectedLog[]
    error: string | null
    revert_reason: string | null
    /** storage of these accounts after the transaction (the whole map) */
    storage?: Record<string, Record<string, string>>
    balances?: Record<string, string>
    nonces?: Record<string, string>
    code?: Record<string, string | null>
  }
}

// fee tiers (docs/contracts.md, gas table)
const ZERO = 0
const BASE = 2
const VERYLOW = 3
const LOW = 5
const MID = 8
const HIGH = 10
const JUMPDEST = 1
const PUSH = VERYLOW
const PUSH0 = BASE
const mem = (words: number): number => 3 * words + Math.floor(words * words / 512)
/** `PUSH0 MSTORE PUSH1 32 PUSH0 RETURN` into fresh memory */
const RET32 = PUSH0 + VERYLOW + mem(1) + PUSH + PUSH0 + ZERO
const RETURN_TOP = 'PUSH0 MSTORE PUSH1 32 PUSH0 RETURN'

const hex = (code: string): string => Buffer.from(assemble(code)).toString('hex')
const word = (v: bigint): string => (((v % (1n << 256n)) + (1n << 256n)) % (1n << 256n)).toString(16).padStart(64, '0')
const sha3 = (data: Uint8Array | string): string => crypto.hash('sha3-256', typeof data === 'string' ? Buffer.from(data, 'hex') : data, 'hex')
const sha3_512 = (data: Uint8Array): string => crypto.hash('sha3-512', data, 'hex')
const MAX = (1n << 256n) - 1n
const NEG = (n: bigint): bigint => (1n << 256n) - n
const utf8hex = (s: string): string => Buffer.from(s, 'utf8').toString('hex')

const cases: Case[] = []

/** a call to CONTRACT holding `code`, by CALLER, with default fields */
function call (name: string, code: string, gas: number, expect: Partial<Case['expect']>, opts: { calldata?: string; value?: bigint; gasLimit?: number; pre?: Record<string, PreAccount>; static?: boolean; storage?: Record<string, string>; balance?: bigint } = {}): void {
  const pre: Record<string, PreAccount> = { [CONTRACT]: { code: hex(code) }, ...opts.pre }
  if (opts.storage !== undefined) (pre[CONTRACT] as PreAccount).storage = opts.storage
  if (opts.balance !== undefined) (pre[CONTRACT] as PreAccount).balance = opts.balance.toString()
  cases.push({
    name,
    kind: 'call',
    pre,
    tx: { caller: CALLER, to: CONTRACT, calldata: opts.calldata ?? '', value: (opts.value ?? 0n).toString(), gas_limit: opts.gasLimit ?? 100_000, ...(opts.static === true ? { static: true } : {}) },
    expect: { success: true, gas_used: gas, return_data: '', logs: [], error: null, revert_reason: null, ...expect }
  })
}

/** gas of RETURN_TOP when memory already holds `words` words */
const returnTopGas = (words: number): number => PUSH0 + VERYLOW + mem(Math.max(words, 1)) - mem(words) + PUSH + PUSH0

/** a program computing one word with `ops` (leaving `memWords` of memory) and returning it */
function wordCase (name: string, ops: string, opsGas: number, result: bigint, memWords = 0): void {
  call(name, `${ops} ${RETURN_TOP}`, opsGas + returnTopGas(memWords), { return_data: word(result) })
}

const fail = (error: string, gasLimit: number): Partial<Case['expect']> => ({ success: false, gas_used: gasLimit, error, return_data: '' })

// ---- arithmetic ----
wordCase('ADD', 'PUSH1 3 PUSH1 5 ADD', PUSH * 2 + VERYLOW, 8n)
wordCase('ADD wraps at 2^256', `PUSH1 2 PUSH32 ${MAX} ADD`, PUSH * 2 + VERYLOW, 1n)
wordCase('SUB is top minus second and wraps', 'PUSH1 5 PUSH1 3 SUB', PUSH * 2 + VERYLOW, NEG(2n))
wordCase('MUL', 'PUSH1 6 PUSH1 7 MUL', PUSH * 2 + LOW, 42n)
wordCase('MUL of two 129-bit factors keeps the low 256 bits', `PUSH17 ${(1n << 128n) + 1n} PUSH17 ${(1n << 128n) - 1n} MUL`, PUSH * 2 + LOW, MAX)
wordCase('MUL overflow wraps to zero', `PUSH1 2 PUSH32 ${1n << 255n} MUL`, PUSH * 2 + LOW, 0n)
wordCase('DIV truncates', 'PUSH1 2 PUSH1 7 DIV', PUSH * 2 + LOW, 3n)
wordCase('DIV by zero is zero', 'PUSH0 PUSH1 7 DIV', PUSH0 + PUSH + LOW, 0n)
wordCase('DIV of 256-bit words', `PUSH32 ${(1n << 200n) + 12345n} PUSH32 ${MAX} DIV`, PUSH * 2 + LOW, MAX / ((1n << 200n) + 12345n))
wordCase('SDIV rounds toward zero', `PUSH1 3 PUSH32 ${NEG(8n)} SDIV`, PUSH * 2 + LOW, NEG(2n))
wordCase('SDIV of -2^255 by -1 overflows to -2^255', `PUSH32 ${MAX} PUSH32 ${1n << 255n} SDIV`, PUSH * 2 + LOW, 1n << 255n)
wordCase('MOD', 'PUSH1 3 PUSH1 10 MOD', PUSH * 2 + LOW, 1n)
wordCase('MOD by zero is zero', 'PUSH0 PUSH1 10 MOD', PUSH0 + PUSH + LOW, 0n)
wordCase('MOD of 256-bit words', `PUSH32 ${(1n << 130n) + 7n} PUSH32 ${MAX - 5n} MOD`, PUSH * 2 + LOW, (MAX - 5n) % ((1n << 130n) + 7n))
wordCase('SMOD takes the sign of the dividend', `PUSH1 3 PUSH32 ${NEG(8n)} SMOD`, PUSH * 2 + LOW, NEG(2n))
wordCase('SMOD ignores the sign of the divisor', `PUSH32 ${NEG(3n)} PUSH1 8 SMOD`, PUSH * 2 + LOW, 2n)
wordCase('ADDMOD uses the 257-bit sum', `PUSH1 7 PUSH1 2 PUSH32 ${MAX} ADDMOD`, PUSH * 3 + MID, 3n)
wordCase('MULMOD uses the 512-bit product', `PUSH2 12345 PUSH32 ${MAX} PUSH32 ${MAX} MULMOD`, PUSH * 3 + MID, 315n)
wordCase('MULMOD by zero is zero', 'PUSH0 PUSH1 5 PUSH1 6 MULMOD', PUSH0 + PUSH * 2 + MID, 0n)
wordCase('EXP: 2^10, one exponent byte', 'PUSH1 10 PUSH1 2 EXP', PUSH * 2 + 10 + 50, 1024n)
wordCase('EXP: 3^256 wraps, two exponent bytes', 'PUSH2 256 PUSH1 3 EXP', PUSH * 2 + 10 + 100, 3n ** 256n % (1n << 256n))
wordCase('EXP: x^0 = 1, no exponent bytes', 'PUSH0 PUSH1 9 EXP', PUSH0 + PUSH + 10, 1n)
wordCase('SIGNEXTEND from a negative byte 0', 'PUSH1 0xff PUSH0 SIGNEXTEND', PUSH + PUSH0 + LOW, MAX)
wordCase('SIGNEXTEND from a positive byte 0 clears the rest', 'PUSH2 0x127f PUSH0 SIGNEXTEND', PUSH + PUSH0 + LOW, 0x7fn)
wordCase('SIGNEXTEND from byte 1', 'PUSH2 0x8001 PUSH1 1 SIGNEXTEND', PUSH * 2 + LOW, NEG(0x10000n - 0x8001n))
wordCase('SIGNEXTEND past byte 30 leaves the word', 'PUSH2 0x8001 PUSH1 31 SIGNEXTEND', PUSH * 2 + LOW, 0x8001n)

// ---- comparison and bits ----
wordCase('LT: top < second', 'PUSH1 9 PUSH1 4 LT', PUSH * 2 + VERYLOW, 1n)
wordCase('GT: top > second', 'PUSH1 9 PUSH1 4 GT', PUSH * 2 + VERYLOW, 0n)
wordCase('SLT: -1 < 1', `PUSH1 1 PUSH32 ${MAX} SLT`, PUSH * 2 + VERYLOW, 1n)
wordCase('SGT: 1 > -1', `PUSH32 ${MAX} PUSH1 1 SGT`, PUSH * 2 + VERYLOW, 1n)
wordCase('EQ', 'PUSH1 4 PUSH1 4 EQ', PUSH * 2 + VERYLOW, 1n)
wordCase('ISZERO', 'PUSH0 ISZERO', PUSH0 + VERYLOW, 1n)
wordCase('AND OR XOR', 'PUSH1 0x0f PUSH1 0x3c AND PUSH1 0x40 OR PUSH1 0xff XOR', PUSH * 4 + VERYLOW * 3, 0xb3n)
wordCase('NOT', 'PUSH0 NOT', PUSH0 + VERYLOW, MAX)
wordCase('BYTE 31 is the lowest byte', 'PUSH2 0x1234 PUSH1 31 BYTE', PUSH * 2 + VERYLOW, 0x34n)
wordCase('BYTE 0 is the highest byte', `PUSH32 ${0xabn << 248n} PUSH0 BYTE`, PUSH + PUSH0 + VERYLOW, 0xabn)
wordCase('BYTE past 31 is zero', 'PUSH2 0x1234 PUSH1 32 BYTE', PUSH * 2 + VERYLOW, 0n)
wordCase('SHL moves into the top bit', 'PUSH1 1 PUSH1 255 SHL', PUSH * 2 + VERYLOW, 1n << 255n)
wordCase('SHL by 256 is zero', 'PUSH1 1 PUSH2 256 SHL', PUSH * 2 + VERYLOW, 0n)
wordCase('SHR', 'PUSH2 0x1234 PUSH1 4 SHR', PUSH * 2 + VERYLOW, 0x123n)
wordCase('SAR keeps the sign', `PUSH32 ${NEG(0x100n)} PUSH1 4 SAR`, PUSH * 2 + VERYLOW, NEG(0x10n))
wordCase('SAR of a negative word by 300 is all ones', `PUSH32 ${NEG(5n)} PUSH2 300 SAR`, PUSH * 2 + VERYLOW, MAX)

// ---- SHA3 ----
wordCase('SHA3 of nothing', 'PUSH0 PUSH0 SHA3', PUSH0 * 2 + 30, BigInt('0x' + sha3('')))
wordCase('SHA3 of one word costs one word',
  'PUSH1 1 PUSH0 MSTORE PUSH1 32 PUSH0 SHA3',
  PUSH + PUSH0 + VERYLOW + mem(1) + PUSH + PUSH0 + 30 + 6,
  BigInt('0x' + sha3(word(1n))), 1)
call('SHA3 of 33 bytes costs two words and grows memory',
  `PUSH1 33 PUSH0 SHA3 ${RETURN_TOP}`,
  PUSH + PUSH0 + 30 + mem(2) + 6 * 2 + PUSH0 + VERYLOW + PUSH + PUSH0,
  { return_data: sha3('00'.repeat(33)) })

// ---- environment ----
wordCase('ADDRESS is the executing contract', 'ADDRESS', BASE, BigInt('0x' + CONTRACT))
wordCase('CALLER', 'CALLER', BASE, BigInt('0x' + CALLER))
call('CALLVALUE sees the value sent, which the contract now holds',
  `CALLVALUE ${RETURN_TOP}`, BASE + RET32,
  { return_data: word(777n), balances: { [CALLER]: '223', [CONTRACT]: '777' } },
  { value: 777n, pre: { [CALLER]: { balance: '1000' } } })
call('CALLDATASIZE and CALLDATALOAD at an unaligned offset',
  `CALLDATASIZE PUSH1 1 CALLDATALOAD ADD ${RETURN_TOP}`,
  BASE + PUSH + VERYLOW + VERYLOW + RET32,
  { return_data: word((0x0102n << 240n) + 35n) },
  { calldata: 'ff0102' + '00'.repeat(30) + '0304' })
wordCase('CALLDATALOAD past the end is zero', 'PUSH1 100 CALLDATALOAD', PUSH + VERYLOW, 0n)
call('CALLDATACOPY pads with zeros and charges per word',
  'PUSH1 40 PUSH1 1 PUSH0 CALLDATACOPY PUSH1 64 PUSH0 RETURN',
  PUSH + PUSH + PUSH0 + VERYLOW + mem(2) + 3 * 2 + PUSH + PUSH0,
  { return_data: 'bbcc' + '00'.repeat(62) },
  { calldata: 'aabbcc' })
call('CODESIZE and CODECOPY', 'CODESIZE PUSH0 PUSH0 CODECOPY CODESIZE PUSH0 RETURN',
  BASE + PUSH0 + PUSH0 + VERYLOW + mem(1) + 3 + BASE + PUSH0,
  { return_data: hex('CODESIZE PUSH0 PUSH0 CODECOPY CODESIZE PUSH0 RETURN') })
call('BALANCE of an account', `PUSH20 0x${OTHER} BALANCE ${RETURN_TOP}`, PUSH + 400 + RET32,
  { return_data: word(5000n) }, { pre: { [OTHER]: { balance: '5000' } } })
call('SELFBALANCE', `SELFBALANCE ${RETURN_TOP}`, LOW + RET32, { return_data: word(42n) }, { balance: 42n })
wordCase('BLOCKHEIGHT', 'BLOCKHEIGHT', BASE, 1234n)
wordCase('TIMESTAMP is the whole seconds of the block time', 'TIMESTAMP', BASE, 1_700_000_000n)
wordCase('MINER', 'MINER', BASE, BigInt('0x' + ENV.miner))
wordCase('GAS is what is left after its own fee', 'GAS', BASE, 100_000n - BigInt(BASE))
wordCase('PC is the offset of the PC instruction', 'PUSH0 POP PC', PUSH0 + BASE + BASE, 2n)
wordCase('MSIZE counts whole words', 'PUSH1 1 PUSH1 40 MSTORE8 MSIZE', PUSH * 2 + VERYLOW + mem(2) + BASE, 64n, 2)

// ---- stack ----
wordCase('DUP16 copies the 16th item', Array.from({ length: 16 }, (_, i) => `PUSH1 ${i + 1}`).join(' ') + ' DUP16',
  PUSH * 16 + VERYLOW, 1n)
wordCase('SWAP16 exchanges the top and the 17th item', Array.from({ length: 17 }, (_, i) => `PUSH1 ${i + 1}`).join(' ') + ' SWAP16',
  PUSH * 17 + VERYLOW, 1n)
call('stack underflow', 'PUSH1 1 ADD', 0, fail('stack underflow', 100_000))
call('POP of an empty stack underflows', 'POP', 0, fail('stack underflow', 100_000))
call('stack overflow at 1025 items', 'loop: JUMPDEST PUSH0 PUSH1 @loop JUMP', 0, fail('stack overflow', 100_000))

// ---- memory ----
wordCase('MSTORE then MLOAD', 'PUSH2 0xbeef PUSH1 64 MSTORE PUSH1 64 MLOAD',
  PUSH * 2 + VERYLOW + mem(3) + PUSH + VERYLOW, 0xbeefn, 3)
call('memory expansion is charged once per new word', 'PUSH1 1 PUSH2 1000 MSTORE PUSH1 1 PUSH2 1000 MSTORE',
  (PUSH * 2 + VERYLOW + mem(Math.ceil(1032 / 32))) + (PUSH * 2 + VERYLOW), {})
call('memory expansion is quadratic', 'PUSH1 1 PUSH2 32000 MSTORE',
  PUSH * 2 + VERYLOW + mem(1001), {})
call('memory past the 16 MiB limit is out of gas', 'PUSH1 1 PUSH6 0x10000000000 MSTORE', 0, fail('out of gas', 100_000), { gasLimit: 100_000 })
call('MLOAD far away without the gas for it', 'PUSH3 0x100000 MLOAD', 0, fail('out of gas', 50_000), { gasLimit: 50_000 })
call('RETURN of nothing at a huge offset costs no memory', `PUSH0 PUSH32 ${MAX} RETURN`, PUSH0 + PUSH, {})

// ---- storage ----
call('SSTORE zero to non-zero costs 20000', 'PUSH1 7 PUSH1 1 SSTORE', PUSH * 2 + 20000,
  { storage: { [CONTRACT]: { '0x1': '0x7' } } })
call('SSTORE non-zero to non-zero costs 5000', 'PUSH1 8 PUSH1 1 SSTORE', PUSH * 2 + 5000,
  { storage: { [CONTRACT]: { '0x1': '0x8' } } }, { storage: { '0x1': '0x7' } })
call('SSTORE to zero costs 5000 and clears the slot', 'PUSH0 PUSH1 1 SSTORE', PUSH0 + PUSH + 5000,
  { storage: { [CONTRACT]: {} } }, { storage: { '0x1': '0x7' } })
call('SSTORE of zero into an empty slot costs 5000', 'PUSH0 PUSH1 1 SSTORE', PUSH0 + PUSH + 5000,
  { storage: { [CONTRACT]: {} } })
call('SLOAD costs 200', `PUSH1 3 SLOAD ${RETURN_TOP}`, PUSH + 200 + RET32,
  { return_data: word(0x99n), storage: { [CONTRACT]: { '0x3': '0x99' } } }, { storage: { '0x3': '0x99' } })
call('SSTORE without the surcharge gas is out of gas and writes nothing', 'PUSH1 7 PUSH1 1 SSTORE', 0,
  { ...fail('out of gas', 10_000), storage: { [CONTRACT]: {} } }, { gasLimit: 10_000 })

// ---- control flow ----
wordCase('JUMP to a JUMPDEST', 'PUSH1 5 PUSH1 @to JUMP INVALID to: JUMPDEST',
  PUSH + PUSH + MID + JUMPDEST, 5n)
call('JUMP into PUSH data is an invalid jump', 'PUSH1 4 JUMP PUSH1 0x5b', 0, fail('invalid jump', 100_000))
call('JUMP past the code is an invalid jump', 'PUSH2 300 JUMP', 0, fail('invalid jump', 100_000))
call('JUMP to a non-JUMPDEST is an invalid jump', 'PUSH1 2 JUMP STOP', 0, fail('invalid jump', 100_000))
wordCase('JUMPI not taken falls through', 'PUSH1 7 PUSH0 PUSH1 @to JUMPI PUSH1 1 ADD to: JUMPDEST',
  PUSH + PUSH0 + PUSH + HIGH + PUSH + VERYLOW + JUMPDEST, 8n)
call('JUMPI taken to a bad target is an invalid jump', 'PUSH1 1 PUSH1 1 JUMPI', 0, fail('invalid jump', 100_000))
// sum = 1 + ... + 10 with the counter on the stack: 10 iterations of the loop body
{
  const body = JUMPDEST + VERYLOW * 3 /* DUP1 DUP3 ADD */ + VERYLOW /* SWAP2 */ + BASE /* POP */ +
    PUSH + VERYLOW /* PUSH1 1 SWAP1 */ + VERYLOW /* SUB */ + VERYLOW /* DUP1 */ + PUSH + HIGH /* PUSH @loop JUMPI */
  wordCase('a loop summing 1..10',
    'PUSH0 PUSH1 10 loop: JUMPDEST DUP1 DUP3 ADD SWAP2 POP PUSH1 1 SWAP1 SUB DUP1 PUSH1 @loop JUMPI POP',
    PUSH0 + PUSH + 10 * body + BASE, 55n)
}
call('running off the end of the code stops', 'PUSH1 1 PUSH1 2', PUSH * 2, {})
call('STOP keeps the unused gas', 'STOP PUSH1 1', ZERO, {})

// ---- gas ----
call('out of gas in the middle', 'PUSH1 1 PUSH1 2 ADD', 0, fail('out of gas', 8), { gasLimit: 8 })
call('exactly enough gas succeeds', 'PUSH1 1 PUSH1 2 ADD', 9, {}, { gasLimit: 9 })
call('EXP out of gas on its exponent fee', 'PUSH1 255 PUSH1 2 EXP', 0, fail('out of gas', 65), { gasLimit: 65 })
call('zero gas limit', 'STOP', 0, {}, { gasLimit: 0 })

// ---- invalid ----
call('an undefined opcode byte', '#0c', 0, fail('invalid opcode', 100_000))
call('INVALID', 'INVALID', 0, fail('invalid opcode', 100_000))

// ---- REVERT ----
{
  const reason = 'not allowed'
  const reasonWord = BigInt('0x' + utf8hex(reason).padEnd(64, '0'))
  call('REVERT returns a reason and keeps the unused gas',
    `PUSH32 ${reasonWord} PUSH0 MSTORE PUSH1 ${reason.length} PUSH0 REVERT`,
    PUSH + PUSH0 + VERYLOW + mem(1) + PUSH + PUSH0,
    { success: false, error: 'REVERT', revert_reason: reason, return_data: '' })
}
call('REVERT with an empty payload has no reason', 'PUSH0 PUSH0 REVERT', PUSH0 * 2,
  { success: false, error: 'REVERT', revert_reason: null, return_data: '' })
call('REVERT with bytes that are not UTF-8 shows them as hex', 'PUSH1 0xff PUSH0 MSTORE8 PUSH1 1 PUSH0 REVERT',
  PUSH + PUSH0 + VERYLOW + mem(1) + PUSH + PUSH0,
  { success: false, error: 'REVERT', revert_reason: '0xff', return_data: '' })
call('REVERT undoes storage writes and logs but charges for them',
  'PUSH1 1 PUSH1 1 SSTORE PUSH0 PUSH0 LOG0 PUSH0 PUSH0 REVERT',
  PUSH * 2 + 20000 + PUSH0 * 2 + 375 + PUSH0 * 2,
  { success: false, error: 'REVERT', storage: { [CONTRACT]: {} } })

// ---- RETURN ----
call('RETURN of 40 bytes', 'PUSH1 0x11 PUSH0 MSTORE PUSH1 0x22 PUSH1 39 MSTORE8 PUSH1 40 PUSH0 RETURN',
  PUSH + PUSH0 + VERYLOW + mem(1) + PUSH * 2 + VERYLOW + (mem(2) - mem(1)) + PUSH + PUSH0,
  { return_data: word(0x11n) + '00000000000000' + '22' })

// ---- logs ----
call('LOG0 with data', 'PUSH2 0xabcd PUSH0 MSTORE PUSH1 32 PUSH0 LOG0',
  PUSH + PUSH0 + VERYLOW + mem(1) + PUSH + PUSH0 + 375 + 8 * 32,
  { logs: [{ address: CONTRACT, topics: [], data: word(0xabcdn) }] })
call('LOG2 orders topics as pushed: topic0 is nearest the top',
  'PUSH1 2 PUSH1 1 PUSH0 PUSH0 LOG2',
  PUSH * 2 + PUSH0 * 2 + 375 + 375 * 2,
  { logs: [{ address: CONTRACT, topics: [word(1n), word(2n)], data: '' }] })
call('LOG4 carries four topics', 'PUSH1 4 PUSH1 3 PUSH1 2 PUSH1 1 PUSH1 1 PUSH0 LOG4',
  PUSH * 5 + PUSH0 + 375 + 375 * 4 + 8 + mem(1),
  { logs: [{ address: CONTRACT, topics: [word(1n), word(2n), word(3n), word(4n)], data: '00' }] })
call('logs keep their order', 'PUSH1 1 PUSH0 PUSH0 LOG1 PUSH1 2 PUSH0 PUSH0 LOG1',
  2 * (PUSH + PUSH0 * 2 + 750),
  { logs: [{ address: CONTRACT, topics: [word(1n)], data: '' }, { address: CONTRACT, topics: [word(2n)], data: '' }] })

// ---- calls ----
const RETURN_42 = `PUSH1 42 ${RETURN_TOP}`
const RETURN_42_GAS = PUSH + RET32
/** CALL(gas, OTHER, value, in 0/0, out 0/32) then return the first word of memory */
const callOther = (value: number, gas: string): string =>
  `PUSH1 32 PUSH0 PUSH0 PUSH0 PUSH1 ${value} PUSH20 0x${OTHER} ${gas} CALL`
const CALL_PUSHES = PUSH + PUSH0 * 3 + PUSH + PUSH
call('CALL another contract and return its answer',
  `${callOther(0, 'PUSH2 0xffff')} PUSH1 32 PUSH0 RETURN`,
  CALL_PUSHES + PUSH + 700 + mem(1) + RETURN_42_GAS + PUSH + PUSH0,
  { return_data: word(42n) },
  { pre: { [OTHER]: { code: hex(RETURN_42) } } })
call('CALL pushes 1 on success',
  `${callOther(0, 'PUSH2 0xffff')} ${RETURN_TOP}`,
  CALL_PUSHES + PUSH + 700 + mem(1) + RETURN_42_GAS + PUSH0 + VERYLOW + PUSH + PUSH0,
  { return_data: word(1n) },
  { pre: { [OTHER]: { code: hex(RETURN_42) } } })
call('CALL with value to an account without code moves the value',
  `${callOther(9, 'PUSH2 0xffff')} ${RETURN_TOP}`,
  CALL_PUSHES + PUSH + 700 + mem(1) + PUSH0 + VERYLOW + PUSH + PUSH0,
  { return_data: word(1n), balances: { [CONTRACT]: '1', [OTHER]: '9' } },
  { balance: 10n })
call('CALL with more value than the balance pushes 0 and returns the gas',
  `${callOther(11, 'PUSH2 0xffff')} ${RETURN_TOP}`,
  CALL_PUSHES + PUSH + 700 + mem(1) + PUSH0 + VERYLOW + PUSH + PUSH0,
  { return_data: word(0n), balances: { [CONTRACT]: '10', [OTHER]: '0' } },
  { balance: 10n })
{
  const reverting = 'PUSH1 5 PUSH1 1 SSTORE PUSH1 0xee PUSH0 MSTORE8 PUSH1 3 PUSH0 REVERT'
  const revertingGas = PUSH * 2 + 20000 + PUSH + PUSH0 + VERYLOW + mem(1) + PUSH + PUSH0
  call('a reverting callee: 0 pushed, its writes undone, its payload is the return data',
    `${callOther(0, 'PUSH3 0xffffff')} RETURNDATASIZE ADD ${RETURN_TOP}`,
    CALL_PUSHES + PUSH + 700 + mem(1) + revertingGas + BASE + VERYLOW + PUSH0 + VERYLOW + PUSH + PUSH0,
    { return_data: word(3n), storage: { [OTHER]: {} } },
    { pre: { [OTHER]: { code: hex(reverting) } } })
}
call('a callee out of gas burns only what it was given',
  `${callOther(0, 'PUSH1 100')} ${RETURN_TOP}`,
  CALL_PUSHES + PUSH + 700 + mem(1) + 100 + PUSH0 + VERYLOW + PUSH + PUSH0,
  { return_data: word(0n) },
  { pre: { [OTHER]: { code: hex('loop: JUMPDEST PUSH1 @loop JUMP') } } })
{
  // The caller has G left when CALL runs; it forwards G - floor(G/64); the callee reports GAS.
  const before = CALL_PUSHES + PUSH + 700 + mem(1)
  const left = 100_000 - before
  const forwarded = left - Math.floor(left / 64)
  const calleeGas = 'GAS PUSH0 MSTORE PUSH1 32 PUSH0 RETURN'
  call('CALL forwards at most all but 1/64 of the gas left',
    `${callOther(0, `PUSH32 ${MAX}`)} PUSH1 32 PUSH0 RETURN`,
    before + (BASE + PUSH0 + VERYLOW + mem(1) + PUSH + PUSH0) + PUSH + PUSH0,
    { return_data: word(BigInt(forwarded - BASE)) },
    { pre: { [OTHER]: { code: hex(calleeGas) } } })
}
call('STATICCALL: a callee writing storage fails with a static call violation',
  `PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 0x${OTHER} PUSH2 0xffff STATICCALL ${RETURN_TOP}`,
  PUSH0 * 4 + PUSH * 2 + 700 + 0xffff + RET32,
  { return_data: word(0n), storage: { [OTHER]: {} } },
  { pre: { [OTHER]: { code: hex('PUSH1 1 PUSH1 1 SSTORE') } } })
call('STATICCALL: a callee emitting a log fails',
  `PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 0x${OTHER} PUSH2 0xffff STATICCALL ${RETURN_TOP}`,
  PUSH0 * 4 + PUSH * 2 + 700 + 0xffff + RET32,
  { return_data: word(0n) },
  { pre: { [OTHER]: { code: hex('PUSH0 PUSH0 LOG0') } } })
call('STATICCALL: a callee sending value fails',
  `PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 0x${OTHER} PUSH2 0xffff STATICCALL ${RETURN_TOP}`,
  PUSH0 * 4 + PUSH * 2 + 700 + 0xffff + RET32,
  { return_data: word(0n), balances: { [OTHER]: '5', [THIRD]: '0' } },
  { pre: { [OTHER]: { balance: '5', code: hex(`PUSH0 PUSH0 PUSH0 PUSH0 PUSH1 1 PUSH20 0x${THIRD} GAS CALL`) } } })
wordCase('STATICCALL of a reading callee succeeds',
  `PUSH1 32 PUSH0 PUSH0 PUSH0 PUSH20 0x${OTHER} PUSH2 0xffff STATICCALL POP PUSH0 MLOAD`,
  PUSH + PUSH0 * 3 + PUSH * 2 + 700 + mem(1) + (PUSH0 + 200 + RET32) + BASE + PUSH0 + VERYLOW,
  0x77n, 1)
// the wordCase above pre-state: OTHER reads its slot 0
;(cases[cases.length - 1] as Case).pre[OTHER] = { code: hex(`PUSH0 SLOAD ${RETURN_TOP}`), storage: { '0x0': '0x77' } }
call('a static transaction cannot write storage', 'PUSH1 1 PUSH1 1 SSTORE', 0,
  fail('static call violation', 100_000), { static: true })
call('a log in a callee that reverts is dropped; the caller\'s own log stays',
  `PUSH0 PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 0x${OTHER} PUSH2 0xffff CALL PUSH0 PUSH0 LOG1`,
  PUSH0 * 5 + PUSH * 2 + 700 + (PUSH0 * 2 + 375 + PUSH0 * 2) + PUSH0 * 2 + 750,
  { logs: [{ address: CONTRACT, topics: [word(0n)], data: '' }] },
  { pre: { [OTHER]: { code: hex('PUSH0 PUSH0 LOG0 PUSH0 PUSH0 REVERT') } } })
call('logs of a successful callee carry the callee\'s address',
  `PUSH0 PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 0x${OTHER} PUSH2 0xffff CALL POP`,
  PUSH0 * 5 + PUSH * 2 + 700 + (PUSH0 * 2 + 375) + BASE,
  { logs: [{ address: OTHER, topics: [], data: '' }] },
  { pre: { [OTHER]: { code: hex('PUSH0 PUSH0 LOG0') } } })
call('RETURNDATACOPY past the return data fails',
  `${callOther(0, 'PUSH2 0xffff')} PUSH1 33 PUSH0 PUSH0 RETURNDATACOPY`,
  0, fail('return data out of bounds', 100_000),
  { pre: { [OTHER]: { code: hex(RETURN_42) } } })
call('RETURNDATACOPY of the last call\'s output',
  `PUSH0 PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 0x${OTHER} PUSH2 0xffff CALL POP PUSH1 32 PUSH0 PUSH1 32 RETURNDATACOPY PUSH1 32 PUSH1 32 RETURN`,
  PUSH0 * 5 + PUSH * 2 + 700 + RETURN_42_GAS + BASE + PUSH + PUSH0 + PUSH + VERYLOW + mem(2) + 3 + PUSH * 2,
  { return_data: word(42n) },
  { pre: { [OTHER]: { code: hex(RETURN_42) } } })
call('call depth exceeded fails the whole transaction',
  'PUSH0 PUSH0 PUSH0 PUSH0 PUSH0 ADDRESS GAS CALL',
  0, fail('call depth exceeded', 3_000_000), { gasLimit: 3_000_000 })

// ---- precompiles ----
{
  const input = Buffer.from('abc')
  call('precompile 0x01: SHA3-512',
    `PUSH3 0x${input.toString('hex')} PUSH0 MSTORE PUSH1 64 PUSH0 PUSH1 3 PUSH1 29 PUSH0 PUSH1 1 PUSH2 0xffff CALL POP PUSH1 64 PUSH0 RETURN`,
    PUSH + PUSH0 + VERYLOW + mem(1) + PUSH + PUSH0 + PUSH * 2 + PUSH0 + PUSH * 2 + 700 + (mem(2) - mem(1)) + (60 + 12) + BASE + PUSH + PUSH0,
    { return_data: sha3_512(input) })
  call('precompile without enough gas fails the call only',
    `PUSH0 PUSH0 PUSH0 PUSH0 PUSH0 PUSH1 1 PUSH1 59 CALL ${RETURN_TOP}`,
    PUSH0 * 5 + PUSH * 2 + 700 + 59 + RET32,
    { return_data: word(0n) })
}
{
  const seed = new Uint8Array(32).fill(7)
  const { publicKey } = mldsa.keygen(seed)
  const message = Buffer.from('pay 10 coin to bob')
  const signature = mldsa.sign(seed, message)
  const good = Buffer.concat([publicKey, signature, message])
  const bad = Buffer.from(good)
  bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 1
  // the input is given as calldata and copied to memory: CALLDATACOPY, then CALL 0x02
  const verify = 'CALLDATASIZE PUSH0 PUSH0 CALLDATACOPY PUSH1 32 PUSH0 CALLDATASIZE PUSH0 PUSH0 PUSH1 2 PUSH3 0xffffff CALL POP PUSH1 32 PUSH0 RETURN'
  const words = Math.ceil(good.length / 32)
  const verifyGas = BASE + PUSH0 * 2 + VERYLOW + mem(words) + 3 * words + PUSH + PUSH0 + BASE + PUSH0 * 2 + PUSH * 2 + 700 +
    (50000 + 6 * Math.ceil(message.length / 32)) + BASE + PUSH + PUSH0
  call('precompile 0x02: ML-DSA-87 verify accepts a valid signature', verify, verifyGas,
    { return_data: word(1n) }, { calldata: good.toString('hex'), gasLimit: 200_000 })
  call('precompile 0x02: ML-DSA-87 verify refuses an altered message', verify, verifyGas,
    { return_data: word(0n) }, { calldata: bad.toString('hex'), gasLimit: 200_000 })
  const short = Buffer.from('00'.repeat(100), 'hex')
  const shortWords = Math.ceil(short.length / 32)
  call('precompile 0x02: a short input is not a valid signature', verify,
    BASE + PUSH0 * 2 + VERYLOW + mem(shortWords) + 3 * shortWords + PUSH + PUSH0 + BASE + PUSH0 * 2 + PUSH * 2 + 700 + 50000 + BASE + PUSH + PUSH0,
    { return_data: word(0n) }, { calldata: short.toString('hex'), gasLimit: 200_000 })
}

// ---- deploys ----
function contractAddressOf (deployer: string, nonce: bigint): string {
  return sha3(deployer + word(nonce)).slice(0, 40)
}
{
  const runtime = hex(RETURN_42)
  const runtimeLength = runtime.length / 2
  // init: CODECOPY(0, end of init, len) RETURN(0, len); init is 10 bytes
  const init = `PUSH1 ${runtimeLength} PUSH1 10 PUSH0 CODECOPY PUSH1 ${runtimeLength} PUSH0 RETURN`
  const initHex = hex(init)
  if (initHex.length / 2 !== 10) throw new Error('init size changed')
  const address = contractAddressOf(CALLER, 5n)
  cases.push({
    name: 'deploy stores the returned runtime code and charges 200 gas per byte',
    kind: 'deploy',
    pre: { [CALLER]: { nonce: '5', balance: '100' } },
    tx: { caller: CALLER, code: initHex + runtime, calldata: '', value: '30', gas_limit: 100_000 },
    expect: {
      success: true,
      gas_used: PUSH * 2 + PUSH0 + VERYLOW + mem(1) + 3 + PUSH + PUSH0 + 200 * runtimeLength,
      contract: address,
      logs: [],
      error: null,
      revert_reason: null,
      nonces: { [CALLER]: '6' },
      balances: { [CALLER]: '70', [address]: '30' },
      code: { [address]: runtime }
    }
  })
  const failing = contractAddressOf(CALLER, 0n)
  cases.push({
    name: 'a reverting deploy still bumps the nonce and stores nothing',
    kind: 'deploy',
    pre: {},
    tx: { caller: CALLER, code: hex('PUSH0 PUSH0 REVERT'), calldata: '', value: '0', gas_limit: 100_000 },
    expect: {
      success: false, gas_used: PUSH0 * 2, contract: failing, logs: [], error: 'REVERT', revert_reason: null,
      nonces: { [CALLER]: '1' }, code: { [failing]: null }
    }
  })
  cases.push({
    name: 'deploy of code with an undefined opcode is bad code',
    kind: 'deploy',
    pre: {},
    tx: { caller: CALLER, code: '600c0c', calldata: '', value: '0', gas_limit: 100_000 },
    expect: {
      success: false, gas_used: 0, contract: failing, logs: [], error: 'bad code: undefined opcode 0x0c at 2', revert_reason: null,
      nonces: { [CALLER]: '1' }, code: { [failing]: null }
    }
  })
  cases.push({
    name: 'deploy of code ending inside a PUSH is bad code',
    kind: 'deploy',
    pre: {},
    tx: { caller: CALLER, code: '6001610a', calldata: '', value: '0', gas_limit: 100_000 },
    expect: {
      success: false, gas_used: 0, contract: failing, logs: [], error: 'bad code: truncated PUSH2 at 2', revert_reason: null,
      nonces: { [CALLER]: '1' }, code: { [failing]: null }
    }
  })
  cases.push({
    name: 'deploy whose code deposit does not fit the gas is out of gas',
    kind: 'deploy',
    pre: {},
    tx: { caller: CALLER, code: initHex + runtime, calldata: '', value: '0', gas_limit: 1000 },
    expect: {
      success: false, gas_used: 1000, contract: failing, logs: [], error: 'out of gas', revert_reason: null,
      nonces: { [CALLER]: '1' }, code: { [failing]: null }
    }
  })
}
cases.push({
  name: 'calling an address without code is bad fields',
  kind: 'call',
  pre: {},
  tx: { caller: CALLER, to: OTHER, calldata: '', value: '0', gas_limit: 100_000 },
  expect: { success: false, gas_used: 0, return_data: '', logs: [], error: `bad fields: no contract at ${OTHER}`, revert_reason: null }
})
call('calldata that is not hex is bad fields', 'STOP', 0,
  { success: false, error: 'bad fields: calldata must be hex', return_data: '' }, { calldata: 'zz' })
call('sending more value than the caller holds', 'STOP', 0,
  { success: false, error: 'insufficient balance', return_data: '', balances: { [CALLER]: '5', [CONTRACT]: '0' } },
  { value: 6n, pre: { [CALLER]: { balance: '5' } } })

export const CONFORMANCE_CASES: readonly Case[] = cases
