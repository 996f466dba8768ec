// `--core sha3=js,pow=wasm` (ledger run, ledger verify) as a `cores` overlay: the families it
// names win over the config's. The cores' registry is imported when a command uses the flag.
import { UsageError } from './errors.ts'

export const CORE_FLAG_HELP = 'cores per family, over the config\'s `cores`: sha3=wasm|js, pow=wasm|wasm-simd|wasm-scalar|js, vm=wasm|js, mldsa=native|noble|wasm, bls=mcl|noble (e.g. --core sha3=js,pow=js)'

export async function coreFlag (values: string[]): Promise<Record<string, string>> {
  const { parseCoreFlag, CoreSelectionError } = await import('../cores/cores.ts')
  try {
    return parseCoreFlag(values) as Record<string, string>
  } catch (err) {
    if (err instanceof CoreSelectionError) throw new UsageError(err.message)
    throw err
  }
}
