// Which functions change state: a storage write, an event, a coin transfer, or a call to a
// function that does one of these. The ABI marks each method (`mutates`), so a page can run
// the others as free read-only queries instead of mined transactions.
import type { Block, Expr, Stmt } from './ast.ts'
import type { CheckedContract } from './checker.ts'

/** builtins with an effect outside the call frame */
const EFFECT_BUILTINS = new Set(['transfer'])

function targetIsStorage (e: Expr): boolean {
  if (e.kind === 'name') return e.binding?.kind === 'storage'
  if (e.kind === 'index') return targetIsStorage(e.base)
  return false
}

function callsIn (e: Expr, out: Set<string>): void {
  switch (e.kind) {
    case 'call': out.add(e.callee); for (const a of e.args) callsIn(a, out); break
    case 'index': callsIn(e.base, out); callsIn(e.index, out); break
    case 'unary': callsIn(e.operand, out); break
    case 'binary': callsIn(e.left, out); callsIn(e.right, out); break
    case 'cast': callsIn(e.expr, out); break
    default: break
  }
}

/** whether the block writes directly; every function or builtin it calls goes into `calls` */
function scan (block: Block, calls: Set<string>): boolean {
  let writes = false
  const stmt = (s: Stmt): void => {
    switch (s.kind) {
      case 'let': if (s.init !== null) callsIn(s.init, calls); break
      case 'assign': if (targetIsStorage(s.target)) writes = true; callsIn(s.target, calls); callsIn(s.value, calls); break
      case 'if': callsIn(s.cond, calls); writes = scan(s.then, calls) || writes; if (s.else !== null) writes = scan(s.else, calls) || writes; break
      case 'while': callsIn(s.cond, calls); writes = scan(s.body, calls) || writes; break
      case 'for': callsIn(s.from, calls); callsIn(s.to, calls); writes = scan(s.body, calls) || writes; break
      case 'return': if (s.value !== null) callsIn(s.value, calls); break
      case 'emit': writes = true; for (const a of s.args) callsIn(a, calls); break
      case 'expr': callsIn(s.expr, calls); break
      default: break
    }
  }
  for (const s of block.statements) stmt(s)
  return writes
}

/** function name -> whether calling it can change state (transitively) */
export function stateEffects (checked: CheckedContract): Map<string, boolean> {
  const direct = new Map<string, { writes: boolean; calls: Set<string> }>()
  for (const [name, info] of checked.functions) {
    const calls = new Set<string>()
    const writes = scan(info.decl.body, calls)
    direct.set(name, { writes: writes || [...calls].some((c) => EFFECT_BUILTINS.has(c)), calls })
  }
  const result = new Map<string, boolean>()
  const visit = (name: string, seen: Set<string>): boolean => {
    const known = result.get(name)
    if (known !== undefined) return known
    const d = direct.get(name)
    if (d === undefined || seen.has(name)) return false
    seen.add(name)
    const writes = d.writes || [...d.calls].some((c) => direct.has(c) && visit(c, seen))
    seen.delete(name)
    return writes
  }
  for (const name of direct.keys()) result.set(name, visit(name, new Set()))
  return result
}
