// BLS12-381 pairing cores for beacon verification. Two interchangeable cores pass one vector
// file (test/vectors/bls.json: real drand rounds of both signature groups, and forgeries):
// `mcl` runs the curve arithmetic and the pairing in WASM (mcl-wasm, 4-7x faster) and
// `noble` is the pure-JS twin (@noble/curves). Both hash to the curve with RFC 9380's
// hash_to_field from @noble/curves, so drand's domain separation tags are honoured by both
// (mcl-wasm cannot set a DST of its own: it maps the field elements noble derives).
// A kernel picks one (`cores.bls`, `--core bls=...`); a WASM core must be made ready (its
// module instantiated) before its synchronous checks run: Cores.ready() does that at boot.
import { randomBytes } from 'node:crypto'
import type { DrandScheme } from '../entropy/drand-schemes.ts'
import { nobleBlsCore } from './bls-noble.ts'
import { mclBlsCore } from './bls-mcl.ts'

/** The decoded parts of a beacon that a pairing check needs, after every cheap check passed. */
export interface BeaconPairingInput {
  scheme: DrandScheme
  publicKey: Uint8Array
  signature: Uint8Array
  randomness: Uint8Array
  /** the 32-byte digest the signature covers */
  message: Uint8Array
}

export type BlsCoreKind = 'mcl' | 'noble'

export interface BlsCore {
  readonly kind: BlsCoreKind
  /** Resolves once the core can run; idempotent. A JS core is ready at once. */
  ready(): Promise<void>
  /** e(σ, g) = e(H(m), pk) in the scheme's groups; false for any key or signature that is no point of the right subgroup. */
  pairingHolds(p: BeaconPairingInput): boolean
  /**
   * True when every input verifies, checked at once with a random linear combination
   * (https://ethresear.ch/t/fast-verification-of-multiple-bls-signatures/5407): with secret
   * scalars rᵢ, e(Σ rᵢσᵢ, g) = e(Σ rᵢH(mᵢ), pk) fails for a bad σᵢ except with probability
   * ≤ 2⁻⁶⁴. Two Miller loops and one final exponentiation for the whole run. All inputs share
   * one scheme and one public key; `scalars` holds one odd 64-bit scalar per input.
   */
  batchPairingHolds(inputs: readonly BeaconPairingInput[], scalars: readonly bigint[]): boolean
}

export const BLS_CORES = { mcl: mclBlsCore, noble: nobleBlsCore } as const satisfies Record<BlsCoreKind, BlsCore>
export type BlsCoreName = keyof typeof BLS_CORES

/**
 * For callers that are no kernel's and name no core (tools, tests): the JS core, which needs no
 * instantiation and so can be used synchronously from anywhere. A kernel runs its `cores.bls`.
 */
export const DEFAULT_BLS_CORE: BlsCore = nobleBlsCore

export function getBlsCore (name: BlsCoreName): BlsCore {
  if (!Object.hasOwn(BLS_CORES, name)) throw new RangeError(`unknown BLS core "${String(name)}" (expected ${Object.keys(BLS_CORES).join(' or ')})`)
  return BLS_CORES[name]
}

/** Secret random 64-bit scalars for a batch, never zero (a zero would drop its round from the check). */
export function batchScalars (n: number, random: (n: number) => Uint8Array = randomBytes): bigint[] {
  const bytes = random(8 * n)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return Array.from({ length: n }, (_, i) => view.getBigUint64(i * 8) | 1n)
}

/** Throws unless every input names the first one's scheme and key (a batch is one beacon's rounds). */
export function assertOneBeacon (inputs: readonly BeaconPairingInput[]): void {
  const first = inputs[0]
  if (first === undefined) return
  const key = Buffer.from(first.publicKey)
  if (inputs.some((p) => p.scheme !== first.scheme || !key.equals(p.publicKey))) throw new Error('a batch holds rounds of one beacon only')
}
