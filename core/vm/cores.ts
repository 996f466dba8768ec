// The contract VM's interpreter cores: `wasm` (the default) and its JS twin `js`. There is no
// process-wide "active" core: a kernel picks one (config `cores.vm`, `--core vm=...`) and
// hands it to the executor in each request; a request that names none runs on DEFAULT_VM_CORE.
import type { Interpreter } from './interpreter.ts'
import { jsInterpreter } from './js/interpreter.ts'
import { wasmInterpreter } from './wasm/interpreter.ts'

/** Every interpreter core by the name `--core vm=<name>` selects it with. */
export const VM_CORES = { wasm: wasmInterpreter, js: jsInterpreter } as const satisfies Record<string, Interpreter>
export type VmCoreName = keyof typeof VM_CORES

/** The core a request runs on when it names none. Never reassigned. */
export const DEFAULT_VM_CORE: Interpreter = wasmInterpreter

export function getVmCore (name: VmCoreName): Interpreter {
  if (!Object.hasOwn(VM_CORES, name)) throw new RangeError(`unknown VM core "${String(name)}" (expected ${Object.keys(VM_CORES).join(' or ')})`)
  return VM_CORES[name]
}

/** A request's core: the interpreter object itself, its name, or the default. */
export function resolveVmCore (core: Interpreter | VmCoreName | undefined): Interpreter {
  if (core === undefined) return DEFAULT_VM_CORE
  return typeof core === 'string' ? getVmCore(core) : core
}
