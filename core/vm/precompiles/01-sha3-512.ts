// 0x…01: SHA3-512 of the input; returns the 64-byte digest.
import type { Precompile } from './types.ts'

export const sha3_512Precompile: Precompile = {
  name: 'SHA3-512',
  gas: (input) => 60 + 12 * Math.ceil(input.length / 32),
  run: (input, cores) => cores.sha3.sha3_512(input)
}
