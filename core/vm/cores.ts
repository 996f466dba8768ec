// Which interpreter core runs contracts: `wasm` (default) or its JS twin `js`.
import type { Interpreter, VmCoreKind } from './interpreter.ts'
import { jsInterpreter } from './js/interpreter.ts'
import { wasmInterpreter } from './wasm/interpreter.ts'

let active: VmCoreKind = 'wasm'

export function getVmCore (kind: VmCoreKind): Interpreter {
  if (kind === 'wasm') return wasmInterpreter
  if (kind === 'js') return jsInterpreter
  throw new RangeError(`unknown VM core "${String(kind)}" (expected wasm or js)`)
}

/** Sets the core used when a request names none. */
export function selectVmCore (kind: VmCoreKind): void {
  getVmCore(kind)
  active = kind
}

export function activeVmCore (): VmCoreKind { return active }
