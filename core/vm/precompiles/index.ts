// Precompiled contracts live at fixed low addresses: 0x00…01 and up.
import { sha3_512Precompile } from './01-sha3-512.ts'
import { mldsa87VerifyPrecompile } from './02-mldsa87-verify.ts'
import type { Precompile } from './types.ts'

export type { Precompile }

const addressOf = (n: number): string => n.toString(16).padStart(40, '0')

export const PRECOMPILES: ReadonlyMap<string, Precompile> = new Map([
  [addressOf(1), sha3_512Precompile],
  [addressOf(2), mldsa87VerifyPrecompile]
])

export const SHA3_512_ADDRESS = addressOf(1)
export const MLDSA87_VERIFY_ADDRESS = addressOf(2)
