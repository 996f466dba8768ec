import type { Sha3Core } from '../../crypto/sha3.ts'
import type { MldsaCore } from '../../crypto/mldsa.ts'

/** The transaction's kernel's cores a precompile hashes or verifies with. */
export interface PrecompileCores { sha3: Sha3Core; mldsa: MldsaCore }

export interface Precompile {
  readonly name: string
  gas(input: Uint8Array): number
  run(input: Uint8Array, cores: PrecompileCores): Uint8Array
}
