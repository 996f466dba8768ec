// Checked contract to bytecode. Two code units: the init code (runs init() at deploy, then
// returns the runtime code appended to it) and the runtime code (a dispatcher on the first
// calldata byte, then the public functions).
//
// Memory: word 0x00 holds the top of the frame stack; 0x20..0x5f is scratch for mapping slots
// (key ‖ slot hashed); 0x60 holds a return value; frames start at 0x80. A function's frame
// holds its parameters and locals, one word each; on entry it claims its frame above the
// current top and releases it on return, so recursion works. A local lives at
// top - (frameBytes - 32 * slot). Temporary buffers (sha3 input, event data) go above the top.
//
// Calls: the caller pushes its return label and the arguments, then jumps; the callee stores
// the arguments into its frame, and returns by jumping to the label with the result (if any)
// left on the stack. Statements leave the stack as they found it.
import type { Binding, Block, Expr, FunctionDecl, Stmt, TypeNode } from './ast.ts'
import type { CheckedContract, FunctionInfo } from './checker.ts'
import { Emitter } from './emitter.ts'
import type { Label } from './emitter.ts'
import { eventTopic } from './abi.ts'
import { CompileDeadline } from './limits.ts'

const SCRATCH_KEY = 0x20
const SCRATCH_SLOT = 0x40
const RETURN_WORD = 0x60
export const FRAMES_START = 0x80
const ADDRESS_MASK = (1n << 160n) - 1n
const utf8 = new TextEncoder()

export const MESSAGES = {
  overflow: 'arithmetic overflow',
  underflow: 'arithmetic underflow',
  divisionByZero: 'division by zero',
  unknownSelector: 'unknown selector',
  badCalldata: 'bad calldata length',
  transferFailed: 'transfer failed'
} as const

type CallExpr = Extract<Expr, { kind: 'call' }>

interface LoopTargets { breakTo: Label; continueTo: Label }

class UnitGenerator {
  readonly e = new Emitter()
  readonly #checked: CheckedContract
  readonly #messages = new Map<string, Label>()
  readonly #functionLabels = new Map<string, Label>()
  readonly #emitted = new Set<string>()
  readonly #pending: FunctionInfo[] = []
  #frameBytes = 0
  #loops: LoopTargets[] = []
  #returns: TypeNode | null = null
  readonly #deadline: CompileDeadline

  constructor (checked: CheckedContract, deadline: CompileDeadline) {
    this.#checked = checked
    this.#deadline = deadline
  }

  /** label of a revert with this message; its code is emitted by finish() */
  revertWith (message: string): Label {
    let label = this.#messages.get(message)
    if (label === undefined) {
      label = this.e.newLabel()
      this.#messages.set(message, label)
    }
    return label
  }

  functionLabel (name: string): Label {
    let label = this.#functionLabels.get(name)
    if (label === undefined) {
      label = this.e.newLabel()
      this.#functionLabels.set(name, label)
      this.#pending.push(this.#checked.functions.get(name) as FunctionInfo)
    }
    return label
  }

  /** emits every function referenced so far (and those they reference), then the reverts */
  finish (): Uint8Array {
    while (this.#pending.length > 0) {
      const info = this.#pending.shift() as FunctionInfo
      if (this.#emitted.has(info.decl.name)) continue
      this.#emitted.add(info.decl.name)
      this.#function(info)
    }
    for (const [message, label] of this.#messages) this.#revertStub(message, label)
    return this.e.assemble()
  }

  #revertStub (message: string, label: Label): void {
    const { e } = this
    e.mark(label)
    const bytes = utf8.encode(message)
    for (let offset = 0; offset < bytes.length; offset += 32) {
      const chunk = new Uint8Array(32)
      chunk.set(bytes.subarray(offset, offset + 32))
      e.push(BigInt('0x' + Buffer.from(chunk).toString('hex')))
      e.push(offset)
      e.op('MSTORE')
    }
    e.push(bytes.length)
    e.push(0)
    e.op('REVERT')
  }

  // ---- functions ----

  #function (info: FunctionInfo): void {
    const { e } = this
    const fn = info.decl
    this.#frameBytes = info.frameWords * 32
    this.#returns = fn.returns
    this.#loops = []
    e.mark(this.functionLabel(fn.name))
    if (this.#frameBytes > 0) {
      // stack: ret, a1..an
      e.push(0); e.op('MLOAD')
      e.op('DUP1'); e.push(this.#frameBytes); e.op('ADD'); e.push(0); e.op('MSTORE')
      for (let i = fn.params.length - 1; i >= 0; i--) {
        e.ops('SWAP1', 'DUP2')
        e.push(32 * i)
        e.ops('ADD', 'MSTORE')
      }
      e.op('POP')
    }
    this.#block(fn.body)
    if (fn.returns === null) this.#epilogue(false)
  }

  /** stack: ret [value] */
  #epilogue (withValue: boolean): void {
    const { e } = this
    if (this.#frameBytes > 0) {
      e.push(this.#frameBytes); e.push(0); e.ops('MLOAD', 'SUB'); e.push(0); e.op('MSTORE')
    }
    if (withValue) e.op('SWAP1')
    e.op('JUMP')
  }

  #localAddress (slot: number): void {
    this.e.push(this.#frameBytes - 32 * slot)
    this.e.push(0)
    this.e.ops('MLOAD', 'SUB')
  }

  #loadLocal (slot: number): void { this.#localAddress(slot); this.e.op('MLOAD') }
  #storeLocal (slot: number): void { this.#localAddress(slot); this.e.op('MSTORE') }

  // ---- statements ----

  #block (block: Block): void { for (const s of block.statements) this.#statement(s) }

  #statement (stmt: Stmt): void {
    this.#deadline.check(stmt.pos)
    const { e } = this
    switch (stmt.kind) {
      case 'let':
        if (stmt.init !== null) this.#expr(stmt.init)
        else e.push(0)
        this.#storeLocal(stmt.slot as number)
        return
      case 'assign': return this.#assign(stmt)
      case 'if': {
        const otherwise = e.newLabel()
        this.#expr(stmt.cond)
        e.op('ISZERO')
        e.jumpIf(otherwise)
        this.#block(stmt.then)
        if (stmt.else === null) { e.mark(otherwise); return }
        const end = e.newLabel()
        e.jump(end)
        e.mark(otherwise)
        this.#block(stmt.else)
        e.mark(end)
        return
      }
      case 'while': {
        const top = e.newLabel()
        const end = e.newLabel()
        e.mark(top)
        this.#expr(stmt.cond)
        e.op('ISZERO')
        e.jumpIf(end)
        this.#loopBody(stmt.body, { breakTo: end, continueTo: top })
        e.jump(top)
        e.mark(end)
        return
      }
      case 'for': {
        const top = e.newLabel()
        const next = e.newLabel()
        const end = e.newLabel()
        const slot = stmt.slot as number
        const endSlot = stmt.endSlot as number
        this.#expr(stmt.from)
        this.#storeLocal(slot)
        this.#expr(stmt.to)
        this.#storeLocal(endSlot)
        e.mark(top)
        this.#loadLocal(slot)
        this.#loadLocal(endSlot)
        e.ops('GT', 'ISZERO') // !(end > i)
        e.jumpIf(end)
        this.#loopBody(stmt.body, { breakTo: end, continueTo: next })
        e.mark(next)
        // i < end <= 2^256-1 here, so i + 1 cannot wrap
        this.#loadLocal(slot)
        e.push(1)
        e.op('ADD')
        this.#storeLocal(slot)
        e.jump(top)
        e.mark(end)
        return
      }
      case 'return':
        if (stmt.value !== null) this.#expr(stmt.value)
        this.#epilogue(stmt.value !== null)
        return
      case 'emit': return this.#emit(stmt)
      case 'break': e.jump((this.#loops[this.#loops.length - 1] as LoopTargets).breakTo); return
      case 'continue': e.jump((this.#loops[this.#loops.length - 1] as LoopTargets).continueTo); return
      case 'expr':
        this.#expr(stmt.expr)
        if (stmt.expr.type !== undefined) e.op('POP')
    }
  }

  #loopBody (body: Block, targets: LoopTargets): void {
    this.#loops.push(targets)
    this.#block(body)
    this.#loops.pop()
  }

  #assign (stmt: Extract<Stmt, { kind: 'assign' }>): void {
    const { e } = this
    const target = stmt.target
    const local = target.kind === 'name' && target.binding?.kind === 'local' ? target.binding.slot : null
    if (stmt.op === '=') {
      this.#expr(stmt.value)
      if (local !== null) this.#storeLocal(local)
      else { this.#storageSlot(target); e.op('SSTORE') }
      return
    }
    const arith = stmt.op.slice(0, -1) as '+' | '-' | '*' | '/' | '%' | '<<' | '>>'
    if (local !== null) {
      this.#loadLocal(local)
      this.#expr(stmt.value)
      this.#arithmetic(arith)
      this.#storeLocal(local)
      return
    }
    this.#storageSlot(target)
    e.ops('DUP1', 'SLOAD')
    this.#expr(stmt.value)
    this.#arithmetic(arith)
    e.ops('SWAP1', 'SSTORE')
  }

  #emit (stmt: Extract<Stmt, { kind: 'emit' }>): void {
    const { e } = this
    const event = this.#checked.events.get(stmt.event) as NonNullable<ReturnType<CheckedContract['events']['get']>>
    const plain = event.params.filter((p) => !p.indexed)
    const indexed = event.params.filter((p) => p.indexed)
    // arguments first (they may call functions, which use the memory above the top), then
    // into the buffer: data words first, indexed values after them
    for (const arg of stmt.args) this.#expr(arg)
    for (let i = event.params.length - 1; i >= 0; i--) {
      const p = event.params[i] as (typeof event.params)[number]
      const position = p.indexed ? plain.length + indexed.indexOf(p) : plain.indexOf(p)
      e.push(0); e.op('MLOAD'); e.push(32 * position); e.ops('ADD', 'MSTORE')
    }
    for (let j = indexed.length - 1; j >= 0; j--) {
      e.push(0); e.op('MLOAD'); e.push(32 * (plain.length + j)); e.ops('ADD', 'MLOAD')
    }
    e.push(BigInt('0x' + eventTopic(event)))
    e.push(32 * plain.length)
    e.push(0)
    e.op('MLOAD')
    e.op(`LOG${1 + indexed.length}`)
  }

  // ---- expressions ----

  #expr (expr: Expr): void {
    const { e } = this
    switch (expr.kind) {
      case 'number': e.push(expr.value); return
      case 'bool': e.push(expr.value ? 1 : 0); return
      case 'string': throw new Error('string outside require/revert passed the checker')
      case 'name': return this.#loadName(expr.binding as Binding)
      case 'index': this.#storageSlot(expr); e.op('SLOAD'); return
      case 'call': return this.#call(expr)
      case 'unary': this.#expr(expr.operand); e.op('ISZERO'); return
      case 'cast': return this.#cast(expr)
      case 'binary': {
        if (expr.op === '&&' || expr.op === '||') {
          const end = e.newLabel()
          this.#expr(expr.left)
          e.op('DUP1')
          if (expr.op === '&&') e.op('ISZERO')
          e.jumpIf(end)
          e.op('POP')
          this.#expr(expr.right)
          e.mark(end)
          return
        }
        this.#expr(expr.left)
        this.#expr(expr.right)
        this.#binary(expr.op)
      }
    }
  }

  #loadName (binding: Binding): void {
    const { e } = this
    if (binding.kind === 'local') this.#loadLocal(binding.slot)
    else if (binding.kind === 'const') e.push(binding.value)
    else { e.push(binding.slot); e.op('SLOAD') }
  }

  /** pushes the storage slot of a storage variable or map entry */
  #storageSlot (target: Expr): void {
    const { e } = this
    if (target.kind === 'name') {
      const binding = target.binding as Binding
      if (binding.kind !== 'storage') throw new Error('storage slot of a non-storage name')
      e.push(binding.slot)
      return
    }
    if (target.kind !== 'index') throw new Error('storage slot of a non-storage expression')
    this.#storageSlot(target.base)
    this.#expr(target.index)
    e.push(SCRATCH_KEY); e.op('MSTORE')
    e.push(SCRATCH_SLOT); e.op('MSTORE')
    e.push(64); e.push(SCRATCH_KEY); e.op('SHA3')
  }

  /** stack: left right -> result */
  #binary (op: Exclude<Extract<Expr, { kind: 'binary' }>['op'], '&&' | '||'>): void {
    const { e } = this
    switch (op) {
      case '+': case '-': case '*': case '/': case '%': case '<<': case '>>': return this.#arithmetic(op)
      case '&': e.op('AND'); return
      case '|': e.op('OR'); return
      case '^': e.op('XOR'); return
      case '<': e.op('GT'); return // right > left
      case '>': e.op('LT'); return // right < left
      case '<=': e.ops('LT', 'ISZERO')
        return
      case '>=': e.ops('GT', 'ISZERO')
        return
      case '==': e.op('EQ'); return
      case '!=': e.ops('EQ', 'ISZERO')
    }
  }

  /** checked uint arithmetic; stack: left right -> result */
  #arithmetic (op: '+' | '-' | '*' | '/' | '%' | '<<' | '>>'): void {
    const { e } = this
    switch (op) {
      case '+':
        // r = a + b wrapped iff r < a
        e.ops('DUP2', 'ADD', 'SWAP1', 'DUP2', 'LT')
        e.jumpIf(this.revertWith(MESSAGES.overflow))
        return
      case '-':
        e.ops('DUP1', 'DUP3', 'LT') // a < b
        e.jumpIf(this.revertWith(MESSAGES.underflow))
        e.ops('SWAP1', 'SUB')
        return
      case '*': {
        // r = a * b; fine iff a == 0 or r / a == b
        const ok = e.newLabel()
        e.ops('DUP2', 'DUP2', 'MUL') // a b r
        e.op('DUP3'); e.op('ISZERO'); e.jumpIf(ok)
        e.ops('DUP3', 'DUP2', 'DIV', 'DUP3', 'EQ', 'ISZERO')
        e.jumpIf(this.revertWith(MESSAGES.overflow))
        e.mark(ok)
        e.ops('SWAP2', 'POP', 'POP')
        return
      }
      case '/': case '%':
        e.ops('DUP1', 'ISZERO')
        e.jumpIf(this.revertWith(MESSAGES.divisionByZero))
        e.ops('SWAP1', op === '/' ? 'DIV' : 'MOD')
        return
      case '<<': e.op('SHL'); return // SHL(shift = top, value)
      case '>>': e.op('SHR')
    }
  }

  #cast (expr: Extract<Expr, { kind: 'cast' }>): void {
    const { e } = this
    this.#expr(expr.expr)
    const from = (expr.expr.type as TypeNode).kind
    const to = expr.to.kind
    if (from === to) return
    if (to === 'address') { e.push(ADDRESS_MASK); e.op('AND') } else if (to === 'bool') e.ops('ISZERO', 'ISZERO')
  }

  #call (expr: CallExpr): void {
    const { e } = this
    switch (expr.callee) {
      case 'caller': e.op('CALLER'); return
      case 'value': e.op('CALLVALUE'); return
      case 'self': e.op('ADDRESS'); return
      case 'block_height': e.op('BLOCKHEIGHT'); return
      case 'timestamp': e.op('TIMESTAMP'); return
      case 'miner': e.op('MINER'); return
      case 'gas_left': e.op('GAS'); return
      case 'balance': this.#expr(expr.args[0] as Expr); e.op('BALANCE'); return
      case 'sha3': {
        const n = expr.args.length
        for (const arg of expr.args) this.#expr(arg)
        for (let i = n - 1; i >= 0; i--) { e.push(0); e.op('MLOAD'); e.push(32 * i); e.ops('ADD', 'MSTORE') }
        e.push(32 * n); e.push(0); e.ops('MLOAD', 'SHA3')
        return
      }
      case 'transfer':
        this.#expr(expr.args[0] as Expr)
        this.#expr(expr.args[1] as Expr)
        // CALL(gas, to, value = amount, in 0/0, out 0/0)
        e.push(0); e.push(0); e.push(0); e.push(0)
        e.ops('DUP5', 'DUP7', 'GAS', 'CALL', 'ISZERO')
        e.jumpIf(this.revertWith(MESSAGES.transferFailed))
        e.ops('POP', 'POP')
        return
      case 'require': {
        const message = expr.args[1]
        this.#expr(expr.args[0] as Expr)
        e.op('ISZERO')
        e.jumpIf(this.revertWith(message?.kind === 'string' ? message.value : ''))
        return
      }
      case 'revert': {
        const message = expr.args[0]
        e.jump(this.revertWith(message?.kind === 'string' ? message.value : ''))
        return
      }
    }
    const ret = e.newLabel()
    e.pushLabel(ret)
    for (const arg of expr.args) this.#expr(arg)
    e.jump(this.functionLabel(expr.callee))
    e.mark(ret)
  }

  // ---- entry points ----

  /** the runtime dispatcher: selector = first calldata byte */
  dispatcher (): void {
    const { e } = this
    e.push(FRAMES_START); e.push(0); e.op('MSTORE')
    e.push(0); e.op('CALLDATALOAD'); e.push(0xf8); e.op('SHR')
    const stubs: Array<{ info: FunctionInfo; label: Label }> = []
    for (const info of this.#checked.functions.values()) {
      if (info.selector === null) continue
      const label = e.newLabel()
      stubs.push({ info, label })
      e.op('DUP1'); e.push(info.selector); e.op('EQ'); e.jumpIf(label)
    }
    e.jump(this.revertWith(MESSAGES.unknownSelector))
    for (const { info, label } of stubs) this.#stub(info.decl, label)
  }

  #stub (fn: FunctionDecl, label: Label): void {
    const { e } = this
    e.mark(label)
    e.op('POP')
    e.op('CALLDATASIZE'); e.push(1 + 32 * fn.params.length); e.ops('EQ', 'ISZERO')
    e.jumpIf(this.revertWith(MESSAGES.badCalldata))
    const ret = e.newLabel()
    e.pushLabel(ret)
    fn.params.forEach((p, i) => {
      e.push(1 + 32 * i)
      e.op('CALLDATALOAD')
      // a bool must be 0 or 1, an address must fit 160 bits
      const limit = p.type.kind === 'bool' ? 1n : p.type.kind === 'address' ? ADDRESS_MASK : null
      if (limit !== null) {
        e.op('DUP1'); e.push(limit); e.op('LT')
        e.jumpIf(this.revertWith(`bad argument '${p.name}'`))
      }
    })
    e.jump(this.functionLabel(fn.name))
    e.mark(ret)
    if (fn.returns === null) { e.op('STOP'); return }
    e.push(RETURN_WORD); e.op('MSTORE')
    e.push(32); e.push(RETURN_WORD); e.op('RETURN')
  }

  /** the init code's entry: run init(), then return the runtime code appended after this unit */
  deployer (runtimeLength: number): void {
    const { e } = this
    e.push(FRAMES_START); e.push(0); e.op('MSTORE')
    if (this.#checked.functions.has('init')) {
      const ret = e.newLabel()
      e.pushLabel(ret)
      e.jump(this.functionLabel('init'))
      e.mark(ret)
    }
    // CODECOPY(dest 0, offset = end of this unit, length); RETURN(0, length)
    e.push(runtimeLength); e.pushEnd(); e.push(0); e.op('CODECOPY')
    e.push(runtimeLength); e.push(0); e.op('RETURN')
  }
}

export interface GeneratedCode {
  /** what a deploy carries: init code followed by the runtime code */
  deployCode: Uint8Array
  runtimeCode: Uint8Array
}

export function generate (checked: CheckedContract, deadline: CompileDeadline = new CompileDeadline()): GeneratedCode {
  const runtime = new UnitGenerator(checked, deadline)
  runtime.dispatcher()
  const runtimeCode = runtime.finish()
  const init = new UnitGenerator(checked, deadline)
  init.deployer(runtimeCode.length)
  const initCode = init.finish()
  const deployCode = new Uint8Array(initCode.length + runtimeCode.length)
  deployCode.set(initCode)
  deployCode.set(runtimeCode, initCode.length)
  return { deployCode, runtimeCode }
}
