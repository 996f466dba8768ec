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

// A block names each of its addresses several times (state keys, prefetch, VM address index):
// the last few thousand derivations are kept, per core (every core gives the same answer; a
// core under test is still asked for the addresses it has not seen).
const VM_ADDRESS_CACHE = 4096
const vmAddresses = new WeakMap<Sha3Core, Map<string, string>>()

export function vmAddressOf (walletAddress: string, sha3: Sha3Core = DEFAULT_SHA3_CORE): string {
  let cache = vmAddresses.get(sha3)
  if (cache === undefined) { cache = new Map(); vmAddresses.set(sha3, cache) }
  let vm = cache.get(walletAddress)
  if (vm === undefined) {
    vm = hex(sha3_256(walletAddress, sha3).subarray(0, 20))
    if (cache.size >= VM_ADDRESS_CACHE) cache.delete(cache.keys().next().value as string)
    cache.set(walletAddress, vm)
  }
  return vm
}

/** Lower-cases and strips 0x; returns null when the text is neither address form. */
export function normalizeAddress (input: string): { form: 'wallet' | 'vm'; address: string } | null {
  const text = input.trim().toLowerCase().replace(/^0x/, '')
  if (WALLET_ADDRESS_RE.test(text)) return { form: 'wallet', address: text }
  if (VM_ADDRESS_RE.test(text)) return { form: 'vm', address: text }
  return null
}
