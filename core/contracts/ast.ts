// Syntax tree of a contract. The checker fills in the `type` of expressions and the
// `binding` of names; the code generator reads both.
import type { SourcePos } from './errors.ts'

export type ValueTypeName = 'uint' | 'bool' | 'address' | 'bytes32'

export type TypeNode =
  | { kind: ValueTypeName }
  | { kind: 'map'; key: TypeNode; value: TypeNode }

export interface ContractNode {
  name: string
  storage: StorageDecl[]
  consts: ConstDecl[]
  events: EventDecl[]
  functions: FunctionDecl[]
  pos: SourcePos
}

export interface StorageDecl { name: string; type: TypeNode; slot: bigint | null; pos: SourcePos }
export interface ConstDecl { name: string; type: TypeNode; value: Expr; pos: SourcePos }
export interface EventParam { name: string; type: TypeNode; indexed: boolean; pos: SourcePos }
export interface EventDecl { name: string; params: EventParam[]; pos: SourcePos }
export interface Param { name: string; type: TypeNode; pos: SourcePos }

export interface FunctionDecl {
  name: string
  isPublic: boolean
  params: Param[]
  returns: TypeNode | null
  body: Block
  pos: SourcePos
}

export interface Block { statements: Stmt[]; pos: SourcePos }

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>='

export type Stmt =
  | { kind: 'let'; name: string; type: TypeNode | null; init: Expr | null; pos: SourcePos; slot?: number }
  | { kind: 'assign'; target: Expr; op: AssignOp; value: Expr; pos: SourcePos }
  | { kind: 'if'; cond: Expr; then: Block; else: Block | null; pos: SourcePos }
  | { kind: 'while'; cond: Expr; body: Block; pos: SourcePos }
  | { kind: 'for'; name: string; from: Expr; to: Expr; body: Block; pos: SourcePos; slot?: number; endSlot?: number }
  | { kind: 'return'; value: Expr | null; pos: SourcePos }
  | { kind: 'emit'; event: string; args: Expr[]; pos: SourcePos }
  | { kind: 'break'; pos: SourcePos }
  | { kind: 'continue'; pos: SourcePos }
  | { kind: 'expr'; expr: Expr; pos: SourcePos }

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^' |
  '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||'

/** What a name refers to, decided by the checker. */
export type Binding =
  | { kind: 'local'; slot: number }
  | { kind: 'storage'; decl: StorageDecl; slot: bigint }
  | { kind: 'const'; value: bigint }

interface ExprBase { pos: SourcePos; type?: TypeNode }

export type Expr =
  | ExprBase & { kind: 'number'; value: bigint }
  | ExprBase & { kind: 'bool'; value: boolean }
  | ExprBase & { kind: 'string'; value: string }
  | ExprBase & { kind: 'name'; name: string; binding?: Binding }
  | ExprBase & { kind: 'index'; base: Expr; index: Expr }
  | ExprBase & { kind: 'call'; callee: string; args: Expr[] }
  | ExprBase & { kind: 'unary'; op: '!'; operand: Expr }
  | ExprBase & { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
  | ExprBase & { kind: 'cast'; expr: Expr; to: TypeNode }

export function typeText (t: TypeNode): string {
  return t.kind === 'map' ? `map<${typeText(t.key)},${typeText(t.value)}>` : t.kind
}

export function sameType (a: TypeNode, b: TypeNode): boolean {
  if (a.kind === 'map' || b.kind === 'map') {
    return a.kind === 'map' && b.kind === 'map' && sameType(a.key, b.key) && sameType(a.value, b.value)
  }
  return a.kind === b.kind
}
