// Tokens to a syntax tree, by recursive descent. Operator precedence follows Rust, from
// loosest: || && (comparisons) | ^ & (<< >>) (+ -) (* / %) as, then unary !, then calls and
// indexing. Comparisons do not chain.
import { CompileError } from './errors.ts'
import type { SourcePos } from './errors.ts'
import { tokenize } from './lexer.ts'
import { COMPILE_LIMITS, CompileDeadline } from './limits.ts'
import type { Token } from './lexer.ts'
import type {
  AssignOp, BinaryOp, Block, ConstDecl, ContractNode, EventDecl, EventParam, Expr, FunctionDecl, Param,
  StorageDecl, Stmt, TypeNode, ValueTypeName
} from './ast.ts'

const VALUE_TYPES = new Set<string>(['uint', 'bool', 'address', 'bytes32'])
const ASSIGN_OPS = new Set<string>(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>='])

/** binary operators by precedence level, loosest first */
const LEVELS: BinaryOp[][] = [
  ['||'],
  ['&&'],
  ['==', '!=', '<', '<=', '>', '>='],
  ['|'],
  ['^'],
  ['&'],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%']
]

function childrenOf (e: Expr): Expr[] {
  switch (e.kind) {
    case 'binary': return [e.left, e.right]
    case 'unary': return [e.operand]
    case 'index': return [e.base, e.index]
    case 'cast': return [e.expr]
    case 'call': return e.args
    default: return []
  }
}

class Parser {
  readonly #tokens: Token[]
  readonly #deadline: CompileDeadline
  #at = 0
  /** how many nested constructs enclose the current token (see COMPILE_LIMITS.nesting) */
  #nesting = 0

  constructor (tokens: Token[], deadline: CompileDeadline) {
    this.#tokens = tokens
    this.#deadline = deadline
  }

  /** Runs one nested construct; the descent is recursive, so its depth is bounded here. */
  #nested<T> (parse: () => T): T {
    if (++this.#nesting > COMPILE_LIMITS.nesting) this.#fail(`nesting deeper than ${COMPILE_LIMITS.nesting} levels`)
    try {
      return parse()
    } finally {
      this.#nesting--
    }
  }

  /** Records a new expression node's height. Loops build left-deep chains (`1 + 1 + ...`,
   *  `x[1][1]...`) without recursing here, but the checker and generator recurse over them. */
  #track (node: Expr): Expr {
    let below = 0
    for (const child of childrenOf(node)) below = Math.max(below, this.#heights.get(child) ?? 1)
    if (below + 1 > COMPILE_LIMITS.expressionDepth) this.#fail(`expression nested deeper than ${COMPILE_LIMITS.expressionDepth} levels`, node.pos)
    this.#heights.set(node, below + 1)
    return node
  }

  readonly #heights = new WeakMap<Expr, number>()

  get #peek (): Token { return this.#tokens[this.#at] as Token }
  #next (): Token { return this.#tokens[this.#at++] as Token }
  #is (text: string): boolean {
    const t = this.#peek
    return (t.kind === 'punct' || t.kind === 'keyword') && t.text === text
  }

  #fail (message: string, pos: SourcePos = this.#peek.pos): never { throw new CompileError(message, pos) }

  #describe (t: Token): string {
    if (t.kind === 'eof') return 'end of file'
    if (t.kind === 'string') return 'a string'
    return `'${t.text}'`
  }

  #expect (text: string): Token {
    if (!this.#is(text)) this.#fail(`expected '${text}' but found ${this.#describe(this.#peek)}`)
    return this.#next()
  }

  #accept (text: string): boolean {
    if (!this.#is(text)) return false
    this.#at++
    return true
  }

  #ident (what: string): Token {
    const t = this.#peek
    if (t.kind !== 'ident') this.#fail(`expected ${what} but found ${this.#describe(t)}`)
    return this.#next()
  }

  parseContract (): ContractNode {
    const start = this.#expect('contract').pos
    const name = this.#ident('a contract name').text
    this.#expect('{')
    const contract: ContractNode = { name, storage: [], consts: [], events: [], functions: [], pos: start }
    while (!this.#is('}')) {
      if (this.#peek.kind === 'eof') this.#fail("expected '}' to close the contract")
      if (this.#is('storage')) contract.storage.push(this.#storage())
      else if (this.#is('const')) contract.consts.push(this.#const())
      else if (this.#is('event')) contract.events.push(this.#event())
      else if (this.#is('fn') || this.#is('pub')) contract.functions.push(this.#function())
      else this.#fail(`expected storage, const, event or fn but found ${this.#describe(this.#peek)}`)
    }
    this.#expect('}')
    if (this.#peek.kind !== 'eof') this.#fail(`unexpected ${this.#describe(this.#peek)} after the contract`)
    return contract
  }

  #type (): TypeNode {
    const t = this.#peek
    if (t.kind === 'keyword' && t.text === 'map') {
      return this.#nested(() => {
        this.#next()
        this.#expect('<')
        const key = this.#type()
        this.#expect(',')
        const value = this.#type()
        this.#closeAngle()
        return { kind: 'map', key, value }
      })
    }
    if (t.kind !== 'ident' || !VALUE_TYPES.has(t.text)) this.#fail(`expected a type (uint, bool, address, bytes32 or map<K, V>) but found ${this.#describe(t)}`)
    this.#next()
    return { kind: t.text as ValueTypeName }
  }

  /** '>' closing a map type; splits the '>>' that closes two at once */
  #closeAngle (): void {
    const t = this.#peek
    if (t.kind === 'punct' && t.text === '>>') {
      this.#tokens[this.#at] = { ...t, text: '>', pos: { line: t.pos.line, column: t.pos.column + 1 } }
      return
    }
    this.#expect('>')
  }

  #storage (): StorageDecl {
    const pos = this.#expect('storage').pos
    const name = this.#ident('a storage variable name').text
    this.#expect(':')
    const type = this.#type()
    let slot: bigint | null = null
    if (this.#accept('@')) {
      const t = this.#peek
      if (t.kind !== 'number') this.#fail(`expected a slot number after '@' but found ${this.#describe(t)}`)
      slot = this.#next().value as bigint
    }
    this.#expect(';')
    return { name, type, slot, pos }
  }

  #const (): ConstDecl {
    const pos = this.#expect('const').pos
    const name = this.#ident('a constant name').text
    this.#expect(':')
    const type = this.#type()
    this.#expect('=')
    const value = this.#expression()
    this.#expect(';')
    return { name, type, value, pos }
  }

  #event (): EventDecl {
    const pos = this.#expect('event').pos
    const name = this.#ident('an event name').text
    this.#expect('(')
    const params: EventParam[] = []
    while (!this.#is(')')) {
      const p = this.#ident('a parameter name')
      this.#expect(':')
      const type = this.#type()
      const indexed = this.#accept('indexed')
      params.push({ name: p.text, type, indexed, pos: p.pos })
      if (!this.#is(')')) this.#expect(',')
    }
    this.#expect(')')
    this.#expect(';')
    return { name, params, pos }
  }

  #function (): FunctionDecl {
    const pos = this.#peek.pos
    const isPublic = this.#accept('pub')
    this.#expect('fn')
    const name = this.#ident('a function name').text
    this.#expect('(')
    const params: Param[] = []
    while (!this.#is(')')) {
      const p = this.#ident('a parameter name')
      this.#expect(':')
      params.push({ name: p.text, type: this.#type(), pos: p.pos })
      if (!this.#is(')')) this.#expect(',')
    }
    this.#expect(')')
    const returns = this.#accept('->') ? this.#type() : null
    return { name, isPublic, params, returns, body: this.#block(), pos }
  }

  #block (): Block { return this.#nested(() => this.#blockBody()) }

  #blockBody (): Block {
    const pos = this.#expect('{').pos
    const statements: Stmt[] = []
    while (!this.#is('}')) {
      if (this.#peek.kind === 'eof') this.#fail("expected '}' to close the block")
      statements.push(this.#statement())
    }
    this.#expect('}')
    return { statements, pos }
  }

  #statement (): Stmt {
    const pos = this.#peek.pos
    this.#deadline.check(pos)
    if (this.#accept('let')) {
      const name = this.#ident('a variable name').text
      const type = this.#accept(':') ? this.#type() : null
      const init = this.#accept('=') ? this.#expression() : null
      this.#expect(';')
      return { kind: 'let', name, type, init, pos }
    }
    if (this.#accept('if')) return this.#ifRest(pos)
    if (this.#accept('while')) {
      const cond = this.#expression()
      return { kind: 'while', cond, body: this.#block(), pos }
    }
    if (this.#accept('for')) {
      const name = this.#ident('a loop variable name').text
      this.#expect('in')
      const from = this.#expression()
      this.#expect('..')
      const to = this.#expression()
      return { kind: 'for', name, from, to, body: this.#block(), pos }
    }
    if (this.#accept('return')) {
      const value = this.#is(';') ? null : this.#expression()
      this.#expect(';')
      return { kind: 'return', value, pos }
    }
    if (this.#accept('emit')) {
      const event = this.#ident('an event name').text
      const args = this.#arguments()
      this.#expect(';')
      return { kind: 'emit', event, args, pos }
    }
    if (this.#accept('break')) { this.#expect(';'); return { kind: 'break', pos } }
    if (this.#accept('continue')) { this.#expect(';'); return { kind: 'continue', pos } }
    const expr = this.#expression()
    const t = this.#peek
    if (t.kind === 'punct' && ASSIGN_OPS.has(t.text)) {
      this.#next()
      const value = this.#expression()
      this.#expect(';')
      return { kind: 'assign', target: expr, op: t.text as AssignOp, value, pos }
    }
    this.#expect(';')
    return { kind: 'expr', expr, pos }
  }

  #ifRest (pos: SourcePos): Stmt {
    const cond = this.#expression()
    const then = this.#block()
    let otherwise: Block | null = null
    if (this.#accept('else')) {
      const elsePos = this.#peek.pos
      otherwise = this.#accept('if') ? { statements: [this.#ifRest(elsePos)], pos: elsePos } : this.#block()
    }
    return { kind: 'if', cond, then, else: otherwise, pos }
  }

  #arguments (): Expr[] {
    this.#expect('(')
    const args: Expr[] = []
    while (!this.#is(')')) {
      args.push(this.#expression())
      if (!this.#is(')')) this.#expect(',')
    }
    this.#expect(')')
    return args
  }

  #expression (): Expr { return this.#nested(() => this.#level(0)) }

  #level (level: number): Expr {
    if (level >= LEVELS.length) return this.#cast()
    this.#deadline.check(this.#peek.pos)
    const ops = LEVELS[level] as BinaryOp[]
    let left = this.#level(level + 1)
    const comparison = level === 2
    while (this.#peek.kind === 'punct' && (ops as string[]).includes(this.#peek.text)) {
      const opToken = this.#next()
      const right = this.#level(level + 1)
      left = this.#track({ kind: 'binary', op: opToken.text as BinaryOp, left, right, pos: opToken.pos })
      if (comparison && this.#peek.kind === 'punct' && (ops as string[]).includes(this.#peek.text)) {
        this.#fail('comparisons cannot be chained; use && between them')
      }
    }
    return left
  }

  #cast (): Expr {
    let expr = this.#unary()
    while (this.#is('as')) {
      const pos = this.#next().pos
      expr = this.#track({ kind: 'cast', expr, to: this.#type(), pos })
    }
    return expr
  }

  #unary (): Expr {
    if (this.#is('!')) {
      const pos = this.#next().pos
      return this.#nested(() => this.#track({ kind: 'unary', op: '!', operand: this.#unary(), pos }))
    }
    if (this.#is('-')) this.#fail('there are no negative numbers: uint is unsigned')
    return this.#postfix()
  }

  #postfix (): Expr {
    let expr = this.#primary()
    while (this.#is('[')) {
      const pos = this.#next().pos
      const index = this.#expression()
      this.#expect(']')
      expr = this.#track({ kind: 'index', base: expr, index, pos })
    }
    return expr
  }

  #primary (): Expr {
    const t = this.#peek
    if (t.kind === 'number') { this.#next(); return { kind: 'number', value: t.value as bigint, pos: t.pos } }
    if (t.kind === 'string') { this.#next(); return { kind: 'string', value: t.text, pos: t.pos } }
    if (t.kind === 'keyword' && (t.text === 'true' || t.text === 'false')) {
      this.#next()
      return { kind: 'bool', value: t.text === 'true', pos: t.pos }
    }
    if (t.kind === 'ident') {
      this.#next()
      if (this.#is('(')) return this.#track({ kind: 'call', callee: t.text, args: this.#arguments(), pos: t.pos })
      return { kind: 'name', name: t.text, pos: t.pos }
    }
    if (this.#accept('(')) {
      const expr = this.#expression()
      this.#expect(')')
      return expr
    }
    return this.#fail(`expected an expression but found ${this.#describe(t)}`)
  }
}

export function parse (source: string, deadline: CompileDeadline = new CompileDeadline()): ContractNode {
  return new Parser(tokenize(source), deadline).parseContract()
}
