// Verification of one drand beacon against the configured chain public key. A beacon is used
// only after its BLS signature verifies and its randomness equals sha256(signature); a mirror
// can then delay or withhold rounds, but not forge or alter one.
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { DRAND_SCHEMES, beaconMessage } from './drand-schemes.ts'
import type { DrandScheme } from './drand-schemes.ts'

/** A beacon as drand's HTTP API returns it (GET /{chain}/public/{round|latest}). */
export interface DrandBeacon {
  round: number
  randomness: string
  signature: string
  previous_signature?: string
}

export interface DrandChainKey {
  /** hex, compressed: 48 bytes on G1 (signatures on G2) or 96 bytes on G2 (signatures on G1) */
  publicKey: string
  scheme: DrandScheme
}

export class BeaconVerificationError extends Error {
  override name = 'BeaconVerificationError'
}

const HEX = /^(?:[0-9a-f]{2})+$/

function hexField (beacon: DrandBeacon, field: 'randomness' | 'signature' | 'previous_signature', bytes: number): Uint8Array {
  const v = beacon[field]
  if (typeof v !== 'string' || !HEX.test(v) || v.length !== bytes * 2) {
    throw new BeaconVerificationError(`beacon round ${String(beacon.round)}: ${field} must be ${bytes} bytes of lowercase hex`)
  }
  return Uint8Array.from(Buffer.from(v, 'hex'))
}

function equalBytes (a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** Returns the beacon's 32 bytes of randomness; throws BeaconVerificationError otherwise. */
export function verifyBeacon (chain: DrandChainKey, beacon: DrandBeacon): Uint8Array {
  const rule = DRAND_SCHEMES[chain.scheme]
  if (!Number.isSafeInteger(beacon.round) || beacon.round < 1) throw new BeaconVerificationError(`beacon round ${String(beacon.round)} is not a positive integer`)
  const sigLength = rule.signatureGroup === 'G2' ? 96 : 48
  const signature = hexField(beacon, 'signature', sigLength)
  const randomness = hexField(beacon, 'randomness', 32)
  // the genesis seed that round 1 chains to is 32 bytes; every later previous signature is a signature
  const previous = rule.chained
    ? hexField(beacon, 'previous_signature', beacon.round === 1 ? 32 : sigLength)
    : undefined
  const message = beaconMessage(chain.scheme, beacon.round, previous)
  const publicKey = Uint8Array.from(Buffer.from(chain.publicKey, 'hex'))

  let valid: boolean
  try {
    if (rule.signatureGroup === 'G2') {
      const sigs = bls12_381.longSignatures
      valid = sigs.verify(signature, sigs.hash(message, rule.dst), publicKey)
    } else {
      const sigs = bls12_381.shortSignatures
      valid = sigs.verify(signature, sigs.hash(message, rule.dst), publicKey)
    }
  } catch (err) {
    // a signature or key that does not decode to a curve point
    throw new BeaconVerificationError(`beacon round ${beacon.round}: malformed signature or public key (${(err as Error).message})`)
  }
  if (!valid) throw new BeaconVerificationError(`beacon round ${beacon.round}: BLS signature does not verify against the chain public key`)
  if (!equalBytes(randomness, sha256(signature))) throw new BeaconVerificationError(`beacon round ${beacon.round}: randomness is not sha256(signature)`)
  return randomness
}
