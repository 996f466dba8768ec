// A small text assembler for hand-written VM code (tests, vectors, benchmarks):
//   "PUSH1 5 PUSH1 3 ADD"      mnemonics with their immediates (decimal or 0x-hex)
//   "PUSH 1000"                 PUSH with the smallest width that holds the value
//   "loop: JUMPDEST"            a label; "PUSH2 @loop" pushes its offset
//   "#0c0d"                     raw bytes, emitted as written
import { opcodeByName } from './opcodes.ts'

export class AssembleError extends Error {}

function immediateBytes (value: bigint, width: number, token: string): number[] {
  if (value < 0n || value >= 1n << BigInt(8 * width)) throw new AssembleError(`${token}: ${value} does not fit in ${width} bytes`)
  const out: number[] = []
  for (let i = width - 1; i >= 0; i--) out.push(Number((value >> BigInt(8 * i)) & 0xffn))
  return out
}

function minimalWidth (value: bigint): number {
  let width = 1
  while (value >= 1n << BigInt(8 * width)) width++
  return width
}

export function assemble (source: string): Uint8Array {
  const tokens = source.replace(/\/\/[^\n]*/g, ' ').split(/\s+/).filter((t) => t !== '')
  const labels = new Map<string, number>()
  const fixups: Array<{ at: number; width: number; label: string }> = []
  const out: number[] = []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string
    if (token.endsWith(':')) { labels.set(token.slice(0, -1), out.length); continue }
    if (token.startsWith('#')) {
      const hex = token.slice(1)
      if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new AssembleError(`bad raw bytes ${token}`)
      for (let j = 0; j < hex.length; j += 2) out.push(parseInt(hex.slice(j, j + 2), 16))
      continue
    }
    const name = token.toUpperCase()
    if (name === 'PUSH' || /^PUSH([1-9]|[12][0-9]|3[0-2])$/.test(name)) {
      const arg = tokens[++i]
      if (arg === undefined) throw new AssembleError(`${token} needs an immediate`)
      if (arg.startsWith('@')) {
        const width = name === 'PUSH' ? 2 : Number(name.slice(4))
        out.push(0x5f + width)
        fixups.push({ at: out.length, width, label: arg.slice(1) })
        for (let k = 0; k < width; k++) out.push(0)
        continue
      }
      const value = BigInt(arg)
      const width = name === 'PUSH' ? minimalWidth(value) : Number(name.slice(4))
      out.push(0x5f + width, ...immediateBytes(value, width, token))
      continue
    }
    out.push(opcodeByName(name).code)
  }
  for (const f of fixups) {
    const target = labels.get(f.label)
    if (target === undefined) throw new AssembleError(`unknown label @${f.label}`)
    immediateBytes(BigInt(target), f.width, `@${f.label}`).forEach((b, k) => { out[f.at + k] = b })
  }
  return Uint8Array.from(out)
}
