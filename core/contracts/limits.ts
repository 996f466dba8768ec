// Bounds on what one compile may cost (issue 12 item 11). The parser, checker and code
// generator recurse over the syntax tree, so its nesting must stay far below the JS stack;
// bytes and wall time bound the rest. Every bound answers a CompileError, never a crash.
import { CompileError } from './errors.ts'
import type { SourcePos } from './errors.ts'

export const COMPILE_LIMITS = {
  /** UTF-8 bytes of one source text; the bundled examples are under 4 KiB */
  sourceBytes: 64 * 1024,
  /** nested parentheses, blocks, `!`, indexing, casts and map types, counted together */
  nesting: 64,
  /** height of any expression tree, so `1 + 1 + ... + 1` is bounded too (it parses in a loop) */
  expressionDepth: 256,
  /** wall time of parse + check + generate */
  timeMs: 2000
} as const

export function checkSourceSize (source: string): void {
  const bytes = Buffer.byteLength(source, 'utf8')
  if (bytes > COMPILE_LIMITS.sourceBytes) {
    throw new CompileError(`the source is ${bytes} bytes; at most ${COMPILE_LIMITS.sourceBytes}`, { line: 1, column: 1 })
  }
}

/** A wall-clock budget the compiler phases poll at every statement and expression. */
export class CompileDeadline {
  readonly #endsAt: number
  readonly #limitMs: number
  #polls = 0

  constructor (limitMs: number = COMPILE_LIMITS.timeMs) {
    this.#limitMs = limitMs
    this.#endsAt = performance.now() + limitMs
  }

  check (pos: SourcePos): void {
    // reading the clock is cheap but not free: look every 64th poll
    if ((++this.#polls & 63) !== 0) return
    if (performance.now() > this.#endsAt) throw new CompileError(`compilation took longer than ${this.#limitMs} ms; simplify the contract`, pos)
  }
}
