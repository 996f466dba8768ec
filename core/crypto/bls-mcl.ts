// The WASM BLS core: curve arithmetic and pairings by mcl (mcl-wasm), 4-7x faster than the
// JS twin (bls-noble.ts). mcl cannot take drand's domain separation tags, so the message is
// expanded to field elements with RFC 9380's expand_message_xmd (@noble/curves) and mcl maps
// them: in mcl's IRTF mode mapTo{G1,G2} is RFC 9380's map_to_curve followed by clear_cofactor,
// and clearing is linear, so map(u₀) + map(u₁) is exactly hash_to_curve(msg). Points use the
// ZCash compressed encoding drand publishes, and decoding checks subgroup membership.
// mcl's module is instantiated by ready() (a few hundred milliseconds, once per thread), not at
// import: `ledger --help` and tools that never verify a beacon do not pay for it.
import { sha256 } from '@noble/hashes/sha2.js'
import { expand_message_xmd as expandMessageXmd } from '@noble/curves/abstract/hash-to-curve.js'
import { DRAND_SCHEMES } from '../entropy/drand-schemes.ts'
import type { BeaconPairingInput, BlsCore } from './bls.ts'

type Mcl = typeof import('mcl-wasm')
type G1 = InstanceType<Mcl['G1']>
type G2 = InstanceType<Mcl['G2']>
type PrecomputedG2 = InstanceType<Mcl['PrecomputedG2']>

let mcl: Mcl | undefined
let loading: Promise<void> | undefined

// the generators in the same compressed encoding (RFC 9380 / ZCash), so mcl needs no string parsing
const G1_GENERATOR = Buffer.from('97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb', 'hex')
const G2_GENERATOR = Buffer.from('93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8', 'hex')

/** RFC 9380 field elements: L = 64 bytes each, m = 1 (G1) or 2 (G2), two elements per message */
const L = 64

function instance (): Mcl {
  if (mcl === undefined) throw new Error('the mcl BLS core is not ready: await its ready() (Cores.ready()) first')
  return mcl
}

function hashToG1 (m: Mcl, msg: Uint8Array, dst: string): G1 {
  const u = expandMessageXmd(msg, dst, 2 * L, sha256)
  const map = (i: number): G1 => {
    const f = new m.Fp()
    f.setBigEndianMod(u.subarray(i * L, (i + 1) * L))
    return f.mapToG1()
  }
  return m.add(map(0), map(1))
}

function hashToG2 (m: Mcl, msg: Uint8Array, dst: string): G2 {
  const u = expandMessageXmd(msg, dst, 4 * L, sha256)
  const map = (i: number): G2 => {
    const a = new m.Fp()
    a.setBigEndianMod(u.subarray(2 * i * L, (2 * i + 1) * L))
    const b = new m.Fp()
    b.setBigEndianMod(u.subarray((2 * i + 1) * L, (2 * i + 2) * L))
    const f = new m.Fp2()
    f.set_a(a)
    f.set_b(b)
    return f.mapToG2()
  }
  return m.add(map(0), map(1))
}

/** Decoding throws for a bad encoding or a point outside the subgroup; infinity is refused too. */
function g1From (m: Mcl, bytes: Uint8Array): G1 {
  const p = new m.G1()
  p.deserialize(bytes)
  if (p.isZero()) throw new Error('point at infinity')
  return p
}

function g2From (m: Mcl, bytes: Uint8Array): G2 {
  const p = new m.G2()
  p.deserialize(bytes)
  if (p.isZero()) throw new Error('point at infinity')
  return p
}

interface G2Key { kind: 'G2'; lines: PrecomputedG2 }
interface G1Key { kind: 'G1'; point: G1 }
const keys = new Map<string, G1Key | G2Key>()
const MAX_KEYS = 64
let negG2: PrecomputedG2 | undefined
let negG1: G1 | undefined

function keyOf (m: Mcl, publicKey: Uint8Array, group: 'G1' | 'G2'): G1Key | G2Key {
  const id = `${group}:${Buffer.from(publicKey).toString('hex')}`
  let key = keys.get(id)
  if (key === undefined) {
    key = group === 'G2' ? { kind: 'G2', lines: new m.PrecomputedG2(g2From(m, publicKey)) } : { kind: 'G1', point: g1From(m, publicKey) }
    if (keys.size >= MAX_KEYS) {
      const [oldId, old] = keys.entries().next().value as [string, G1Key | G2Key]
      if (old.kind === 'G2') old.lines.destroy()
      keys.delete(oldId)
    }
    keys.set(id, key)
  }
  return key
}

/** e(S, −g₂)·e(H, pk) = 1, both G2 sides precomputed (signatures on G1). */
function holdsOnG1 (m: Mcl, S: G1, H: G1, key: G2Key): boolean {
  if (S.isZero() || H.isZero()) return false
  negG2 ??= new m.PrecomputedG2(m.neg(g2From(m, G2_GENERATOR)))
  return m.finalExp(m.precomputedMillerLoop2(S, negG2, H, key.lines)).isOne()
}

/** e(−g₁, S)·e(pk, H) = 1 (signatures on G2). */
function holdsOnG2 (m: Mcl, S: G2, H: G2, key: G1Key): boolean {
  if (S.isZero() || H.isZero()) return false
  negG1 ??= m.neg(g1From(m, G1_GENERATOR))
  return m.finalExp(m.mul(m.millerLoop(negG1, S), m.millerLoop(key.point, H))).isOne()
}

function scalarsOf (m: Mcl, scalars: readonly bigint[]): Array<InstanceType<Mcl['Fr']>> {
  return scalars.map((s) => {
    const bytes = new Uint8Array(8)
    new DataView(bytes.buffer).setBigUint64(0, s, true)
    const f = new m.Fr()
    f.setLittleEndian(bytes)
    return f
  })
}

export const mclBlsCore: BlsCore = {
  kind: 'mcl',
  ready (): Promise<void> {
    loading ??= (async () => {
      const m = await import('mcl-wasm')
      await m.init(m.BLS12_381)
      m.setETHserialization(true)
      m.setMapToMode(m.IRTF)
      m.verifyOrderG1(true)
      m.verifyOrderG2(true)
      mcl = m
    })()
    return loading
  },
  pairingHolds (p: BeaconPairingInput): boolean {
    const m = instance()
    const rule = DRAND_SCHEMES[p.scheme]
    try {
      if (rule.signatureGroup === 'G1') return holdsOnG1(m, g1From(m, p.signature), hashToG1(m, p.message, rule.dst), keyOf(m, p.publicKey, 'G2') as G2Key)
      return holdsOnG2(m, g2From(m, p.signature), hashToG2(m, p.message, rule.dst), keyOf(m, p.publicKey, 'G1') as G1Key)
    } catch {
      return false
    }
  },
  batchPairingHolds (inputs: readonly BeaconPairingInput[], scalars: readonly bigint[]): boolean {
    const m = instance()
    const first = inputs[0]
    if (first === undefined) return true
    const rule = DRAND_SCHEMES[first.scheme]
    const r = scalarsOf(m, scalars.slice(0, inputs.length))
    try {
      if (rule.signatureGroup === 'G1') {
        const key = keyOf(m, first.publicKey, 'G2') as G2Key
        const S = m.mulVec(inputs.map((p) => g1From(m, p.signature)), r)
        const H = m.mulVec(inputs.map((p) => hashToG1(m, p.message, rule.dst)), r)
        return holdsOnG1(m, S, H, key)
      }
      const key = keyOf(m, first.publicKey, 'G1') as G1Key
      const S = m.mulVec(inputs.map((p) => g2From(m, p.signature)), r)
      const H = m.mulVec(inputs.map((p) => hashToG2(m, p.message, rule.dst)), r)
      return holdsOnG2(m, S, H, key)
    } catch {
      return false
    }
  }
}
