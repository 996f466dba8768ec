// Signs beacon rounds the way a drand group does, for a beacon whose secret key is PUBLIC:
// the devnet beacon (config/entropy-sources.ts) and test beacons. Its output goes through
// exactly the verifier real drand evidence goes through (beacon-verify.ts).
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { DRAND_SCHEMES, beaconMessage } from './drand-schemes.ts'
import type { DrandScheme } from './drand-schemes.ts'
import type { DrandBeacon } from './beacon-verify.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

export interface BeaconSigner {
  scheme: DrandScheme
  /** hex compressed public key (on the group opposite the signatures) */
  publicKey: string
  /** signs one round; chained schemes sign over the given previous signature */
  sign(round: number, previousSignature?: Uint8Array): DrandBeacon
}

/** A signer from a 48-byte seed (the BLS key is derived from it, deterministically: noble keygen). */
export function beaconSigner (scheme: DrandScheme, seed: Uint8Array): BeaconSigner {
  const rule = DRAND_SCHEMES[scheme]
  const sigs = rule.signatureGroup === 'G2' ? bls12_381.longSignatures : bls12_381.shortSignatures
  // noble's keygen, without the public key: deriving it builds the generator's multiplication
  // table (~0.3 s), and a devnet node signs rounds for a key whose public half it never needs
  const secretKey = bls12_381.utils.randomSecretKey(seed)
  let publicKey: string | undefined
  return {
    scheme,
    get publicKey () {
      publicKey ??= hex(sigs.getPublicKey(secretKey).toBytes(true))
      return publicKey
    },
    sign (round, previousSignature) {
      if (!Number.isSafeInteger(round) || round < 1) throw new RangeError(`round must be a positive integer, got ${round}`)
      if (rule.chained && previousSignature === undefined) throw new Error(`scheme ${scheme} signs over the previous signature`)
      const message = beaconMessage(scheme, round, rule.chained ? previousSignature : undefined)
      // both signature kinds share the API shape; the casts pick the group the scheme names
      const signature = (sigs.sign as (m: unknown, k: Uint8Array) => { toBytes(c: boolean): Uint8Array })(
        (sigs.hash as (m: Uint8Array, d: string) => unknown)(message, rule.dst), secretKey).toBytes(true)
      const beacon: DrandBeacon = { round, randomness: hex(sha256(signature)), signature: hex(signature) }
      if (rule.chained) beacon.previous_signature = hex(previousSignature as Uint8Array)
      return beacon
    }
  }
}
