// Address forms (DESIGN 3): a wallet address is 32 hex chars (first 16 bytes of SHA3-512 of
// the ML-DSA-87 public key); its VM address is 40 hex chars (first 20 bytes of SHA3-256 of
// the wallet address text). Contracts only have VM addresses.
import { DEFAULT_SHA3_CORE, sha3_256 } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

export const WALLET_ADDRESS_RE = /^[0-9a-f]{32}$/
export const VM_ADDRESS_RE = /^[0-9a-f]{40}$/

export function walletAddressFromPublicKey (publicKey: Uint8Array, sha3: Sha3Core = DEFAULT_SHA3_CORE): string {
  return hex(sha3.sha3_512(publicKey).subarray(0, 16))
}

export function vmAddressOf (walletAddress: string, sha3: Sha3Core = DEFAULT_SHA3_CORE): string {
  return hex(sha3_256(walletAddress, sha3).subarray(0, 20))
}

/** Lower-cases and strips 0x; returns null when the text is neither address form. */
export function normalizeAddress (input: string): { form: 'wallet' | 'vm'; address: string } | null {
  const text = input.trim().toLowerCase().replace(/^0x/, '')
  if (WALLET_ADDRESS_RE.test(text)) return { form: 'wallet', address: text }
  if (VM_ADDRESS_RE.test(text)) return { form: 'vm', address: text }
  return null
}
