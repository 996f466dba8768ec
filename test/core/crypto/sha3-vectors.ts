// Reads test/vectors/sha3.json (shared by every SHA3 test) and expands each compact input.
import { readFileSync } from 'node:fs'

export type VectorInput =
  | { utf8: string }
  | { repeat: string; count: number }
  | { repeatHex: string; count: number }
  | { counter: number }

export interface Sha3Vector {
  name: string
  source: string
  input: VectorInput
  sha3_256: string
  sha3_512: string
}

export function inputBytes (input: VectorInput): Uint8Array {
  if ('utf8' in input) return Buffer.from(input.utf8, 'utf8')
  if ('repeat' in input) return Buffer.from(input.repeat.repeat(input.count), 'utf8')
  if ('repeatHex' in input) return Buffer.from(input.repeatHex.repeat(input.count), 'hex')
  return Uint8Array.from({ length: input.counter }, (_, i) => i & 0xff)
}

export function loadSha3Vectors (): Sha3Vector[] {
  const file = new URL('../../vectors/sha3.json', import.meta.url)
  return (JSON.parse(readFileSync(file, 'utf8')) as { vectors: Sha3Vector[] }).vectors
}
