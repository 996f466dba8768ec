// Writes test/vectors/bls.json, the vector file every BLS core (core/crypto/bls.ts) must pass:
// the real drand rounds of test/fixtures/drand (three schemes, both signature groups) and
// devnet rounds must verify, alone and in batches; forgeries must not (a flipped signature
// byte, another round's message, another beacon's key, the point at infinity, a curve point
// outside the prime-order subgroup, a batch holding one bad round). Run after changing a
// fixture:  node scripts/gen-bls-vectors.ts
// Only the inputs are generated; what a core must answer is fixed by the file ("verifies").
import { readFileSync, writeFileSync } from 'node:fs'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { prepareBeacon } from '../core/entropy/beacon-verify.ts'
import type { DrandBeacon } from '../core/entropy/beacon-verify.ts'
import type { DrandScheme } from '../core/entropy/drand-schemes.ts'
import { devnetRound } from '../core/entropy/devnet-beacon.ts'
import { DEVNET_BEACON } from '../config/entropy-sources.ts'

interface Case { name: string; scheme: DrandScheme; public_key: string; message: string; signature: string; verifies: boolean }
interface Batch { name: string; cases: number[]; verifies: boolean }

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const cases: Case[] = []
const batches: Batch[] = []

function add (name: string, key: { publicKey: string; scheme: DrandScheme }, beacon: DrandBeacon, verifies = true): number {
  const p = prepareBeacon(key, beacon)
  cases.push({ name, scheme: p.scheme, public_key: hex(p.publicKey), message: hex(p.message), signature: hex(p.signature), verifies })
  return cases.length - 1
}
const derived = (from: number, name: string, change: Partial<Case>): number => {
  cases.push({ ...(cases[from] as Case), name, ...change, verifies: false })
  return cases.length - 1
}
const flip = (h: string, byte: number): string => { const b = Buffer.from(h, 'hex'); b[byte]! ^= 0x01; return b.toString('hex') }

/** A point of E(Fp) (y² = x³ + 4) outside G1, compressed: the smallest x ≥ 1 whose point has order ≠ r. */
function g1PointOutsideSubgroup (): string {
  const { Fp } = bls12_381.fields
  for (let x = 1n; ; x++) {
    const rhs = Fp.add(Fp.pow(x, 3n), 4n)
    let y: bigint
    try { y = Fp.sqrt(rhs) } catch { continue }
    const point = bls12_381.G1.Point.fromAffine({ x, y })
    if (point.isTorsionFree()) continue
    const bytes = Buffer.alloc(48)
    let v = x
    for (let i = 47; i >= 0; i--) { bytes[i] = Number(v & 0xffn); v >>= 8n }
    bytes[0]! |= 0x80 // compressed
    if (y * 2n > Fp.ORDER) bytes[0]! |= 0x20 // the larger square root
    return bytes.toString('hex')
  }
}

const fixtures: Array<{ file: string; key: { publicKey: string; scheme: DrandScheme }; beacons: DrandBeacon[] }> = ['quicknet', 'default', 'fastnet'].map((file) => {
  const f = JSON.parse(readFileSync(new URL(`../test/fixtures/drand/${file}.json`, import.meta.url), 'utf8')) as { chain: { public_key: string; schemeID: DrandScheme }; beacons: DrandBeacon[] }
  return { file, key: { publicKey: f.chain.public_key, scheme: f.chain.schemeID }, beacons: f.beacons }
})
for (const f of fixtures) {
  const idx = f.beacons.map((b) => add(`${f.file} round ${b.round}`, f.key, b))
  const first = idx[0] as number
  const second = idx[1] as number
  const sigBytes = (cases[first] as Case).signature.length / 2
  derived(first, `${f.file}: a flipped signature byte`, { signature: flip((cases[first] as Case).signature, sigBytes - 1) })
  derived(first, `${f.file}: another round's message`, { message: (cases[second] as Case).message })
  derived(first, `${f.file}: the point at infinity as signature`, { signature: 'c0' + '00'.repeat(sigBytes - 1) })
  if (idx.length >= 3) batches.push({ name: `${f.file}: ${idx.length} real rounds`, cases: idx, verifies: true })
  const bad = derived(second, `${f.file}: a signature of the wrong round`, { signature: (cases[first] as Case).signature })
  batches.push({ name: `${f.file}: real rounds and one wrong signature`, cases: [...idx.slice(0, 1), bad, ...idx.slice(2)], verifies: false })
}
// signatures on G1 under another beacon's G2 key (quicknet round, devnet key)
const quick = cases.findIndex((c) => c.name.startsWith('quicknet round'))
derived(quick, 'quicknet round under the devnet key', { public_key: DEVNET_BEACON.pin.publicKey })
derived(quick, 'quicknet: a G1 point outside the subgroup as signature', { signature: g1PointOutsideSubgroup() })
// devnet rounds (signed by the published devnet key), one beacon's run as sync batches them
const devnet = Array.from({ length: 16 }, (_, i) => add(`devnet round ${1000 + i}`, DEVNET_BEACON.pin, devnetRound(1000 + i)))
batches.push({ name: 'devnet: 16 consecutive rounds', cases: devnet, verifies: true })
const swapped = derived(devnet[3] as number, 'devnet round 1003 carrying round 1004\'s signature', { signature: (cases[devnet[4] as number] as Case).signature })
batches.push({ name: 'devnet: 16 rounds, one carrying another round\'s signature', cases: devnet.map((i, k) => k === 3 ? swapped : i), verifies: false })

const out = {
  description: 'BLS12-381 beacon-signature vectors for every BLS core (core/crypto/bls.ts). Generated by scripts/gen-bls-vectors.ts from test/fixtures/drand (real drand rounds) and the devnet beacon; `verifies` is the answer a core must give for a case alone, and for a batch (one beacon\'s rounds checked together).',
  cases,
  batches
}
writeFileSync(new URL('../test/vectors/bls.json', import.meta.url), JSON.stringify(out, null, 2) + '\n')
console.log(`test/vectors/bls.json: ${cases.length} cases, ${batches.length} batches`)
