// SPEC 2.8 rules 1-6 on the verifier itself, including sources whose registry entry carries a
// public key (none does yet, so the registry is injected).
import t from 'tap'
import type { Test } from 'tap'
import crypto from 'node:crypto'
import { verifyAttestation, buildAttestation, commitmentOf, attestationMessage } from '../../../core/chain/attestation.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import type { BlockErrorCode as BlockCode } from '../../../core/chain/errors.ts'
import type { Attestation, QuantumSignature } from '../../../core/chain/types.ts'
import { ENTROPY_SOURCE_REGISTRY } from '../../../config/entropy-sources.ts'
import type { EntropySourceEntry } from '../../../config/entropy-sources.ts'
import { NETWORKS } from '../../../config/networks.ts'
import { getMldsaCore } from '../../../core/crypto/mldsa.ts'
import { testParams, makeAttestation } from '../../helpers/chain.ts'

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
  t.throws(() => buildAttestation({ entropy: crypto.randomBytes(63), source: 'self-hosted', device: 'd', proofType: 'p', health: env.health }), RangeError)
  const from100 = buildAttestation({ entropy: crypto.randomBytes(100), source: 'self-hosted', device: 'd', proofType: 'p', health: env.health })
  t.equal(from100.entropy_proof.length, 64, 'the last 32 of more bytes are the proof')
})

t.test('rule 2: the envelope must be present', async (t) => {
  rejects(t, () => verifyAttestation(params, block(null)), BlockErrorCode.ATTESTATION_MISSING)
  rejects(t, () => verifyAttestation(params, { timestamp: NOW, quantum_signature: {} as QuantumSignature }), BlockErrorCode.ATTESTATION_MISSING)
  rejects(t, () => verifyAttestation(params, { timestamp: NOW, quantum_signature: { qrng_attestation: null as unknown as Attestation } }), BlockErrorCode.ATTESTATION_MISSING)
})

t.test('rule 3: registered sources, atomic and aggregator, in any component order', async (t) => {
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
  rejects(t, () => verifyAttestation(mainnet, block(makeAttestation(NOW))), BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE, /self-hosted' is not in the mainnet trust list/)
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

t.test('rule 5: health within bounds, inclusive', async (t) => {
  const inside: Array<Partial<Attestation['health']>> = [
    { monobit_ratio: 0.40 }, { monobit_ratio: 0.60 }, { fano_factor: 0.5 }, { fano_factor: 1.5 }, { pool_size: 64 },
    { timestamp: NOW - 60 }, { timestamp: NOW + 60 }
  ]
  for (const health of inside) t.ok(verifyAttestation(params, block(makeAttestation(NOW, { health }))), `accepted ${JSON.stringify(health)}`)
  const outside: Array<[Partial<Attestation['health']>, RegExp]> = [
    [{ monobit_ratio: 0.39 }, /monobit_ratio 0.39 outside \[0.4, 0.6\]/],
    [{ monobit_ratio: 0.61 }, /monobit_ratio/],
    [{ fano_factor: 0.49 }, /fano_factor 0.49 outside \[0.5, 1.5\]/],
    [{ fano_factor: 1.51 }, /fano_factor/],
    [{ pool_size: 63 }, /pool_size must be at least 64/],
    [{ timestamp: NOW - 61 }, /within 60s of the block/],
    [{ timestamp: NOW + 61 }, /within 60s/],
    [{ monobit_ratio: '0.5' as unknown as number }, /monobit_ratio/],
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
  const registry: EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY.map((s) => s.id === 'beacon-default' ? { ...s, publicKey: sourceKey } : s)
  const source = 'beacon-default'

  t.ok(verifyAttestation(params, block(makeAttestation(NOW, { source, signer: sourceSeed })), registry), 'signed by the registered key')
  rejects(t, () => verifyAttestation(params, block(makeAttestation(NOW, { source })), registry), BlockErrorCode.ATTESTATION_MISSING_SIGNATURE, /signature is mandatory/)
  rejects(t, () => verifyAttestation(params, block({ ...makeAttestation(NOW, { source }), public_key: sourceKey }), registry), BlockErrorCode.ATTESTATION_MISSING_SIGNATURE)
  rejects(t, () => verifyAttestation(params, block({ ...makeAttestation(NOW, { source }), signature: '' }), registry), BlockErrorCode.ATTESTATION_MISSING_SIGNATURE)
  rejects(t, () => verifyAttestation(params, block(makeAttestation(NOW, { source, signer: crypto.randomBytes(32) })), registry), BlockErrorCode.ATTESTATION_KEY_MISMATCH,
    /differs from the registered key/)
  const good = makeAttestation(NOW, { source, signer: sourceSeed })
  rejects(t, () => verifyAttestation(params, block({ ...good, public_key: undefined }), registry), BlockErrorCode.ATTESTATION_KEY_MISMATCH)
  rejects(t, () => verifyAttestation(params, block({ ...good, public_key: sourceKey.toUpperCase() }), registry), BlockErrorCode.ATTESTATION_KEY_MISMATCH)
  const otherCommit = makeAttestation(NOW, { source, signer: sourceSeed })
  rejects(t, () => verifyAttestation(params, block({ ...good, signature: otherCommit.signature }), registry), BlockErrorCode.ATTESTATION_BAD_SIGNATURE,
    /does not verify/)

  // The key applies to its own source only; the default registry still has no keys.
  t.ok(verifyAttestation(params, block(makeAttestation(NOW, { source: 'beacon-fastnet' })), registry))
  t.ok(verifyAttestation(params, block(makeAttestation(NOW, { source }))), 'default registry: unsigned beacon-default accepted')
  t.ok(ENTROPY_SOURCE_REGISTRY.every((s) => s.publicKey === null), 'no built-in source has a key yet')
})
