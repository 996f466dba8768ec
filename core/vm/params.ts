// Every fee and limit of the VM in one place (DESIGN 4). The opcode table takes its base
// fees from GAS; the dynamic parts (memory, per word, per byte, storage) are charged by the
// interpreters with the same constants, rendered into the AssemblyScript core by the generator.

export const GAS = {
  zero: 0,
  jumpdest: 1,
  base: 2,
  veryLow: 3,
  low: 5,
  mid: 8,
  high: 10,
  exp: 10,
  /** per byte of the exponent */
  expByte: 50,
  sha3: 30,
  sha3Word: 6,
  /** per 32-byte word copied by CALLDATACOPY / CODECOPY / RETURNDATACOPY */
  copyWord: 3,
  balance: 400,
  sload: 200,
  /** SSTORE of any value into a non-zero slot, or of zero */
  sstore: 5000,
  /** added when SSTORE turns a zero slot non-zero */
  sstoreSetExtra: 15000,
  log: 375,
  logTopic: 375,
  logByte: 8,
  call: 700,
  /** memory: cost(words) = memoryWord * words + words^2 / memoryQuadDivisor, charged on growth */
  memoryWord: 3,
  memoryQuadDivisor: 512,
  /** per byte of runtime code stored by a successful deploy */
  codeDeposit: 200
} as const

export const LIMITS = {
  stack: 1024,
  /** frames on the call stack, the transaction's own frame being depth 1 */
  callDepth: 256,
  /** a frame whose memory would grow past this is out of gas (its cost would be ~538M gas) */
  memoryBytes: 16 * 1024 * 1024,
  /** deploy (init) code */
  initCodeBytes: 49152,
  /** runtime code a deploy may store */
  codeBytes: 24576,
  /** the caller keeps 1/callGasRetainDivisor of its remaining gas across a CALL */
  callGasRetainDivisor: 64,
  /**
   * largest gas limit a transaction may give: it bounds the memory all frames together can
   * reach (about 11 bytes per gas at most), which the WASM core must be able to hold
   */
  gasLimit: 100_000_000
} as const

/** Gas price of a whole memory of `words` 32-byte words. */
export function memoryCost (words: number): number {
  return GAS.memoryWord * words + Math.floor(words * words / GAS.memoryQuadDivisor)
}
