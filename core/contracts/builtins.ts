// The builtin functions of the language: their signatures and checks. The code generator
// (codegen-builtins.ts) emits their instructions; docs/contracts.md lists them.
import type { SourcePos } from './errors.ts'
import type { Expr, TypeNode } from './ast.ts'

export interface BuiltinCheck {
  value(e: Expr): TypeNode
  expect(e: Expr, got: TypeNode, want: TypeNode): void
  fail(message: string, pos: SourcePos): never
}

export interface Builtin {
  returns: TypeNode | null
  /** usable only as a statement (it returns nothing) */
  statementOnly: boolean
  check(call: Extract<Expr, { kind: 'call' }>, ctx: BuiltinCheck): void
  /** signature as the docs show it */
  signature: string
}

const UINT: TypeNode = { kind: 'uint' }
const BOOL: TypeNode = { kind: 'bool' }
const ADDRESS: TypeNode = { kind: 'address' }
const BYTES32: TypeNode = { kind: 'bytes32' }
/** longest revert message: it is pushed 32 bytes at a time */
export const MAX_MESSAGE_BYTES = 256

type CallExpr = Extract<Expr, { kind: 'call' }>

function arity (call: CallExpr, ctx: BuiltinCheck, min: number, max: number): void {
  const n = call.args.length
  if (n < min || n > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`
    ctx.fail(`${call.callee}() takes ${want} argument${max === 1 ? '' : 's'}, got ${n}`, call.pos)
  }
}

function fixed (params: TypeNode[], returns: TypeNode | null, signature: string): Builtin {
  return {
    returns,
    statementOnly: returns === null,
    signature,
    check (call, ctx) {
      arity(call, ctx, params.length, params.length)
      call.args.forEach((arg, i) => ctx.expect(arg, ctx.value(arg), params[i] as TypeNode))
    }
  }
}

/** a message argument must be a string literal of printable length */
function checkMessage (arg: Expr | undefined, ctx: BuiltinCheck): void {
  if (arg === undefined) return
  if (arg.kind !== 'string') ctx.fail('the message must be a string literal', arg.pos)
  const bytes = new TextEncoder().encode((arg as { value: string }).value).length
  if (bytes > MAX_MESSAGE_BYTES) ctx.fail(`the message is ${bytes} bytes; at most ${MAX_MESSAGE_BYTES}`, arg.pos)
}

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  ['caller', fixed([], ADDRESS, 'caller() -> address')],
  ['value', fixed([], UINT, 'value() -> uint')],
  ['self', fixed([], ADDRESS, 'self() -> address')],
  ['balance', fixed([ADDRESS], UINT, 'balance(who: address) -> uint')],
  ['block_height', fixed([], UINT, 'block_height() -> uint')],
  ['timestamp', fixed([], UINT, 'timestamp() -> uint')],
  ['miner', fixed([], ADDRESS, 'miner() -> address')],
  ['gas_left', fixed([], UINT, 'gas_left() -> uint')],
  ['transfer', fixed([ADDRESS, UINT], null, 'transfer(to: address, amount: uint)')],
  ['sha3', {
    returns: BYTES32,
    statementOnly: false,
    signature: 'sha3(a, b, ...) -> bytes32',
    check (call, ctx) {
      arity(call, ctx, 1, 16)
      for (const arg of call.args) ctx.value(arg)
    }
  }],
  ['require', {
    returns: null,
    statementOnly: true,
    signature: 'require(condition: bool, "message")',
    check (call, ctx) {
      arity(call, ctx, 1, 2)
      const cond = call.args[0] as Expr
      ctx.expect(cond, ctx.value(cond), BOOL)
      checkMessage(call.args[1], ctx)
    }
  }],
  ['revert', {
    returns: null,
    statementOnly: true,
    signature: 'revert("message")',
    check (call, ctx) {
      arity(call, ctx, 0, 1)
      checkMessage(call.args[0], ctx)
    }
  }]
])
