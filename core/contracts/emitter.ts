// Instructions with symbolic jump targets, laid out into bytes. Every label reference is a
// PUSH2, so offsets are known in one pass (code is far below 64 KiB: LIMITS.codeBytes).
import { op } from '../vm/opcodes.ts'
import { CompileError } from './errors.ts'

export type Label = number

type Item =
  | { kind: 'byte'; value: number }
  | { kind: 'push'; value: bigint }
  | { kind: 'pushLabel'; label: Label }
  | { kind: 'pushEnd' }
  | { kind: 'label'; label: Label }

const PUSH0 = op('PUSH0')
const JUMPDEST = op('JUMPDEST')

export class Emitter {
  readonly #items: Item[] = []
  #labels = 0

  newLabel (): Label { return this.#labels++ }

  op (name: string): void { this.#items.push({ kind: 'byte', value: op(name) }) }

  ops (...names: string[]): void { for (const n of names) this.op(n) }

  push (value: bigint | number): void { this.#items.push({ kind: 'push', value: BigInt(value) }) }

  pushLabel (label: Label): void { this.#items.push({ kind: 'pushLabel', label }) }

  /** pushes the length of the finished code (where data appended after it starts) */
  pushEnd (): void { this.#items.push({ kind: 'pushEnd' }) }

  /** places a JUMPDEST that `label` refers to */
  mark (label: Label): void { this.#items.push({ kind: 'label', label }) }

  /** jumps to `label` */
  jump (label: Label): void {
    this.pushLabel(label)
    this.op('JUMP')
  }

  /** jumps to `label` when the top of the stack is non-zero (consuming it) */
  jumpIf (label: Label): void {
    this.pushLabel(label)
    this.op('JUMPI')
  }

  assemble (): Uint8Array {
    const offsets = new Map<Label, number>()
    let size = 0
    for (const item of this.#items) {
      if (item.kind === 'label') offsets.set(item.label, size)
      size += itemSize(item)
    }
    const out = new Uint8Array(size)
    let at = 0
    const writePush = (value: bigint, width: number): void => {
      out[at++] = PUSH0 + width
      for (let i = width - 1; i >= 0; i--) out[at++] = Number((value >> BigInt(8 * i)) & 0xffn)
    }
    for (const item of this.#items) {
      switch (item.kind) {
        case 'byte': out[at++] = item.value; break
        case 'label': out[at++] = JUMPDEST; break
        case 'push':
          if (item.value === 0n) out[at++] = PUSH0
          else writePush(item.value, byteWidth(item.value))
          break
        case 'pushLabel': {
          const target = offsets.get(item.label)
          if (target === undefined) throw new Error(`label ${item.label} was never placed`)
          writePush(BigInt(target), 2)
          break
        }
        case 'pushEnd': writePush(BigInt(size), 2); break
      }
    }
    // a user's source can get here (many statements), so this is a compile error, not a crash
    if (size > 0xffff) throw new CompileError(`the generated code is ${size} bytes, too large for 2-byte jump targets (at most 65535)`, { line: 1, column: 1 })
    return out
  }
}

function byteWidth (value: bigint): number {
  let width = 1
  while (value >= 1n << BigInt(8 * width)) width++
  return width
}

function itemSize (item: Item): number {
  switch (item.kind) {
    case 'byte': case 'label': return 1
    case 'push': return item.value === 0n ? 1 : 1 + byteWidth(item.value)
    case 'pushLabel': case 'pushEnd': return 3
  }
}
