// Secrets of the admin state: login tokens, session tokens, API tokens and invite codes.
// Stored secrets are compared through their SHA3-256 digests with timingSafeEqual, so the
// time a comparison takes says nothing about how many leading characters matched.
import { randomBytes, randomInt } from 'node:crypto'
export { hashSecret, secretsEqual } from '../../../core/crypto/secrets.ts'

/** raw API tokens read `ldg_<64 hex>` so they are recognisable in configs and leaks */
export const TOKEN_PREFIX = 'ldg'
export const API_TOKEN_RE = new RegExp(`^${TOKEN_PREFIX}_[0-9a-f]{64}$`)
export const TOKEN_HASH_RE = /^[0-9a-f]{64}$/

/** no 0/O, no 1/I/L (SPEC 2.7) */
export const INVITE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
export const INVITE_RE = new RegExp(`^CODE-[${INVITE_ALPHABET}]{6}$`)

const hex = (bytes: number): string => randomBytes(bytes).toString('hex')

export function newLoginToken (): string { return hex(16) }
export function newSessionToken (): string { return hex(32) }
export function newApiToken (): string { return `${TOKEN_PREFIX}_${hex(32)}` }
export function newTokenId (): string { return hex(8) }
export function randomSuffix (): string { return hex(4) }

export function newInviteCode (): string {
  let code = 'CODE-'
  for (let i = 0; i < 6; i++) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]
  return code
}
