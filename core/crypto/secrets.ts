// Secrets compared through their SHA3-256 digests with timingSafeEqual, so the time a
// comparison takes says nothing about how many leading characters matched; a stored secret is
// its digest, never the secret. Shared by the admin state (tokens, sessions) and the admin
// plugin's password check.
import { timingSafeEqual } from 'node:crypto'
import { sha3_256, sha3_256Hex } from './sha3.ts'

export function hashSecret (secret: string): string { return sha3_256Hex(secret) }

export function secretsEqual (given: string, expected: string): boolean {
  return timingSafeEqual(sha3_256(given), sha3_256(expected))
}
