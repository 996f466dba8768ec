// Static facts about bytecode: where JUMPs may land, and whether a deploy's code is well formed.
import { OPCODES } from './opcodes.ts'
import { LIMITS } from './params.ts'

const JUMPDEST = 0x5b

/** One flag per code byte: 1 where a JUMPDEST opcode (not PUSH data) sits. */
export function jumpDestinations (code: Uint8Array): Uint8Array {
  const dests = new Uint8Array(code.length)
  for (let pc = 0; pc < code.length; pc++) {
    const opcode = code[pc] as number
    if (opcode === JUMPDEST) dests[pc] = 1
    else pc += (OPCODES[opcode] as { immediate: number }).immediate
  }
  return dests
}

/**
 * Why `code` is not deployable, or null when it is: it must be non-empty, within the size
 * limit, use only defined opcodes and not end inside a PUSH's immediate bytes. The compiler
 * keeps all its data in PUSH immediates, and the runtime code it appends to the init code is
 * itself instructions, so its output always parses.
 */
export function codeDefect (code: Uint8Array, limit: number = LIMITS.initCodeBytes): string | null {
  if (code.length === 0) return 'empty code'
  if (code.length > limit) return `${code.length} bytes exceeds the ${limit}-byte limit`
  for (let pc = 0; pc < code.length; pc++) {
    const info = OPCODES[code[pc] as number] as (typeof OPCODES)[number]
    if (!info.defined) return `undefined opcode 0x${info.code.toString(16).padStart(2, '0')} at ${pc}`
    if (pc + info.immediate >= code.length && info.immediate > 0) return `truncated ${info.name} at ${pc}`
    pc += info.immediate
  }
  return null
}
