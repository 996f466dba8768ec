// Batch verification of many rounds of one beacon with a random linear combination
// (https://ethresear.ch/t/fast-verification-of-multiple-bls-signatures/5407): with secret
// random 64-bit scalars rᵢ, all of e(σᵢ, g) = e(H(mᵢ), pk) hold (except with probability
// ≤ 2⁻⁶⁴) iff e(Σ rᵢσᵢ, g) = e(Σ rᵢH(mᵢ), pk): two Miller loops and one final exponentiation
// for the whole run instead of two pairings per round. Signatures are decoded with their
// subgroup check, which the argument needs. Used during sync, where blocks arrive in runs.
import { randomBytes } from 'node:crypto'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { DRAND_SCHEMES } from './drand-schemes.ts'
import { pairingHolds } from './beacon-verify.ts'
import type { BeaconPairingInput } from './beacon-verify.ts'

const Fp12 = bls12_381.fields.Fp12

function scalars (n: number, random: (n: number) => Uint8Array): bigint[] {
  const bytes = random(8 * n)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // never zero: a zero scalar would drop its round from the check
  return Array.from({ length: n }, (_, i) => view.getBigUint64(i * 8) | 1n)
}

/** True when every input verifies. All inputs must share one scheme and one public key. */
export function batchPairingHolds (inputs: readonly BeaconPairingInput[], random: (n: number) => Uint8Array = randomBytes): boolean {
  const first = inputs[0]
  if (first === undefined) return true
  if (inputs.length === 1) return pairingHolds(first)
  const keyHex = Buffer.from(first.publicKey).toString('hex')
  if (inputs.some((p) => p.scheme !== first.scheme || Buffer.from(p.publicKey).toString('hex') !== keyHex)) throw new Error('a batch holds rounds of one beacon only')
  const rule = DRAND_SCHEMES[first.scheme]
  const r = scalars(inputs.length, random)
  try {
    if (rule.signatureGroup === 'G1') {
      const sigs = bls12_381.shortSignatures
      const pk = bls12_381.G2.Point.fromBytes(first.publicKey)
      pk.assertValidity()
      let S = bls12_381.G1.Point.ZERO
      let H = bls12_381.G1.Point.ZERO
      inputs.forEach((p, i) => {
        S = S.add(sigs.Signature.fromBytes(p.signature).multiplyUnsafe(r[i] as bigint))
        H = H.add(sigs.hash(p.message, rule.dst).multiplyUnsafe(r[i] as bigint))
      })
      return Fp12.eql(bls12_381.pairingBatch([{ g1: S, g2: bls12_381.G2.Point.BASE.negate() }, { g1: H, g2: pk }]), Fp12.ONE)
    }
    const sigs = bls12_381.longSignatures
    const pk = bls12_381.G1.Point.fromBytes(first.publicKey)
    pk.assertValidity()
    let S = bls12_381.G2.Point.ZERO
    let H = bls12_381.G2.Point.ZERO
    inputs.forEach((p, i) => {
      S = S.add(sigs.Signature.fromBytes(p.signature).multiplyUnsafe(r[i] as bigint))
      H = H.add(sigs.hash(p.message, rule.dst).multiplyUnsafe(r[i] as bigint))
    })
    return Fp12.eql(bls12_381.pairingBatch([{ g1: bls12_381.G1.Point.BASE.negate(), g2: S }, { g1: pk, g2: H }]), Fp12.ONE)
  } catch {
    // a signature or key that is no point of the right subgroup
    return false
  }
}

/**
 * One verdict per input: runs of one beacon batch-verified, a failed batch re-checked round
 * by round so the bad one is named (and the good ones still count).
 */
export function verifyPairings (inputs: readonly BeaconPairingInput[]): boolean[] {
  const groups = new Map<string, number[]>()
  inputs.forEach((p, i) => {
    const key = `${p.scheme}|${Buffer.from(p.publicKey).toString('hex')}`
    const g = groups.get(key)
    if (g === undefined) groups.set(key, [i])
    else g.push(i)
  })
  const out = new Array<boolean>(inputs.length).fill(false)
  for (const idx of groups.values()) {
    const batch = idx.map((i) => inputs[i] as BeaconPairingInput)
    if (batchPairingHolds(batch)) { for (const i of idx) out[i] = true; continue }
    for (const i of idx) out[i] = pairingHolds(inputs[i] as BeaconPairingInput)
  }
  return out
}
