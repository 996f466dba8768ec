// The drand signature schemes, as a table: which group carries the signature, the
// hash-to-curve domain separation tag, and whether the message chains to the previous round.
// Source: drand's scheme definitions (crypto/schemes.go) and the chain info `schemeID`.
import { sha256 } from '@noble/hashes/sha2.js'

export type DrandScheme = 'pedersen-bls-chained' | 'pedersen-bls-unchained' | 'bls-unchained-on-g1' | 'bls-unchained-g1-rfc9380'

export interface SchemeRule {
  /** group of the signature; the public key lives on the other one */
  signatureGroup: 'G1' | 'G2'
  /** hash-to-curve DST of the message */
  dst: string
  /** message = sha256(previous_signature ‖ round) instead of sha256(round) */
  chained: boolean
}

const G2_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_'
const G1_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_'

export const DRAND_SCHEMES: Readonly<Record<DrandScheme, SchemeRule>> = {
  'pedersen-bls-chained': { signatureGroup: 'G2', dst: G2_DST, chained: true },
  'pedersen-bls-unchained': { signatureGroup: 'G2', dst: G2_DST, chained: false },
  // fastnet (retired 2023): signatures on G1 hashed with the G2 tag, a drand bug kept for compatibility
  'bls-unchained-on-g1': { signatureGroup: 'G1', dst: G2_DST, chained: false },
  // quicknet: signatures on G1 with the RFC 9380 G1 tag
  'bls-unchained-g1-rfc9380': { signatureGroup: 'G1', dst: G1_DST, chained: false }
}

export const DRAND_SCHEME_IDS = Object.keys(DRAND_SCHEMES) as DrandScheme[]

export function isDrandScheme (s: string): s is DrandScheme {
  return Object.hasOwn(DRAND_SCHEMES, s)
}

function roundBytes (round: number): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, BigInt(round))
  return out
}

/** The 32-byte digest a beacon's signature covers. */
export function beaconMessage (scheme: DrandScheme, round: number, previousSignature?: Uint8Array): Uint8Array {
  const r = roundBytes(round)
  if (!DRAND_SCHEMES[scheme].chained) return sha256(r)
  if (previousSignature === undefined) throw new Error(`scheme ${scheme} needs the previous signature`)
  const msg = new Uint8Array(previousSignature.length + 8)
  msg.set(previousSignature)
  msg.set(r, previousSignature.length)
  return sha256(msg)
}
