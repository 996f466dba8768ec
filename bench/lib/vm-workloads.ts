// The three VM workloads as bytecode. The node's VM keeps the EVM's byte for every opcode
// used here (PUSH, DUP, SWAP, arithmetic, SLOAD/SSTORE, MSTORE, SHA3, JUMPDEST/JUMPI), so the
// same bytes run on both the node's cores and @ethereumjs/evm. Gas schedules differ (storage
// above all), hence loop iterations per second are reported beside gas per second.

export type WorkloadName = 'arithmetic' | 'storage' | 'sha3'

export interface Workload {
  name: WorkloadName
  title: string
  /** runtime code: loops `iterations` times, then STOPs */
  code: Uint8Array
  iterations: number
}

const PUSH1 = 0x60
const PUSH3 = 0x62
const DUP1 = 0x80
const DUP3 = 0x82
const SWAP1 = 0x90
const JUMPDEST = 0x5b
const JUMPI = 0x57
const STOP = 0x00

/** `PUSH3 n; loop: JUMPDEST; i -= 1; body; if i != 0 goto loop; STOP`, body keeping i on the stack. */
function loop (iterations: number, body: number[]): Uint8Array {
  if (iterations < 1 || iterations >= 1 << 24) throw new RangeError('iterations must fit PUSH3')
  const LOOP = 4 // the JUMPDEST right after the 4-byte PUSH3
  return Uint8Array.from([
    PUSH3, (iterations >> 16) & 0xff, (iterations >> 8) & 0xff, iterations & 0xff,
    JUMPDEST,
    PUSH1, 1, SWAP1, 0x03, // SUB: i - 1
    ...body,
    DUP1, PUSH1, LOOP, JUMPI,
    STOP
  ])
}

export function workloads (iterations: number): Workload[] {
  return [
    {
      name: 'arithmetic',
      title: 'arithmetic loop',
      // (i*i + 7) ^ 3, discarded
      code: loop(iterations, [DUP1, DUP1, 0x02, PUSH1, 7, 0x01, PUSH1, 3, 0x18, 0x50]),
      iterations
    },
    {
      name: 'storage',
      title: 'storage read/write loop',
      // slot = i & 15; storage[slot] += i
      code: loop(iterations, [DUP1, PUSH1, 15, 0x16, DUP1, 0x54, DUP3, 0x01, SWAP1, 0x55]),
      iterations
    },
    {
      name: 'sha3',
      title: 'SHA3 loop',
      // mem[0..32] = i; SHA3(mem[0..32]), discarded
      code: loop(iterations, [DUP1, PUSH1, 0, 0x52, PUSH1, 32, PUSH1, 0, 0x20, 0x50]),
      iterations
    }
  ]
}
