// Names, types and the rules a contract must follow before code is generated: every name
// resolves, every expression has a type and uses it legally, functions return on every
// path, storage slots do not collide. Annotates the tree in place (Expr.type,
// name bindings, local slots) and returns the layout the code generator and ABI need.
import { CompileError } from './errors.ts'
import type { SourcePos } from './errors.ts'
import { sameType, typeText } from './ast.ts'
import type { Block, ContractNode, EventDecl, Expr, FunctionDecl, StorageDecl, Stmt, TypeNode, ValueTypeName } from './ast.ts'
import { BUILTINS } from './builtins.ts'
import { CompileDeadline } from './limits.ts'

export interface FunctionInfo {
  decl: FunctionDecl
  /** 1-byte selector of a public function (source order from 1), else null */
  selector: number | null
  /** words of memory the function's frame needs (parameters, then locals) */
  frameWords: number
}

export interface CheckedContract {
  contract: ContractNode
  storage: Array<{ decl: StorageDecl; slot: bigint }>
  functions: Map<string, FunctionInfo>
  events: Map<string, EventDecl>
}

const UINT: TypeNode = { kind: 'uint' }
const BOOL: TypeNode = { kind: 'bool' }
const MAX_PUBLIC = 255
const FUNCTION = 'a function'
const MAX_INDEXED = 3
const SLOT_LIMIT = (1n << 256n) - 1n

const fail = (message: string, pos: SourcePos): never => { throw new CompileError(message, pos) }
const isValue = (t: TypeNode, kind: ValueTypeName): boolean => t.kind === kind

interface Scope { names: Map<string, number>; parent: Scope | null }

class FunctionChecker {
  readonly #checked: CheckedContract
  readonly #globals: Map<string, string>
  readonly #fn: FunctionDecl
  readonly #deadline: CompileDeadline
  #scope: Scope = { names: new Map(), parent: null }
  #slots = 0
  #loops = 0

  constructor (checked: CheckedContract, globals: Map<string, string>, fn: FunctionDecl, deadline: CompileDeadline) {
    this.#checked = checked
    this.#globals = globals
    this.#fn = fn
    this.#deadline = deadline
  }

  run (): number {
    for (const p of this.#fn.params) this.#declare(p.name, p.type, p.pos)
    this.#block(this.#fn.body, false)
    if (this.#fn.returns !== null && !alwaysReturns(this.#fn.body)) {
      fail(`function '${this.#fn.name}' must return a ${typeText(this.#fn.returns)} on every path`, this.#fn.pos)
    }
    return this.#slots
  }

  readonly #localTypes: TypeNode[] = []

  #declare (name: string, type: TypeNode, pos: SourcePos): number {
    if (type.kind === 'map') fail(`'${name}': maps exist only in storage`, pos)
    // functions are only reached by call syntax, so a local may share a function's name
    const global = this.#globals.get(name)
    if (global !== undefined && global !== FUNCTION) fail(`'${name}' is already ${global}`, pos)
    if (BUILTINS.has(name)) fail(`'${name}' is a builtin function`, pos)
    for (let s: Scope | null = this.#scope; s !== null; s = s.parent) {
      if (s.names.has(name)) fail(`'${name}' is already declared in this function`, pos)
    }
    const slot = this.#slots++
    this.#scope.names.set(name, slot)
    this.#localTypes[slot] = type
    return slot
  }

  #lookupLocal (name: string): number | undefined {
    for (let s: Scope | null = this.#scope; s !== null; s = s.parent) {
      const slot = s.names.get(name)
      if (slot !== undefined) return slot
    }
    return undefined
  }

  #block (block: Block, newScope = true): void {
    if (newScope) this.#scope = { names: new Map(), parent: this.#scope }
    for (const stmt of block.statements) this.#statement(stmt)
    if (newScope) this.#scope = this.#scope.parent as Scope
  }

  #statement (stmt: Stmt): void {
    this.#deadline.check(stmt.pos)
    switch (stmt.kind) {
      case 'let': {
        if (stmt.type?.kind === 'map') fail(`'${stmt.name}': maps exist only in storage`, stmt.pos)
        let type = stmt.type
        if (stmt.init !== null) {
          const initType = this.#value(stmt.init)
          if (type !== null) this.#expectType(stmt.init, initType, type)
          type = initType
        }
        if (type === null) fail(`'${stmt.name}' needs a type or an initial value`, stmt.pos)
        stmt.slot = this.#declare(stmt.name, type as TypeNode, stmt.pos)
        return
      }
      case 'assign': {
        const targetType = this.#assignable(stmt.target)
        const valueType = this.#value(stmt.value)
        if (stmt.op === '=') this.#expectType(stmt.value, valueType, targetType)
        else {
          if (!isValue(targetType, 'uint')) fail(`'${stmt.op}' needs a uint target, not ${typeText(targetType)}`, stmt.pos)
          this.#expectType(stmt.value, valueType, UINT)
        }
        return
      }
      case 'if':
        this.#condition(stmt.cond)
        this.#block(stmt.then)
        if (stmt.else !== null) this.#block(stmt.else)
        return
      case 'while':
        this.#condition(stmt.cond)
        this.#loop(stmt.body)
        return
      case 'for': {
        this.#expectType(stmt.from, this.#value(stmt.from), UINT)
        this.#expectType(stmt.to, this.#value(stmt.to), UINT)
        this.#scope = { names: new Map(), parent: this.#scope }
        stmt.slot = this.#declare(stmt.name, UINT, stmt.pos)
        stmt.endSlot = this.#slots++
        this.#loop(stmt.body)
        this.#scope = this.#scope.parent as Scope
        return
      }
      case 'return': {
        const want = this.#fn.returns
        if (stmt.value === null) {
          if (want !== null) fail(`'${this.#fn.name}' must return a ${typeText(want)}`, stmt.pos)
        } else {
          if (want === null) fail(`'${this.#fn.name}' returns nothing; remove the value or declare '-> type'`, stmt.value.pos)
          this.#expectType(stmt.value, this.#value(stmt.value), want as TypeNode)
        }
        return
      }
      case 'emit': {
        const event = this.#checked.events.get(stmt.event)
        if (event === undefined) fail(`unknown event '${stmt.event}'`, stmt.pos)
        const params = (event as EventDecl).params
        if (stmt.args.length !== params.length) fail(`event '${stmt.event}' takes ${params.length} argument${params.length === 1 ? '' : 's'}, got ${stmt.args.length}`, stmt.pos)
        stmt.args.forEach((arg, i) => this.#expectType(arg, this.#value(arg), (params[i] as { type: TypeNode }).type))
        return
      }
      case 'break':
      case 'continue':
        if (this.#loops === 0) fail(`'${stmt.kind}' outside a loop`, stmt.pos)
        return
      case 'expr':
        if (stmt.expr.kind !== 'call') fail('this expression does nothing; only calls can stand alone', stmt.pos)
        this.#expr(stmt.expr, true)
    }
  }

  #loop (body: Block): void {
    this.#loops++
    this.#block(body)
    this.#loops--
  }

  #condition (cond: Expr): void { this.#expectType(cond, this.#value(cond), BOOL) }

  #expectType (expr: Expr, got: TypeNode, want: TypeNode): void {
    if (!sameType(got, want)) fail(`expected ${typeText(want)} but found ${typeText(got)}`, expr.pos)
  }

  /** type of an expression that must produce a value */
  #value (expr: Expr): TypeNode {
    const t = this.#expr(expr, false)
    if (t === null) fail(`'${expr.kind === 'call' ? expr.callee : 'this'}' returns no value`, expr.pos)
    return t as TypeNode
  }

  #assignable (target: Expr): TypeNode {
    if (target.kind === 'name') {
      const t = this.#expr(target, false) as TypeNode
      const binding = target.binding
      if (binding?.kind === 'const') fail(`cannot assign to constant '${target.name}'`, target.pos)
      if (t.kind === 'map') fail(`cannot assign a whole map '${target.name}'; assign its entries`, target.pos)
      return t
    }
    if (target.kind === 'index') {
      const t = this.#expr(target, false) as TypeNode
      if (t.kind === 'map') fail('cannot assign a whole map; index it fully', target.pos)
      return t
    }
    return fail('the left side of an assignment must be a variable or a map entry', target.pos)
  }

  #expr (expr: Expr, statement: boolean): TypeNode | null {
    const t = this.#exprType(expr, statement)
    if (t !== null) expr.type = t
    return t
  }

  #exprType (expr: Expr, statement: boolean): TypeNode | null {
    switch (expr.kind) {
      case 'number': return UINT
      case 'bool': return BOOL
      case 'string': return fail('strings are only allowed as the message of require() or revert()', expr.pos)
      case 'name': {
        const local = this.#lookupLocal(expr.name)
        if (local !== undefined) {
          expr.binding = { kind: 'local', slot: local }
          return this.#localTypes[local] as TypeNode
        }
        const storage = this.#checked.storage.find((s) => s.decl.name === expr.name)
        if (storage !== undefined) {
          expr.binding = { kind: 'storage', decl: storage.decl, slot: storage.slot }
          return storage.decl.type
        }
        const constant = this.#checked.contract.consts.find((c) => c.name === expr.name)
        if (constant !== undefined) {
          expr.binding = { kind: 'const', value: constValue(constant.value) }
          return constant.type
        }
        return fail(`unknown identifier '${expr.name}'`, expr.pos)
      }
      case 'index': {
        const base = this.#expr(expr.base, false) as TypeNode
        if (base.kind !== 'map') fail(`only maps can be indexed, not ${typeText(base)}`, expr.pos)
        const map = base as Extract<TypeNode, { kind: 'map' }>
        if (!this.#isStorageMap(expr.base)) fail('only storage maps can be indexed', expr.pos)
        this.#expectType(expr.index, this.#value(expr.index), map.key)
        return map.value
      }
      case 'call': return this.#call(expr, statement)
      case 'unary': {
        this.#expectType(expr.operand, this.#value(expr.operand), BOOL)
        return BOOL
      }
      case 'binary': return this.#binary(expr)
      case 'cast': {
        const from = this.#value(expr.expr)
        const to = expr.to
        if (to.kind === 'map' || from.kind === 'map') fail('maps cannot be cast', expr.pos)
        const ok = from.kind === to.kind || to.kind === 'uint' || from.kind === 'uint' ||
          (from.kind === 'address' && to.kind === 'bytes32') || (from.kind === 'bytes32' && to.kind === 'address')
        if (!ok) fail(`cannot cast ${typeText(from)} to ${typeText(to)}`, expr.pos)
        return to
      }
    }
  }

  #isStorageMap (base: Expr): boolean {
    if (base.kind === 'name') return base.binding?.kind === 'storage'
    if (base.kind === 'index') return this.#isStorageMap(base.base)
    return false
  }

  #binary (expr: Extract<Expr, { kind: 'binary' }>): TypeNode {
    const left = this.#value(expr.left)
    const right = this.#value(expr.right)
    switch (expr.op) {
      case '&&': case '||':
        this.#expectType(expr.left, left, BOOL)
        this.#expectType(expr.right, right, BOOL)
        return BOOL
      case '==': case '!=':
        if (left.kind === 'map') fail('maps cannot be compared', expr.pos)
        this.#expectType(expr.right, right, left)
        return BOOL
      case '<': case '<=': case '>': case '>=':
        this.#expectType(expr.left, left, UINT)
        this.#expectType(expr.right, right, UINT)
        return BOOL
      default:
        this.#expectType(expr.left, left, UINT)
        this.#expectType(expr.right, right, UINT)
        return UINT
    }
  }

  #call (expr: Extract<Expr, { kind: 'call' }>, statement: boolean): TypeNode | null {
    const builtin = BUILTINS.get(expr.callee)
    if (builtin !== undefined) {
      if (builtin.statementOnly && !statement) fail(`${expr.callee}() can only be used as a statement`, expr.pos)
      builtin.check(expr, {
        value: (e) => this.#value(e),
        expect: (e, got, want) => this.#expectType(e, got, want),
        fail
      })
      return builtin.returns
    }
    const fn = this.#checked.functions.get(expr.callee)
    if (fn === undefined) return fail(`unknown function '${expr.callee}'`, expr.pos)
    if (fn.decl.name === 'init') fail('init() runs only at deploy and cannot be called', expr.pos)
    const params = fn.decl.params
    if (expr.args.length !== params.length) fail(`'${expr.callee}' takes ${params.length} argument${params.length === 1 ? '' : 's'}, got ${expr.args.length}`, expr.pos)
    expr.args.forEach((arg, i) => this.#expectType(arg, this.#value(arg), (params[i] as { type: TypeNode }).type))
    return fn.decl.returns
  }
}

function constValue (e: Expr): bigint {
  if (e.kind === 'number') return e.value
  if (e.kind === 'bool') return e.value ? 1n : 0n
  return fail('a constant must be a number or true/false', e.pos)
}

/** true when every path through the block ends in a return (or a revert) */
function alwaysReturns (block: Block): boolean {
  const last = block.statements[block.statements.length - 1]
  if (last === undefined) return false
  if (last.kind === 'return') return true
  if (last.kind === 'expr' && last.expr.kind === 'call' && last.expr.callee === 'revert') return true
  if (last.kind === 'if') return last.else !== null && alwaysReturns(last.then) && alwaysReturns(last.else)
  return false
}

function assignSlots (contract: ContractNode): Array<{ decl: StorageDecl; slot: bigint }> {
  const used = new Map<bigint, string>()
  let next = 0n
  return contract.storage.map((decl) => {
    const slot = decl.slot ?? next
    if (slot > SLOT_LIMIT) fail(`slot ${slot} does not fit in 256 bits`, decl.pos)
    const owner = used.get(slot)
    if (owner !== undefined) fail(`slot ${slot} is already used by '${owner}'`, decl.pos)
    used.set(slot, decl.name)
    if (slot >= next) next = slot + 1n
    return { decl, slot }
  })
}

function checkConst (c: ContractNode['consts'][number]): void {
  if (c.type.kind === 'map') fail('a constant cannot be a map', c.pos)
  const valueType = c.value.kind === 'number' ? 'uint' : c.value.kind === 'bool' ? 'bool' : null
  if (valueType === null) fail('a constant must be a number or true/false', c.value.pos)
  const fits = valueType === c.type.kind ||
    (valueType === 'uint' && (c.type.kind === 'bytes32' || (c.type.kind === 'address' && (c.value as { value: bigint }).value < 1n << 160n)))
  if (!fits) fail(`constant '${c.name}' is ${typeText(c.type)} but its value is not`, c.value.pos)
}

export function check (contract: ContractNode, deadline: CompileDeadline = new CompileDeadline()): CheckedContract {
  const globals = new Map<string, string>()
  const claim = (name: string, what: string, pos: SourcePos): void => {
    const existing = globals.get(name)
    if (existing !== undefined) fail(`'${name}' is already ${existing}`, pos)
    if (BUILTINS.has(name)) fail(`'${name}' is a builtin function`, pos)
    globals.set(name, what)
  }
  for (const s of contract.storage) claim(s.name, 'a storage variable', s.pos)
  for (const c of contract.consts) { claim(c.name, 'a constant', c.pos); checkConst(c) }
  const events = new Map<string, EventDecl>()
  for (const e of contract.events) {
    if (events.has(e.name)) fail(`event '${e.name}' is declared twice`, e.pos)
    const seen = new Set<string>()
    for (const p of e.params) {
      if (p.type.kind === 'map') fail('event parameters cannot be maps', p.pos)
      if (seen.has(p.name)) fail(`parameter '${p.name}' appears twice`, p.pos)
      seen.add(p.name)
    }
    if (e.params.filter((p) => p.indexed).length > MAX_INDEXED) fail(`an event has at most ${MAX_INDEXED} indexed parameters`, e.pos)
    events.set(e.name, e)
  }

  const functions = new Map<string, FunctionInfo>()
  let selector = 0
  for (const fn of contract.functions) {
    claim(fn.name, FUNCTION, fn.pos)
    if (fn.name === 'init') {
      if (fn.isPublic) fail('init() runs at deploy and cannot be pub', fn.pos)
      if (fn.params.length > 0 || fn.returns !== null) fail('init() takes no parameters and returns nothing (init_calldata must be empty)', fn.pos)
    }
    if (fn.returns?.kind === 'map') fail('a function cannot return a map', fn.pos)
    if (fn.isPublic && ++selector > MAX_PUBLIC) fail(`at most ${MAX_PUBLIC} public functions (selectors are one byte)`, fn.pos)
    functions.set(fn.name, { decl: fn, selector: fn.isPublic ? selector : null, frameWords: 0 })
  }

  const checked: CheckedContract = { contract, storage: assignSlots(contract), functions, events }
  for (const info of functions.values()) {
    info.frameWords = new FunctionChecker(checked, globals, info.decl, deadline).run()
  }
  return checked
}
