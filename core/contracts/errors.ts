// A compile error carries where it happened; its message starts with "line:column: ".

export interface SourcePos { line: number; column: number }

export class CompileError extends Error {
  readonly line: number
  readonly column: number
  readonly reason: string

  constructor (reason: string, pos: SourcePos) {
    super(`${pos.line}:${pos.column}: ${reason}`)
    this.name = 'CompileError'
    this.reason = reason
    this.line = pos.line
    this.column = pos.column
  }
}
