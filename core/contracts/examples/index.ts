// The bundled example contracts served at GET /api/playground/examples.
import { counter } from './counter.ts'
import { guestbook } from './guestbook.ts'
import { multisig } from './multisig.ts'
import type { Example } from './types.ts'

export type { Example }

export const EXAMPLES: readonly Example[] = [counter, guestbook, multisig]

export function getExample (id: string): Example | undefined {
  return EXAMPLES.find((e) => e.id === id)
}
