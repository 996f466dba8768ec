// SPEC 2.8 rules 1-6 and the envelope v2 beacon rules on the verifier itself, including
// sources whose registry entry carries a public key (none does yet, so the registry is
// injected), and the real drand rounds of test/fixtures/drand under the real pinned keys.
import t from 'tap'
import type { Test } from 'tap'
import crypto from 'node:crypto'
import { readFileSync } from 'node:fs'
import { verifyAttestation, buildAttestation, commitmentOf, attestationMessage, attestationFacts } from '../../../core/chain/attestation.ts'
import { VerifiedBeacons } from '../../../core/entropy/beacon-cache.ts'
import { beaconSigner } from '../../../core/entropy/beacon-signer.ts'
import { healthViolation } from '../../../core/entropy/health.ts'
import type { DrandScheme } from '../../../core/entropy/drand-schemes.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import type { BlockErrorCode as BlockCode } from '../../../core/chain/errors.ts'
import type { Attestation, BeaconEvidence, QuantumSignature } from '../../../core/chain/types.ts'
import { ENTROPY_SOURCE_REGISTRY, DEVNET_BEACON } from '../../../config/entropy-sources.ts'
import type { EntropySourceEntry } from '../../../config/entropy-sources.ts'
import { NETWORKS } from '../../../config/networks.ts'
import { getMldsaCore } from '../../../core/crypto/mldsa.ts'
import { testParams, makeAttestation, rederive, TEST_REGISTRY } from '../../helpers/chain.ts'
import { monobitRatio, fanoFactor } from '../../../core/entropy/health.ts'
import { seededBytes } from '../../helpers/random.ts'

const params = testParams()
const NOW = 1767225700
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const block = (env: Attestation | null, timestamp = NOW): { timestamp: number; quantum_signature: QuantumSignature | null } =>
  ({ timestamp, quantum_signature: env === null ? null : { qrng_attestation: env } })

function rejects (t: Test, fn: () => unknown, expected: BlockCode, reason?: RegExp): void {
  try { fn(); t.fail(`expected ${expected}`) } catch (err) {
    if (!(err instanceof BlockError)) { t.fail(`not a BlockError: ${String(err)}`); return }
    t.equal(err.code, expected, reason?.source ?? expected)
    if (reason !== undefined) t.match(err.message, reason)
  }
}

t.test('a well-formed envelope passes and is returned', async (t) => {
  const env = makeAttestation(NOW)
  t.equal(verifyAttestation(params, block(env)), env)
  t.equal(env.commitment, crypto.createHash('sha3-512').update(Buffer.from(env.entropy_proof, 'hex')).digest('hex'))
})

t.test('rule 1: 64 bytes obtained, 32 seed + 32 proof', async (t) => {
  const env = makeAttestation(NOW)
  const cases: Array<[string, Partial<Attestation>]> = [
    ['short seed', { entropy_seed: env.entropy_seed.slice(2) }],
    ['short proof', { entropy_proof: env.entropy_proof.slice(2), commitment: commitmentOf(env.entropy_proof.slice(2)) }],
    ['long proof', { entropy_proof: env.entropy_proof + 'ab', commitment: commitmentOf(env.entropy_proof + 'ab') }],
    ['upper-case seed', { entropy_seed: env.entropy_seed.toUpperCase() }],
    ['non-string seed', { entropy_seed: 7 as unknown as string }]
  ]
  for (const [name, change] of cases) {
    rejects(t, () => verifyAttestation(params, block({ ...env, ...change })), BlockErrorCode.ATTESTATION_INSUFFICIENT_ENTROPY, /32 bytes/)
    t.pass(name)
  }
  const input = { beacons: [], source: 'self-hosted', device: 'd', proofType: 'p', poolSize: 64, timestamp: NOW }
  t.throws(() => buildAttestation({ ...input, localEntropy: seededBytes('31 bytes', 31) }), RangeError)
  t.throws(() => buildAttestation({ ...input, localEntropy: seededBytes('33 bytes', 33) }), RangeError)
})

t.test('rule 2: the envelope must be present', async (t) => {
  rejects(t, () => verifyAttestation(params, block(null)), BlockErrorCode.ATTESTATION_MISSING)
  rejects(t, () => verifyAttestation(params, { timestamp: NOW, quantum_signature: {} as QuantumSignature }), BlockErrorCode.ATTESTATION_MISSING)
  rejects(t, () => verifyAttestation(params, { timestamp: NOW, quantum_signature: { qrng_attestation: null as unknown as Attestation } }), BlockErrorCode.ATTESTATION_MISSING)
})

t.test('rule 3: registered sources, atomic and aggregator, in any component order', async (t) => {
  const params = testParams({ minBeacons: 0 })
  const ok = ['self-hosted', 'beacon-default', 'beacon-fastnet', 'aggregator:beacon-default', 'aggregator:self-hosted+beacon-default',
    'aggregator:beacon-default+self-hosted', 'aggregator:beacon-fastnet+self-hosted+beacon-default',
    'aggregator:self-hosted+beacon-fastnet+beacon-default', 'aggregator:beacon-default+beacon-fastnet+self-hosted']
  for (const source of ok) t.ok(verifyAttestation(params, block(makeAttestation(NOW, { source }))), `${source} accepted`)
  const unregistered = ['quantum-magic', '', 'aggregator:', 'aggregator:beacon-default+unknown', 'aggregator:unknown+self-hosted',
    'aggregator:beacon-default+beacon-default', 'aggregator:beacon-default+', 'aggregator:aggregator:beacon-default', 'Self-Hosted']
  for (const source of unregistered) {
    rejects(t, () => verifyAttestation(params, block(makeAttestation(NOW, { source }))), BlockErrorCode.ATTESTATION_UNREGISTERED_SOURCE, /not registered/)
  }
  rejects(t, () => verifyAttestation(params, block({ ...makeAttestation(NOW), source: 5 as unknown as string })), BlockErrorCode.ATTESTATION_UNREGISTERED_SOURCE)
})

t.test('trust list: registered but untrusted sources are refused', async (t) => {
  const mainnet = testParams({ name: 'mainnet', trustedSources: NETWORKS.mainnet.trustedSources })
  rejects(t, () => verifyAttestation(mainnet, block(makeAttestation(NOW, { source: 'self-hosted' }))), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE, /self-hosted' is not in the mainnet trust list/)
  rejects(t, () => verifyAttestation(mainnet, block(makeAttestation(NOW))), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE, /beacon-devnet' is not in the mainnet trust list/)
  rejects(t, () => verifyAttestation(mainnet, block(makeAttestation(NOW, { source: 'aggregator:self-hosted+beacon-default' }))), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE)
  t.ok(verifyAttestation(mainnet, block(makeAttestation(NOW, { source: 'aggregator:beacon-fastnet+beacon-default' }))))
  t.ok(verifyAttestation(mainnet, block(makeAttestation(NOW, { source: 'beacon-default' }))))
  rejects(t, () => verifyAttestation(params, block(makeAttestation(NOW, { source: 'hardware-qrng-v1' }))), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE, /planned|trust list/)
})

t.test('rule 4: commitment = SHA3-512 of entropy_proof', async (t) => {
  const env = makeAttestation(NOW)
  rejects(t, () => verifyAttestation(params, block({ ...env, commitment: commitmentOf(env.entropy_seed) })), BlockErrorCode.ATTESTATION_BAD_COMMITMENT)
  rejects(t, () => verifyAttestation(params, block({ ...env, commitment: env.commitment.toUpperCase() })), BlockErrorCode.ATTESTATION_BAD_COMMITMENT)
  rejects(t, () => verifyAttestation(params, block({ ...env, commitment: undefined as unknown as string })), BlockErrorCode.ATTESTATION_BAD_COMMITMENT)
})

t.test('rule 5: health recomputed from the 64 revealed bytes, within bounds, inclusive', async (t) => {
  const env = makeAttestation(NOW)
  const revealed = Buffer.from(env.entropy_seed + env.entropy_proof, 'hex')
  t.equal(env.health.monobit_ratio, monobitRatio(revealed), 'monobit of seed ‖ proof')
  t.equal(env.health.fano_factor, fanoFactor(revealed), 'fano of seed ‖ proof')
  const m = env.health.monobit_ratio
  const f = env.health.fano_factor
  const bounds = (monobit: [number, number], fano: [number, number]) => testParams({ healthBounds: { monobit, fano, minPoolSize: 64 } })
  t.ok(verifyAttestation(bounds([m, m], [f, f]), block(env)), 'the bounds are inclusive')
  rejects(t, () => verifyAttestation(bounds([m + 1 / 512, 1], [0, 2]), block(env)), BlockErrorCode.ATTESTATION_BAD_HEALTH, /monobit_ratio .* outside/)
  rejects(t, () => verifyAttestation(bounds([0, 1], [f + 1e-6, 2]), block(env)), BlockErrorCode.ATTESTATION_BAD_HEALTH, /fano_factor .* outside/)
  for (const health of [{ pool_size: 64 }, { timestamp: NOW - 60 }, { timestamp: NOW + 60 }]) {
    t.ok(verifyAttestation(params, block(makeAttestation(NOW, { health }))), `accepted ${JSON.stringify(health)}`)
  }
  const lies: Array<Partial<Attestation['health']>> = [{ monobit_ratio: 0.5 + (m === 0.5 ? 0.01 : 0) }, { fano_factor: f + 0.001 }, { monobit_ratio: '0.5' as unknown as number }]
  for (const health of lies) {
    rejects(t, () => verifyAttestation(params, block({ ...env, health: { ...env.health, ...health } })), BlockErrorCode.ATTESTATION_HEALTH_MISMATCH, /claimed, .* computed/)
  }
  const outside: Array<[Partial<Attestation['health']>, RegExp]> = [
    [{ pool_size: 63 }, /pool_size must be at least 64/],
    [{ timestamp: NOW - 61 }, /within 60s of the block/],
    [{ timestamp: NOW + 61 }, /within 60s/],
    [{ pool_size: undefined as unknown as number }, /pool_size/]
  ]
  for (const [health, reason] of outside) {
    rejects(t, () => verifyAttestation(params, block(makeAttestation(NOW, { health }))), BlockErrorCode.ATTESTATION_BAD_HEALTH, reason)
  }
  rejects(t, () => verifyAttestation(params, block({ ...makeAttestation(NOW), health: null as unknown as Attestation['health'] })), BlockErrorCode.ATTESTATION_BAD_HEALTH, /missing/)
})

t.test('rule 6, no registered key: signature optional, verified when present', async (t) => {
  const signer = crypto.randomBytes(32)
  const signed = makeAttestation(NOW, { signer })
  t.equal(signed.public_key, hex(getMldsaCore('native').keygen(signer).publicKey))
  t.ok(getMldsaCore('noble').verify(Buffer.from(signed.public_key as string, 'hex'), attestationMessage(signed.commitment), Buffer.from(signed.signature as string, 'hex')),
    'the signature covers the commitment hex text')
  t.ok(verifyAttestation(params, block(signed)), 'valid optional signature accepted')
  t.ok(verifyAttestation(params, block({ ...makeAttestation(NOW), public_key: signed.public_key })), 'a key without a signature is ignored')

  const other = makeAttestation(NOW, { signer: crypto.randomBytes(32) })
  const bad: Array<[string, Partial<Attestation>]> = [
    ['signature of another commitment', { signature: other.signature }],
    ['signature by another key', { public_key: other.public_key }],
    ['truncated signature', { signature: (signed.signature as string).slice(0, -2) }],
    ['non-hex signature', { signature: 'zz' + (signed.signature as string).slice(2) }],
    ['signature without key', { public_key: undefined }]
  ]
  for (const [name, change] of bad) {
    rejects(t, () => verifyAttestation(params, block({ ...signed, ...change })), BlockErrorCode.ATTESTATION_BAD_SIGNATURE)
    t.pass(name)
  }
})

t.test('rule 6, registered key: signature mandatory, key must match', async (t) => {
  const sourceSeed = crypto.randomBytes(32)
  const sourceKey = hex(getMldsaCore('native').keygen(sourceSeed).publicKey)
  const registry: EntropySourceEntry[] = TEST_REGISTRY.map((s) => s.id === 'beacon-default' ? { ...s, publicKey: sourceKey } : s)
  const keyed = testParams({ sourceRegistry: registry })
  const source = 'beacon-default'

  t.ok(verifyAttestation(keyed, block(makeAttestation(NOW, { source, signer: sourceSeed }))), 'signed by the registered key')
  rejects(t, () => verifyAttestation(keyed, block(makeAttestation(NOW, { source }))), BlockErrorCode.ATTESTATION_MISSING_SIGNATURE, /signature is mandatory/)
  rejects(t, () => verifyAttestation(keyed, block({ ...makeAttestation(NOW, { source }), public_key: sourceKey })), BlockErrorCode.ATTESTATION_MISSING_SIGNATURE)
  rejects(t, () => verifyAttestation(keyed, block({ ...makeAttestation(NOW, { source }), signature: '' })), BlockErrorCode.ATTESTATION_MISSING_SIGNATURE)
  rejects(t, () => verifyAttestation(keyed, block(makeAttestation(NOW, { source, signer: crypto.randomBytes(32) }))), BlockErrorCode.ATTESTATION_KEY_MISMATCH,
    /differs from the registered key/)
  const good = makeAttestation(NOW, { source, signer: sourceSeed })
  rejects(t, () => verifyAttestation(keyed, block({ ...good, public_key: undefined })), BlockErrorCode.ATTESTATION_KEY_MISMATCH)
  rejects(t, () => verifyAttestation(keyed, block({ ...good, public_key: sourceKey.toUpperCase() })), BlockErrorCode.ATTESTATION_KEY_MISMATCH)
  const otherCommit = makeAttestation(NOW, { source, signer: sourceSeed })
  rejects(t, () => verifyAttestation(keyed, block({ ...good, signature: otherCommit.signature })), BlockErrorCode.ATTESTATION_BAD_SIGNATURE,
    /does not verify/)

  // The key applies to its own source only; the default registry still has no keys.
  t.ok(verifyAttestation(keyed, block(makeAttestation(NOW, { source: 'beacon-fastnet' }))))
  t.ok(verifyAttestation(params, block(makeAttestation(NOW, { source }))), 'test registry without ML-DSA keys: unsigned beacon-default accepted')
  t.ok(ENTROPY_SOURCE_REGISTRY.every((s) => s.publicKey === null), 'no built-in source has a key yet')
})

// ---- envelope v2: beacon evidence

interface Fixture { chain: { public_key: string; period: number; genesis_time: number; hash: string; schemeID: string }; beacons: Array<{ round: number; randomness: string; signature: string; previous_signature?: string }> }
const fixture = (name: string): Fixture => JSON.parse(readFileSync(new URL(`../../fixtures/drand/${name}.json`, import.meta.url), 'utf8')) as Fixture

/** A valid envelope quoting the given rounds (local entropy redrawn until the health bounds pass). */
function envelopeOf (p: NetworkParams, source: string, beacons: BeaconEvidence[], timestamp: number): Attestation {
  for (let draw = 0; ; draw++) {
    const env = buildAttestation({ beacons, localEntropy: seededBytes(`local entropy ${source} ${timestamp} ${draw}`, 32), source, device: 'd', proofType: 'p', poolSize: 65536, timestamp })
    if (healthViolation(env.health, p.healthBounds) === null) return env
  }
}

const evidence = (source: string, b: Fixture['beacons'][number]): BeaconEvidence =>
  ({ source, round: b.round, signature: b.signature, randomness: b.randomness, ...(b.previous_signature === undefined ? {} : { previous_signature: b.previous_signature }) })

t.test('the real drand rounds pass the block verifier under the registry-pinned keys (mainnet rules)', async (t) => {
  const mainnet = testParams({ name: 'mainnet', trustedSources: NETWORKS.mainnet.trustedSources, sourceRegistry: ENTROPY_SOURCE_REGISTRY, minBeacons: 1 })
  const cases: Array<[string, string]> = [['default', 'beacon-default'], ['quicknet', 'beacon-fastnet']]
  for (const [name, source] of cases) {
    const f = fixture(name)
    const pin = ENTROPY_SOURCE_REGISTRY.find((e) => e.id === source)?.beacon
    t.equal(pin?.publicKey, f.chain.public_key, `${source} pins the ${name} chain key`)
    t.equal(pin?.scheme, f.chain.schemeID)
    t.equal(pin?.chainHash, f.chain.hash)
    for (const b of f.beacons) {
      const roundTime = f.chain.genesis_time + (b.round - 1) * f.chain.period
      const env = envelopeOf(mainnet, source, [evidence(source, b)], roundTime + 30)
      t.ok(verifyAttestation(mainnet, block(env, roundTime + 30), { cache: new VerifiedBeacons() }), `${name} round ${b.round} (${f.chain.schemeID})`)
      const flipped = { ...b, signature: b.signature.slice(0, -2) + (b.signature.endsWith('00') ? '01' : '00') }
      flipped.randomness = crypto.createHash('sha256').update(Buffer.from(flipped.signature, 'hex')).digest('hex')
      rejects(t, () => verifyAttestation(mainnet, block(rederive({ ...env, beacons: [evidence(source, flipped)] }), roundTime + 30), { cache: new VerifiedBeacons() }),
        BlockErrorCode.ATTESTATION_BEACON_BAD_SIGNATURE)
    }
  }
  // both beacons at once: one round of each, in source order
  const d = fixture('default').beacons.at(-1)!
  const q = fixture('quicknet')
  const dTime = 1595431050 + (d.round - 1) * 30
  // the fixtures share no moment, so the pair is checked under a quicknet pin shifted in time (same key)
  const b = q.beacons[0]!
  const shifted = ENTROPY_SOURCE_REGISTRY.map((e) => e.id === 'beacon-fastnet' && e.beacon != null ? { ...e, beacon: { ...e.beacon, genesisTime: dTime - (b.round - 1) * 3 } } : e)
  const both = testParams({ name: 'mainnet', trustedSources: NETWORKS.mainnet.trustedSources, sourceRegistry: shifted, minBeacons: 1 })
  const env = envelopeOf(both, 'aggregator:beacon-default+beacon-fastnet', [evidence('beacon-default', d), evidence('beacon-fastnet', b)], dTime + 2)
  t.ok(verifyAttestation(both, block(env, dTime + 2)), 'aggregator:beacon-default+beacon-fastnet')
  rejects(t, () => verifyAttestation(both, block({ ...env, beacons: [...env.beacons].reverse() }, dTime + 2)), BlockErrorCode.ATTESTATION_BEACON_SET, /in that order/)
})

t.test('the fastnet scheme (signatures on G1 under the G2 tag) verifies too, pinned through an injected registry', async (t) => {
  const f = fixture('fastnet')
  const registry = TEST_REGISTRY.map((e) => e.id === 'beacon-fastnet' && e.beacon != null
    ? { ...e, beacon: { scheme: 'bls-unchained-on-g1' as const, publicKey: f.chain.public_key, period: f.chain.period, genesisTime: f.chain.genesis_time, chainHash: f.chain.hash } }
    : e)
  const p = testParams({ sourceRegistry: registry, minBeacons: 1 })
  for (const b of f.beacons) {
    const roundTime = f.chain.genesis_time + (b.round - 1) * f.chain.period
    t.ok(verifyAttestation(p, block(envelopeOf(p, 'beacon-fastnet', [evidence('beacon-fastnet', b)], roundTime), roundTime)), `fastnet round ${b.round}`)
  }
})

t.test('unknown scheme: a pin this node cannot verify refuses the block', async (t) => {
  const registry = TEST_REGISTRY.map((e) => e.id === 'beacon-devnet' && e.beacon != null ? { ...e, beacon: { ...e.beacon, scheme: 'bls-on-a-new-curve' as unknown as DrandScheme } } : e)
  rejects(t, () => verifyAttestation(testParams({ sourceRegistry: registry }), block(makeAttestation(NOW))), BlockErrorCode.ATTESTATION_UNKNOWN_SCHEME, /pins scheme 'bls-on-a-new-curve'/)
})

t.test('the derivation: mix = SHA3-512("ledger-entropy-v2" ‖ randomness… ‖ local_entropy), seed and proof its halves', async (t) => {
  const env = makeAttestation(NOW, { source: 'aggregator:beacon-devnet+beacon-fastnet' })
  t.same(env.beacons.map((b) => b.source), ['beacon-devnet', 'beacon-fastnet'])
  const mix = crypto.createHash('sha3-512').update('ledger-entropy-v2')
    .update(Buffer.from(env.beacons[0]!.randomness, 'hex')).update(Buffer.from(env.beacons[1]!.randomness, 'hex'))
    .update(Buffer.from(env.local_entropy, 'hex')).digest('hex')
  t.equal(env.entropy_seed, mix.slice(0, 64))
  t.equal(env.entropy_proof, mix.slice(64))
  t.ok(verifyAttestation(params, block(env)))
  const noBeacon = makeAttestation(NOW, { source: 'self-hosted', params: testParams({ minBeacons: 0 }) })
  t.equal(noBeacon.entropy_seed, crypto.createHash('sha3-512').update('ledger-entropy-v2').update(Buffer.from(noBeacon.local_entropy, 'hex')).digest('hex').slice(0, 64), 'no beacon: local entropy alone')
  t.same(attestationFacts({ qrng_attestation: env }), { entropy_verifiable: true, beacon_rounds: env.beacons.map((b) => ({ source: b.source, round: b.round })) })
  t.same(attestationFacts({ qrng_attestation: noBeacon }), { entropy_verifiable: false, beacon_rounds: [] })
  t.same(attestationFacts(null), { entropy_verifiable: false, beacon_rounds: [] })
})

t.test('round time window: 60 s before the block .. 5 s after, both edges inclusive', async (t) => {
  const pin = DEVNET_BEACON.pin
  const round = 1000
  const roundTime = pin.genesisTime + (round - 1) * pin.period
  const env = (ts: number): Attestation => makeAttestation(ts, { rounds: { 'beacon-devnet': round } })
  t.ok(verifyAttestation(params, block(env(roundTime + 60), roundTime + 60)), 'exactly 60 s old')
  t.ok(verifyAttestation(params, block(env(roundTime - 5), roundTime - 5)), 'published exactly 5 s after the block')
  rejects(t, () => verifyAttestation(params, block(env(roundTime + 60.5), roundTime + 60.5)), BlockErrorCode.ATTESTATION_BEACON_STALE)
  rejects(t, () => verifyAttestation(params, block(env(roundTime - 5.5), roundTime - 5.5)), BlockErrorCode.ATTESTATION_BEACON_FUTURE)
})

t.test('each (key, round, signature) is paired once; only successes are remembered', async (t) => {
  const cache = new VerifiedBeacons()
  const env = makeAttestation(NOW)
  verifyAttestation(params, block(env), { cache })
  t.equal(cache.size, 1)
  verifyAttestation(params, block(makeAttestation(NOW)), { cache })
  t.equal(cache.size, 1, 'a second block quoting the same round hits the cache')
  const other = beaconSigner('bls-unchained-g1-rfc9380', crypto.randomBytes(48)).sign(env.beacons[0]!.round)
  const forged = rederive({ ...env, beacons: [{ ...env.beacons[0]!, signature: other.signature, randomness: other.randomness }] })
  rejects(t, () => verifyAttestation(params, block(forged), { cache }), BlockErrorCode.ATTESTATION_BEACON_BAD_SIGNATURE)
  t.equal(cache.size, 1, 'a failure is not cached')
  const small = new VerifiedBeacons(2)
  for (const k of ['a', 'b', 'c']) small.add(k)
  t.notOk(small.has('a'), 'the oldest entry is evicted')
  t.ok(small.has('c'))
})

t.test('the devnet beacon key is the one derived from its public seed', async (t) => {
  const signer = beaconSigner(DEVNET_BEACON.pin.scheme, Buffer.from(DEVNET_BEACON.seed, 'hex'))
  t.equal(signer.publicKey, DEVNET_BEACON.pin.publicKey)
  t.equal(DEVNET_BEACON.seed, crypto.createHash('sha384').update('ledger devnet beacon').digest('hex'))
  const p = DEVNET_BEACON.pin
  t.equal(p.chainHash, crypto.createHash('sha256').update(`${p.scheme}|${p.publicKey}|${p.period}|${p.genesisTime}`).digest('hex'))
  t.equal(p.genesisTime, NETWORKS.devnet.genesisTimestamp)
  t.equal(p.period, 3)
})
