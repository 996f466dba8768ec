// Verification of one drand beacon against a pinned chain public key. A beacon is used only
// after its BLS signature verifies and its randomness equals sha256(signature); a relay (or a
// miner quoting one) can then delay or withhold rounds, but not forge or alter one. Shared by
// the aggregator's drand sources and by every validator checking a block's beacon evidence.
import { sha256 } from '@noble/hashes/sha2.js'
import { DRAND_SCHEMES, beaconMessage, isDrandScheme } from './drand-schemes.ts'
import type { DrandScheme } from './drand-schemes.ts'
import { DEFAULT_BLS_CORE } from '../crypto/bls.ts'
import type { BeaconPairingInput, BlsCore } from '../crypto/bls.ts'

export type { BeaconPairingInput } from '../crypto/bls.ts'

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

/** Why a beacon failed, so callers (the chain's validator) can name the rule. */
export type BeaconFailure = 'format' | 'scheme' | 'randomness' | 'signature'

export class BeaconVerificationError extends Error {
  override name = 'BeaconVerificationError'
  readonly failure: BeaconFailure
  constructor (message: string, failure: BeaconFailure = 'format') {
    super(message)
    this.failure = failure
  }
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

/**
 * The format checks: scheme, round, hex lengths. Returns what the pairing and the randomness
 * check need; throws BeaconVerificationError naming the failed rule.
 */
export function prepareBeacon (chain: DrandChainKey, beacon: DrandBeacon): BeaconPairingInput {
  if (!isDrandScheme(chain.scheme)) throw new BeaconVerificationError(`unknown beacon scheme '${String(chain.scheme)}'`, 'scheme')
  const rule = DRAND_SCHEMES[chain.scheme]
  if (!Number.isSafeInteger(beacon.round) || beacon.round < 1) throw new BeaconVerificationError(`beacon round ${String(beacon.round)} is not a positive integer`)
  const sigLength = rule.signatureGroup === 'G2' ? 96 : 48
  const signature = hexField(beacon, 'signature', sigLength)
  const randomness = hexField(beacon, 'randomness', 32)
  // the genesis seed that round 1 chains to is 32 bytes; every later previous signature is a signature
  const previous = rule.chained ? hexField(beacon, 'previous_signature', beacon.round === 1 ? 32 : sigLength) : undefined
  return { scheme: chain.scheme, publicKey: Uint8Array.from(Buffer.from(chain.publicKey, 'hex')), signature, randomness, message: beaconMessage(chain.scheme, beacon.round, previous) }
}

/** randomness = sha256(signature): throws naming the rule otherwise. */
export function checkRandomness (p: BeaconPairingInput, round: number): void {
  if (!equalBytes(p.randomness, sha256(p.signature))) throw new BeaconVerificationError(`beacon round ${round}: randomness is not sha256(signature)`, 'randomness')
}

/** Returns the beacon's 32 bytes of randomness; throws BeaconVerificationError otherwise. */
/** `bls`: the core that runs the pairing (a kernel's `cores.bls`, ready; default: the JS core) */
export function verifyBeacon (chain: DrandChainKey, beacon: DrandBeacon, bls: BlsCore = DEFAULT_BLS_CORE): Uint8Array {
  const input = prepareBeacon(chain, beacon)
  if (!bls.pairingHolds(input)) throw new BeaconVerificationError(`beacon round ${beacon.round}: BLS signature does not verify against the chain public key`, 'signature')
  checkRandomness(input, beacon.round)
  return input.randomness
}
