// Proof-of-work core interface. The header's 8-byte big-endian nonce is its LAST field
// (DESIGN 3) so a core can absorb the fixed prefix once per template (midstate) and run
// only the final Keccak-f permutation per nonce.
// NOTE: temporary full-hash implementation; the WASM core and the JS midstate twin replace
// it behind this same API.
import { sha3_512 } from '../crypto/sha3.ts'
import type { CoreKind } from '../crypto/sha3.ts'

export interface PowSearchResult {
  found: boolean
  nonce: number // the winning nonce when found, else the next nonce to try
  hash: Uint8Array | null
  tried: number
}

export interface PowCore {
  readonly kind: CoreKind
  /** SHA3-512 of prefix ‖ nonce (uint64 big-endian). */
  hashHeader(prefix: Uint8Array, nonce: number): Uint8Array
  /** Tries nonces [start, start + count) and stops at the first hash with >= difficulty leading hex zeros. */
  search(prefix: Uint8Array, start: number, count: number, difficulty: number): PowSearchResult
}

/** True when the hash has at least `difficulty` leading zero hex digits. */
export function meetsDifficulty (hash: Uint8Array, difficulty: number): boolean {
  const fullBytes = difficulty >> 1
  for (let i = 0; i < fullBytes; i++) if (hash[i] !== 0) return false
  return (difficulty & 1) === 0 || (hash[fullBytes] as number) < 0x10
}

function withNonce (prefix: Uint8Array, nonce: number): Uint8Array {
  const out = new Uint8Array(prefix.length + 8)
  out.set(prefix)
  new DataView(out.buffer).setBigUint64(prefix.length, BigInt(nonce))
  return out
}

const placeholder: PowCore = {
  kind: 'js',
  hashHeader: (prefix, nonce) => sha3_512(withNonce(prefix, nonce)),
  search (prefix, start, count, difficulty) {
    for (let n = start; n < start + count; n++) {
      const hash = sha3_512(withNonce(prefix, n))
      if (meetsDifficulty(hash, difficulty)) return { found: true, nonce: n, hash, tried: n - start + 1 }
    }
    return { found: false, nonce: start + count, hash: null, tried: count }
  }
}

export function getPowCore (_kind: CoreKind): PowCore { return placeholder }
