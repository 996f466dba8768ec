// Source text to tokens. Comments (// and /* */) and whitespace are dropped; every token
// keeps the line and column where it starts (1-based) for error messages.
import { CompileError } from './errors.ts'
import type { SourcePos } from './errors.ts'

export type TokenKind = 'ident' | 'keyword' | 'number' | 'string' | 'punct' | 'eof'

export interface Token {
  kind: TokenKind
  text: string
  /** numbers: their value */
  value?: bigint
  pos: SourcePos
}

export const KEYWORDS = new Set([
  'contract', 'storage', 'event', 'const', 'fn', 'pub', 'let', 'if', 'else', 'while', 'for', 'in',
  'return', 'emit', 'break', 'continue', 'true', 'false', 'indexed', 'map', 'as'
])

// longest first, so "<=" wins over "<"
const PUNCTUATION = [
  '<<=', '>>=', '->', '==', '!=', '<=', '>=', '&&', '||', '<<', '>>', '+=', '-=', '*=', '/=', '%=', '..',
  '{', '}', '(', ')', '[', ']', ';', ':', ',', '@', '=', '<', '>', '+', '-', '*', '/', '%', '!', '&', '|', '^'
]

const MAX_WORD = (1n << 256n) - 1n

export function tokenize (source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  let line = 1
  let lineStart = 0
  const pos = (at: number): SourcePos => ({ line, column: at - lineStart + 1 })
  const fail = (message: string, at: number): never => { throw new CompileError(message, pos(at)) }

  while (i < source.length) {
    const ch = source[i] as string
    if (ch === '\n') { i++; line++; lineStart = i; continue }
    if (/\s/.test(ch)) { i++; continue }
    if (source.startsWith('//', i)) {
      while (i < source.length && source[i] !== '\n') i++
      continue
    }
    if (source.startsWith('/*', i)) {
      const startPos = pos(i)
      i += 2
      while (i < source.length && !source.startsWith('*/', i)) {
        if (source[i] === '\n') { line++; lineStart = i + 1 }
        i++
      }
      if (i >= source.length) throw new CompileError('unterminated comment', startPos)
      i += 2
      continue
    }
    const start = i
    if (/[A-Za-z_]/.test(ch)) {
      while (i < source.length && /[A-Za-z0-9_]/.test(source[i] as string)) i++
      const text = source.slice(start, i)
      tokens.push({ kind: KEYWORDS.has(text) ? 'keyword' : 'ident', text, pos: pos(start) })
      continue
    }
    if (/[0-9]/.test(ch)) {
      const hex = source.startsWith('0x', i) || source.startsWith('0X', i)
      if (hex) i += 2
      const digit = hex ? /[0-9a-fA-F_]/ : /[0-9_]/
      while (i < source.length && digit.test(source[i] as string)) i++
      if (i < source.length && /[A-Za-z0-9_]/.test(source[i] as string)) fail(`bad number literal '${source.slice(start, i + 1)}'`, start)
      const text = source.slice(start, i)
      const digits = text.replace(/_/g, '')
      if (digits === '0x' || digits === '0X') fail(`bad number literal '${text}'`, start)
      const value = BigInt(digits)
      if (value > MAX_WORD) fail(`number literal ${text} does not fit in 256 bits`, start)
      tokens.push({ kind: 'number', text, value, pos: pos(start) })
      continue
    }
    if (ch === '"') {
      i++
      let text = ''
      while (i < source.length && source[i] !== '"') {
        const c = source[i] as string
        if (c === '\n') fail('unterminated string', start)
        if (c === '\\') {
          const next = source[i + 1]
          if (next === 'n') text += '\n'
          else if (next === '"' || next === '\\') text += next
          else fail(`unknown escape '\\${next ?? ''}' in string`, i)
          i += 2
          continue
        }
        text += c
        i++
      }
      if (i >= source.length) fail('unterminated string', start)
      i++
      tokens.push({ kind: 'string', text, pos: pos(start) })
      continue
    }
    const punct = PUNCTUATION.find((p) => source.startsWith(p, i))
    if (punct === undefined) fail(`unexpected character '${ch}'`, start)
    tokens.push({ kind: 'punct', text: punct as string, pos: pos(start) })
    i += (punct as string).length
  }
  tokens.push({ kind: 'eof', text: '<end of file>', pos: pos(i) })
  return tokens
}
