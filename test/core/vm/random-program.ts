// Random VM programs for the differential test: mostly well-formed stretches (operands pushed
// before operators, small memory offsets, jumps to real labels) with the occasional hostile
// instruction, so runs reach deep into every opcode family and also fail in every way.

export class Rng {
  #state: number
  constructor (seed: number) { this.#state = seed >>> 0 || 1 }
  /** xorshift32 */
  next (): number {
    let x = this.#state
    x ^= x << 13; x >>>= 0
    x ^= x >>> 17
    x ^= x << 5; x >>>= 0
    this.#state = x
    return x
  }

  int (n: number): number { return this.next() % n }
  chance (p: number): boolean { return this.next() / 0x100000000 < p }
  pick<T> (items: readonly T[]): T { return items[this.int(items.length)] as T }
  bytes (n: number): Uint8Array { return Uint8Array.from({ length: n }, () => this.int(256)) }
}

const BINARY = ['ADD', 'MUL', 'SUB', 'DIV', 'SDIV', 'MOD', 'SMOD', 'EXP', 'SIGNEXTEND', 'LT', 'GT', 'SLT', 'SGT', 'EQ', 'AND', 'OR', 'XOR', 'BYTE', 'SHL', 'SHR', 'SAR']
const TERNARY = ['ADDMOD', 'MULMOD']
const UNARY = ['ISZERO', 'NOT']
const NULLARY = ['ADDRESS', 'CALLER', 'CALLVALUE', 'CALLDATASIZE', 'CODESIZE', 'RETURNDATASIZE', 'SELFBALANCE', 'BLOCKHEIGHT', 'TIMESTAMP', 'MINER', 'PC', 'MSIZE', 'GAS']
const SPECIAL_WORDS = [0n, 1n, 2n, 31n, 32n, 255n, 256n, (1n << 255n), (1n << 256n) - 1n, (1n << 128n), (1n << 64n) - 1n, (1n << 64n)]

function randomWord (rng: Rng): string {
  switch (rng.int(5)) {
    case 0: return String(rng.pick(SPECIAL_WORDS))
    case 1: return String(rng.int(300))
    case 2: return '0x' + Buffer.from(rng.bytes(1 + rng.int(32))).toString('hex')
    case 3: return '0x' + Buffer.from(rng.bytes(8)).toString('hex') + '00'.repeat(rng.int(24))
    default: return String(rng.int(40))
  }
}

const smallOffset = (rng: Rng): string => `PUSH1 ${rng.int(96)}`
const smallLength = (rng: Rng): string => `PUSH1 ${rng.pick([0, 1, 5, 31, 32, 33, 64])}`

/**
 * Assembler text of a random program. `callee` is an address it may CALL; labels are only
 * jumped to forward, so every program ends (or runs out of gas in a callee loop).
 */
export function randomProgram (rng: Rng, callee: string, length: number): string {
  const parts: string[] = []
  let labels = 0
  const pendingLabels: number[] = []
  const push = (): void => { parts.push(`PUSH ${randomWord(rng)}`) }
  const words = (n: number): string[] => Array.from({ length: n }, () => `PUSH ${randomWord(rng)}`)
  for (let i = 0; i < length; i++) {
    if (pendingLabels.length > 0 && rng.chance(0.15)) parts.push(`L${pendingLabels.shift() as number}: JUMPDEST`)
    const roll = rng.int(100)
    if (roll < 30) push()
    else if (roll < 48) parts.push(...words(2), rng.pick(BINARY))
    else if (roll < 51) parts.push(...words(3), rng.pick(TERNARY))
    else if (roll < 54) parts.push(rng.pick(UNARY))
    else if (roll < 58) parts.push(rng.pick(NULLARY))
    else if (roll < 62) parts.push(`${rng.pick(['DUP', 'SWAP'])}${1 + rng.int(4)}`)
    else if (roll < 64) parts.push('POP')
    else if (roll < 69) parts.push(...words(1), smallOffset(rng), rng.pick(['MSTORE', 'MSTORE8']))
    else if (roll < 71) parts.push(smallOffset(rng), 'MLOAD')
    else if (roll < 74) parts.push(`PUSH1 ${rng.int(4)}`, 'SLOAD')
    else if (roll < 77) parts.push(...words(1), `PUSH1 ${rng.int(4)}`, 'SSTORE')
    else if (roll < 79) parts.push(smallLength(rng), smallOffset(rng), 'SHA3')
    else if (roll < 81) parts.push(smallOffset(rng), 'CALLDATALOAD')
    else if (roll < 83) parts.push(smallLength(rng), smallOffset(rng), smallOffset(rng), rng.pick(['CALLDATACOPY', 'CODECOPY', 'RETURNDATACOPY']))
    else if (roll < 85) {
      const topics = rng.int(5)
      for (let k = 0; k < topics; k++) push()
      parts.push(smallLength(rng), smallOffset(rng), `LOG${topics}`)
    } else if (roll < 89) {
      const target = rng.pick([`0x${callee}`, '1', '2', 'ADDRESS'])
      const gas = rng.pick(['GAS', `PUSH2 ${rng.int(30000)}`, 'PUSH1 50'])
      const to = target === 'ADDRESS' ? 'ADDRESS' : `PUSH20 ${target}`
      if (rng.chance(0.5)) parts.push(smallLength(rng), smallOffset(rng), smallLength(rng), smallOffset(rng), `PUSH1 ${rng.int(3)}`, to, gas, 'CALL')
      else parts.push(smallLength(rng), smallOffset(rng), smallLength(rng), smallOffset(rng), to, gas, 'STATICCALL')
    } else if (roll < 93) {
      const label = labels++
      pendingLabels.push(label)
      if (rng.chance(0.5)) parts.push(`PUSH2 @L${label}`, 'JUMP')
      else { push(); parts.push(`PUSH2 @L${label}`, 'JUMPI') }
    } else if (roll < 95) parts.push(`PUSH20 0x${callee}`, 'BALANCE')
    else if (roll < 96) parts.push(rng.pick(['INVALID', '#0c', 'PUSH1 3 JUMP', 'ADD ADD ADD ADD ADD']))
    else if (roll < 97) parts.push(smallLength(rng), smallOffset(rng), rng.pick(['RETURN', 'REVERT']))
    else parts.push(rng.pick(['PUSH0', 'PUSH1 0', 'PUSH32 0']))
  }
  for (const label of pendingLabels) parts.push(`L${label}: JUMPDEST`)
  parts.push(rng.pick(['STOP', 'PUSH1 64 PUSH0 RETURN', 'PUSH1 32 PUSH1 16 REVERT', '']))
  return parts.join(' ')
}
