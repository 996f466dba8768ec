import t from 'tap'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { verifyBeacon, BeaconVerificationError } from '../../../../plugins/entropy-aggregator/sources/drand-verify.ts'
import type { DrandBeacon } from '../../../../plugins/entropy-aggregator/sources/drand-verify.ts'
import { beaconMessage, DRAND_SCHEMES } from '../../../../plugins/entropy-aggregator/sources/drand-schemes.ts'
import { loadFixture } from '../helpers.ts'
import { BLS_CORES } from '../../../../core/crypto/bls.ts'

const fixtures = {
  default: loadFixture('default'),
  fastnet: loadFixture('fastnet'),
  quicknet: loadFixture('quicknet')
}
const keyOf = (f: ReturnType<typeof loadFixture>) => ({ publicKey: f.chain.public_key, scheme: f.chain.schemeID })
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** the same hex string with one byte changed */
function flipByte (h: string, index: number): string {
  const b = Buffer.from(h, 'hex')
  b[index] = (b[index] as number) ^ 0x01
  return b.toString('hex')
}

t.test('every real beacon of the fixtures verifies against its chain key, on every BLS core', async (t) => {
  for (const core of Object.values(BLS_CORES)) {
    await core.ready()
    for (const [name, f] of Object.entries(fixtures)) {
      t.ok(f.beacons.length >= 3, `${name}: fixture beacons present`)
      for (const b of f.beacons) {
        t.equal(hex(verifyBeacon(keyOf(f), b, core)), b.randomness, `${core.kind}: ${name} (${f.chain.schemeID}) round ${b.round}`)
      }
      t.throws(() => verifyBeacon(keyOf(f), { ...f.beacons.at(-1)!, round: f.beacons.at(-1)!.round + 1 }, core), /BLS signature does not verify/, `${core.kind}: ${name} wrong round`)
    }
  }
})

t.test('tampered beacons are rejected: chained (pedersen-bls-chained, signature on G2)', async (t) => {
  const f = fixtures.default
  const good = f.beacons.find((b) => b.round > 1) as DrandBeacon
  const cases: Array<[string, DrandBeacon, RegExp]> = [
    ['flipped signature byte', { ...good, signature: flipByte(good.signature, 40) }, /BLS signature does not verify|malformed signature/],
    ['wrong round', { ...good, round: good.round + 1 }, /BLS signature does not verify/],
    ['wrong previous_signature', { ...good, previous_signature: flipByte(good.previous_signature as string, 10) }, /BLS signature does not verify/],
    ['previous signature of another round', { ...good, previous_signature: f.beacons.find((b) => b.round !== good.round && b.round > 1)?.signature as string }, /BLS signature does not verify/],
    ['missing previous_signature', { round: good.round, randomness: good.randomness, signature: good.signature }, /previous_signature must be 96 bytes/],
    ['randomness not sha256(signature)', { ...good, randomness: flipByte(good.randomness, 0) }, /randomness is not sha256\(signature\)/],
    ['round 0', { ...good, round: 0 }, /not a positive integer/],
    ['uppercase hex', { ...good, signature: good.signature.toUpperCase() }, /lowercase hex/]
  ]
  for (const [name, beacon, why] of cases) {
    t.throws(() => verifyBeacon(keyOf(f), beacon), why, name)
    t.throws(() => verifyBeacon(keyOf(f), beacon), BeaconVerificationError)
  }
})

t.test('tampered beacons are rejected: unchained on G1 (quicknet RFC 9380, fastnet)', async (t) => {
  for (const f of [fixtures.quicknet, fixtures.fastnet]) {
    const good = f.beacons[1] as DrandBeacon
    const other = f.beacons[2] as DrandBeacon
    t.throws(() => verifyBeacon(keyOf(f), { ...good, signature: flipByte(good.signature, 20) }), BeaconVerificationError, `${f.chain.schemeID}: flipped signature byte`)
    t.throws(() => verifyBeacon(keyOf(f), { ...good, round: good.round + 1 }), /BLS signature does not verify/, `${f.chain.schemeID}: wrong round`)
    t.throws(() => verifyBeacon(keyOf(f), { ...good, signature: other.signature, randomness: other.randomness }), /BLS signature does not verify/, `${f.chain.schemeID}: another round's signature`)
    t.throws(() => verifyBeacon(keyOf(f), { ...good, randomness: other.randomness }), /randomness is not sha256/)
  }
})

t.test('a beacon checked against the wrong chain or scheme is rejected', async (t) => {
  const q = fixtures.quicknet.beacons[0] as DrandBeacon
  // fastnet and quicknet differ only in the DST: the scheme must be the chain's own
  t.throws(() => verifyBeacon({ publicKey: fixtures.quicknet.chain.public_key, scheme: 'bls-unchained-on-g1' }, q), /does not verify/)
  t.throws(() => verifyBeacon({ publicKey: fixtures.fastnet.chain.public_key, scheme: 'bls-unchained-g1-rfc9380' }, q), /does not verify/)
  const d = fixtures.default.beacons[1] as DrandBeacon
  t.throws(() => verifyBeacon({ publicKey: fixtures.default.chain.public_key, scheme: 'pedersen-bls-unchained' }, d), /does not verify/, 'chained beacon read as unchained')
})

t.test('pedersen-bls-unchained (signature on G2, message sha256(round)) with a generated key', async (t) => {
  const sigs = bls12_381.longSignatures
  const { secretKey, publicKey } = sigs.keygen(new Uint8Array(48).fill(7))
  const round = 123456
  const msg = beaconMessage('pedersen-bls-unchained', round)
  const signature = sigs.Signature.toBytes(sigs.sign(sigs.hash(msg, DRAND_SCHEMES['pedersen-bls-unchained'].dst), secretKey))
  const beacon: DrandBeacon = { round, signature: hex(signature), randomness: hex(sha256(signature)) }
  const key = { publicKey: hex(publicKey.toBytes()), scheme: 'pedersen-bls-unchained' as const }
  t.equal(hex(verifyBeacon(key, beacon)), beacon.randomness)
  t.throws(() => verifyBeacon(key, { ...beacon, round: round + 1 }), /does not verify/)
  t.throws(() => verifyBeacon(key, { ...beacon, signature: flipByte(beacon.signature, 50) }), BeaconVerificationError)
})
