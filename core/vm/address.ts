// Contract address (DESIGN 3): the first 20 bytes of SHA3-256(deployer's 20-byte VM address ‖
// the deployer's VM nonce before the deploy as a 32-byte big-endian word).
import { DEFAULT_SHA3_CORE } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import { bytesToHex, hexToBytes, wordToBytes, VM_ADDRESS_RE } from './words.ts'

export function contractAddress (deployer: string, nonce: bigint, sha3: Sha3Core = DEFAULT_SHA3_CORE): string {
  if (!VM_ADDRESS_RE.test(deployer)) throw new TypeError(`deployer must be a 40-hex VM address, got ${deployer}`)
  const preimage = new Uint8Array(52)
  preimage.set(hexToBytes(deployer) as Uint8Array, 0)
  preimage.set(wordToBytes(nonce), 20)
  return bytesToHex(sha3.sha3_256(preimage).subarray(0, 20))
}

/** A VM address in canonical form (lowercase, no 0x), or null when it is not one. */
export function normalizeVmAddress (text: string): string | null {
  const body = (text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text).toLowerCase()
  return VM_ADDRESS_RE.test(body) ? body : null
}
