// The one switch for cores. Five families (sha3, pow, vm, mldsa, bls) each have a registry of
// interchangeable cores that pass the same vectors (test/core/conformance.test.ts runs every
// registered core of every family). A kernel builds one `Cores` from its config (`cores`
// key, overridden by `--core family=name,...`) and registers it as the `cores` service; the
// chain, miner, verify pool and VM executor get their cores from it, so two kernels in one
// process each run their own choice. Nothing here is process-wide state.
import { SHA3_CORES } from '../crypto/sha3.ts'
import type { Sha3Core, Sha3CoreName } from '../crypto/sha3.ts'
import { POW_CORES } from '../pow/pow-core.ts'
import type { PowCore, PowCoreName } from '../pow/pow-core.ts'
import { VM_CORES } from '../vm/cores.ts'
import type { VmCoreName } from '../vm/cores.ts'
import type { Interpreter } from '../vm/interpreter.ts'
import { MLDSA_CORES } from '../crypto/mldsa.ts'
import type { MldsaCore, MldsaCoreName } from '../crypto/mldsa.ts'
import { BLS_CORES } from '../crypto/bls.ts'
import type { BlsCore, BlsCoreName } from '../crypto/bls.ts'

/** Every family's registry. A core added to a registry is selectable and conformance-tested. */
export const CORE_FAMILIES = { sha3: SHA3_CORES, pow: POW_CORES, vm: VM_CORES, mldsa: MLDSA_CORES, bls: BLS_CORES } as const
export type CoreFamily = keyof typeof CORE_FAMILIES

/** The name of the core each family runs on (the config key `cores`). */
export interface CoreSelection {
  sha3: Sha3CoreName
  pow: PowCoreName
  vm: VmCoreName
  mldsa: MldsaCoreName
  bls: BlsCoreName
}

export const DEFAULT_CORE_SELECTION: Readonly<CoreSelection> = Object.freeze({ sha3: 'wasm', pow: 'wasm', vm: 'wasm', mldsa: 'wasm', bls: 'mcl' })

export const coreFamilies = (): CoreFamily[] => Object.keys(CORE_FAMILIES) as CoreFamily[]
export const coreNames = (family: CoreFamily): string[] => Object.keys(CORE_FAMILIES[family])

/** A kernel's cores: one object per kernel, the `cores` service. */
export class Cores {
  readonly selection: Readonly<CoreSelection>
  readonly sha3: Sha3Core
  readonly pow: PowCore
  readonly vm: Interpreter
  readonly mldsa: MldsaCore
  readonly bls: BlsCore

  constructor (selection: Partial<CoreSelection> = {}) {
    const full = { ...DEFAULT_CORE_SELECTION, ...selection }
    for (const family of coreFamilies()) {
      if (!Object.hasOwn(CORE_FAMILIES[family], full[family])) throw new CoreSelectionError(unknownCoreMessage(family, String(full[family])))
    }
    this.selection = Object.freeze(full)
    this.sha3 = SHA3_CORES[full.sha3]
    this.pow = POW_CORES[full.pow]
    this.vm = VM_CORES[full.vm]
    this.mldsa = MLDSA_CORES[full.mldsa]
    this.bls = BLS_CORES[full.bls]
  }

  /**
   * Resolves once every chosen core can run synchronously: a WASM core that instantiates
   * lazily (the BLS core: ~25 MiB and ~0.2 s of CPU per thread) does it here. Nothing calls it
   * at boot: what pairs on this thread awaits `cores.bls.ready()` first (the miner's envelope
   * check, the aggregator's drand sources, a chain without a verify pool), so a node that only
   * validates leaves it to the verify pool's beacon thread.
   */
  async ready (): Promise<void> {
    await this.bls.ready()
  }

  /** `sha3=wasm,pow=wasm,vm=wasm,mldsa=wasm,bls=mcl`: the form `--core` takes. */
  toString (): string { return formatCoreSelection(this.selection) }
}

export class CoreSelectionError extends Error { override name = 'CoreSelectionError' }

const unknownCoreMessage = (family: CoreFamily, name: string): string =>
  `unknown ${family} core "${name}" (valid: ${coreNames(family).join(', ')})`

export function formatCoreSelection (selection: Readonly<CoreSelection>): string {
  return coreFamilies().map((f) => `${f}=${selection[f]}`).join(',')
}

/**
 * Parses `--core sha3=js,pow=wasm` (the flag may also be given several times: pass each
 * value). Families left out keep the config's choice. Throws CoreSelectionError with one line
 * naming the valid families or cores.
 */
export function parseCoreFlag (values: string | readonly string[]): Partial<CoreSelection> {
  const out: Record<string, string> = {}
  for (const value of typeof values === 'string' ? [values] : values) {
    for (const part of value.split(',')) {
      const item = part.trim()
      if (item === '') continue
      const eq = item.indexOf('=')
      const family = (eq < 0 ? item : item.slice(0, eq)).trim()
      const name = eq < 0 ? '' : item.slice(eq + 1).trim()
      if (!Object.hasOwn(CORE_FAMILIES, family)) throw new CoreSelectionError(`--core: unknown core family "${family}" (valid: ${coreFamilies().join(', ')}); write --core family=name,...`)
      if (eq < 0 || name === '') throw new CoreSelectionError(`--core: ${family} needs a core name: ${family}=<${coreNames(family as CoreFamily).join('|')}>`)
      if (!Object.hasOwn(CORE_FAMILIES[family as CoreFamily], name)) throw new CoreSelectionError(`--core: ${unknownCoreMessage(family as CoreFamily, name)}`)
      out[family] = name
    }
  }
  return out as Partial<CoreSelection>
}
