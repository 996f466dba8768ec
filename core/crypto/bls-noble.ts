// The pure-JS BLS core (@noble/curves): the twin of the WASM core in bls-mcl.ts. A beacon's
// public key is pinned by the network, so its point (decoded and subgroup-checked once) and,
// for signatures on G1, the Miller-loop line coefficients of both G2 points are kept per key:
// a check then costs the hash to the curve, the signature's decoding and one two-pairing
// product.
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { pippenger } from '@noble/curves/abstract/curve.js'
import { DRAND_SCHEMES } from '../entropy/drand-schemes.ts'
import type { BeaconPairingInput, BlsCore } from './bls.ts'

const { G1, G2, fields: { Fp12 } } = bls12_381
type G1Point = InstanceType<typeof G1.Point>
type G2Point = InstanceType<typeof G2.Point>
type LineCoefficients = ReturnType<typeof bls12_381.utils.calcPairingPrecomputes>

interface G2Key { kind: 'G2'; point: G2Point; lines: LineCoefficients }
interface G1Key { kind: 'G1'; point: G1Point }

/** −g₂'s line coefficients: the other side of every G1-signature check */
let negG2Lines: LineCoefficients | undefined
const keys = new Map<string, G1Key | G2Key>()
const MAX_KEYS = 64

function keyOf (publicKey: Uint8Array, group: 'G1' | 'G2'): G1Key | G2Key {
  const id = `${group}:${Buffer.from(publicKey).toString('hex')}`
  let key = keys.get(id)
  if (key === undefined) {
    if (group === 'G2') {
      const point = G2.Point.fromBytes(publicKey)
      point.assertValidity()
      if (point.is0()) throw new Error('public key is the point at infinity')
      key = { kind: 'G2', point, lines: bls12_381.utils.calcPairingPrecomputes(point) }
    } else {
      const point = G1.Point.fromBytes(publicKey)
      point.assertValidity()
      if (point.is0()) throw new Error('public key is the point at infinity')
      key = { kind: 'G1', point }
    }
    if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value as string)
    keys.set(id, key)
  }
  return key
}

/** e(S, −g₂)·e(H, pk) = 1 with both G2 sides precomputed (signatures on G1). */
function holdsOnG1 (S: G1Point, H: G1Point, key: G2Key): boolean {
  if (S.is0() || H.is0()) return false
  negG2Lines ??= bls12_381.utils.calcPairingPrecomputes(G2.Point.BASE.negate())
  const s = S.toAffine()
  const h = H.toAffine()
  return Fp12.eql(Fp12.finalExponentiate(bls12_381.millerLoopBatch([[negG2Lines, s.x, s.y], [key.lines, h.x, h.y]])), Fp12.ONE)
}

/** e(−g₁, S)·e(pk, H) = 1 (signatures on G2). */
function holdsOnG2 (S: G2Point, H: G2Point, key: G1Key): boolean {
  if (S.is0() || H.is0()) return false
  return Fp12.eql(bls12_381.pairingBatch([{ g1: G1.Point.BASE.negate(), g2: S }, { g1: key.point, g2: H }]), Fp12.ONE)
}

/** Decodes a signature with its subgroup check (fromBytes validates the point). */
const sigOnG1 = (bytes: Uint8Array): G1Point => bls12_381.shortSignatures.Signature.fromBytes(bytes)
const sigOnG2 = (bytes: Uint8Array): G2Point => bls12_381.longSignatures.Signature.fromBytes(bytes)

export const nobleBlsCore: BlsCore = {
  kind: 'noble',
  ready: async () => {},
  pairingHolds (p: BeaconPairingInput): boolean {
    const rule = DRAND_SCHEMES[p.scheme]
    try {
      if (rule.signatureGroup === 'G1') return holdsOnG1(sigOnG1(p.signature), G1.hashToCurve(p.message, { DST: rule.dst }), keyOf(p.publicKey, 'G2') as G2Key)
      return holdsOnG2(sigOnG2(p.signature), G2.hashToCurve(p.message, { DST: rule.dst }), keyOf(p.publicKey, 'G1') as G1Key)
    } catch {
      return false
    }
  },
  batchPairingHolds (inputs: readonly BeaconPairingInput[], scalars: readonly bigint[]): boolean {
    const first = inputs[0]
    if (first === undefined) return true
    const rule = DRAND_SCHEMES[first.scheme]
    const r = scalars.slice(0, inputs.length)
    try {
      if (rule.signatureGroup === 'G1') {
        const key = keyOf(first.publicKey, 'G2') as G2Key
        const S = pippenger(G1.Point, inputs.map((p) => sigOnG1(p.signature)), r)
        const H = pippenger(G1.Point, inputs.map((p) => G1.hashToCurve(p.message, { DST: rule.dst })), r)
        return holdsOnG1(S, H, key)
      }
      const key = keyOf(first.publicKey, 'G1') as G1Key
      const S = pippenger(G2.Point, inputs.map((p) => sigOnG2(p.signature)), r)
      const H = pippenger(G2.Point, inputs.map((p) => G2.hashToCurve(p.message, { DST: rule.dst })), r)
      return holdsOnG2(S, H, key)
    } catch {
      return false
    }
  }
}
