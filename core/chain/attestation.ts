// Attestation verifier: SPEC 2.8 rules 1-6 and the envelope v2 beacon rules (docs/entropy.md).
// Every validator runs this on every block, so it lives in core rather than in the miner
// plugin that produces envelopes. Each rule has its own BlockError code, so a log line (and
// the penalty of the peer that sent the block) names exactly what failed.
import { DEFAULT_SHA3_CORE, sha3_512Hex } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import { DEFAULT_MLDSA_CORE } from '../crypto/mldsa.ts'
import type { MldsaCore } from '../crypto/mldsa.ts'
import { monobitRatio, fanoFactor } from '../entropy/health.ts'
import { isDrandScheme, DRAND_SCHEMES } from '../entropy/drand-schemes.ts'
import { prepareBeacon, checkRandomness, BeaconVerificationError } from '../entropy/beacon-verify.ts'
import { DEFAULT_BLS_CORE } from '../crypto/bls.ts'
import type { BlsCore } from '../crypto/bls.ts'
import type { BeaconPairingInput } from '../entropy/beacon-verify.ts'
import { beaconCacheKey, verifiedBeacons } from '../entropy/beacon-cache.ts'
import type { VerifiedBeacons } from '../entropy/beacon-cache.ts'
import { isRegisteredSource, sourceComponents, aggregatorId, AGGREGATOR_PREFIX, findSource, beaconComponents, beaconPin } from '../../config/entropy-sources.ts'
import type { BeaconPin } from '../../config/entropy-sources.ts'
import type { NetworkParams } from './params.ts'
import type { Attestation, BeaconEvidence, Block } from './types.ts'
import { BlockError, BlockErrorCode } from './errors.ts'
// the envelope's key lists are the block format's (shape.ts); checked again here for callers
// that verify an envelope without checkBlockFormat (the miner's pre-check, unit tests)
import { ATTESTATION_KEYS, BEACON_KEYS, HEALTH_KEYS } from './shape.ts'

const HEX32 = /^[0-9a-f]{64}$/
const HEX = /^[0-9a-f]+$/

export const ATTESTATION_VERSION = 2
/** domain separation of the v2 derivation: mix = SHA3-512(domain ‖ randomness… ‖ local_entropy) */
export const ENTROPY_DOMAIN = 'ledger-entropy-v2'
/** the most beacon rounds a block is read for before its own validation (sync batching) */
const MAX_BEACONS_PER_BLOCK = 4
/** a claimed health statistic may differ from the recomputed one by float noise, nothing more */
const HEALTH_TOLERANCE = 1e-9

export function commitmentOf (entropyProofHex: string, sha3: Sha3Core = DEFAULT_SHA3_CORE): string {
  return sha3_512Hex(Buffer.from(entropyProofHex, 'hex'), sha3)
}

/** The message an attestation signature covers: the commitment hex string's bytes. */
export function attestationMessage (commitment: string): Uint8Array {
  return new TextEncoder().encode(commitment)
}

/** The v2 derivation: seed and proof are the two halves of the mix, nothing the miner picks. */
export function deriveEntropy (randomness: readonly Uint8Array[], localEntropy: Uint8Array, sha3: Sha3Core = DEFAULT_SHA3_CORE): { seed: Uint8Array; proof: Uint8Array } {
  // a few hundred bytes: one buffer and one call into the core
  const mix = sha3.sha3_512(Buffer.concat([new TextEncoder().encode(ENTROPY_DOMAIN), ...randomness, localEntropy]))
  return { seed: mix.subarray(0, 32), proof: mix.subarray(32, 64) }
}

/** Unix time at which a beacon round is published, by its pinned schedule. */
export function beaconRoundTime (pin: Pick<BeaconPin, 'genesisTime' | 'period'>, round: number): number {
  return pin.genesisTime + (round - 1) * pin.period
}

/** The newest round published at or before `unixSeconds` (0 before genesis). */
export function beaconRoundAt (pin: Pick<BeaconPin, 'genesisTime' | 'period'>, unixSeconds: number): number {
  if (unixSeconds < pin.genesisTime) return 0
  return Math.floor((unixSeconds - pin.genesisTime) / pin.period) + 1
}

function isTrusted (params: NetworkParams, source: string): boolean {
  const canonical = source.startsWith(AGGREGATOR_PREFIX) ? aggregatorId(sourceComponents(source)) : source
  return params.trustedSources.includes(canonical)
}

function reject (code: BlockErrorCode, reason: string): never {
  throw new BlockError(code, reason)
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * Rules 2 and 1: the envelope is there and carries 32 + 32 bytes. Cheap, and run before the
 * header is hashed, since a missing envelope or malformed seed cannot be laid into a header.
 */
export function checkEnvelopePresent (block: Pick<Block, 'quantum_signature'>): Attestation {
  const env = block.quantum_signature?.qrng_attestation
  if (env === undefined || env === null || typeof env !== 'object') reject(BlockErrorCode.ATTESTATION_MISSING, 'quantum_signature carries no attestation envelope')

  if (typeof env.entropy_seed !== 'string' || !HEX32.test(env.entropy_seed) ||
      typeof env.entropy_proof !== 'string' || !HEX32.test(env.entropy_proof)) {
    reject(BlockErrorCode.ATTESTATION_INSUFFICIENT_ENTROPY, 'entropy_seed and entropy_proof must each be 32 bytes of lowercase hex (64 bytes obtained)')
  }
  return env
}

function checkShape (env: Attestation): void {
  if (env.version !== ATTESTATION_VERSION) reject(BlockErrorCode.ATTESTATION_BAD_VERSION, `attestation version ${String(env.version)} unsupported (expected ${ATTESTATION_VERSION}: beacon evidence and derived entropy)`)
  const unknown = Object.keys(env).find((k) => !(ATTESTATION_KEYS as readonly string[]).includes(k))
  if (unknown !== undefined) reject(BlockErrorCode.ATTESTATION_MALFORMED, `unknown attestation field '${unknown.slice(0, 64)}'`)
  if (typeof env.local_entropy !== 'string' || !HEX32.test(env.local_entropy)) reject(BlockErrorCode.ATTESTATION_MALFORMED, 'local_entropy must be 32 bytes of lowercase hex')
  if (!Array.isArray(env.beacons)) reject(BlockErrorCode.ATTESTATION_MALFORMED, 'beacons must be a list')
  env.beacons.forEach((b: unknown, i) => {
    if (!isObject(b)) reject(BlockErrorCode.ATTESTATION_MALFORMED, `beacons[${i}] must be an object`)
    const extra = Object.keys(b).find((k) => !(BEACON_KEYS as readonly string[]).includes(k))
    if (extra !== undefined) reject(BlockErrorCode.ATTESTATION_MALFORMED, `beacons[${i}] has unknown field '${extra.slice(0, 64)}'`)
    if (typeof b.source !== 'string' || !Number.isSafeInteger(b.round) || (b.round as number) < 1 ||
        typeof b.signature !== 'string' || typeof b.randomness !== 'string' ||
        (b.previous_signature !== undefined && typeof b.previous_signature !== 'string')) {
      reject(BlockErrorCode.ATTESTATION_MALFORMED, `beacons[${i}] needs source, a positive integer round, signature and randomness`)
    }
  })
  const h: unknown = env.health
  if (!isObject(h)) reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, 'health snapshot missing')
  const extra = Object.keys(h).find((k) => !(HEALTH_KEYS as readonly string[]).includes(k))
  if (extra !== undefined) reject(BlockErrorCode.ATTESTATION_MALFORMED, `unknown health field '${extra.slice(0, 64)}'`)
}

function checkBeacon (params: NetworkParams, blockTime: number, b: BeaconEvidence, i: number): PendingPairing {
  const pin = beaconPin(b.source, params.sourceRegistry) as BeaconPin
  if (!isDrandScheme(pin.scheme)) reject(BlockErrorCode.ATTESTATION_UNKNOWN_SCHEME, `beacons[${i}] (${b.source}): the registry pins scheme '${String(pin.scheme)}', which this node cannot verify`)
  const t = beaconRoundTime(pin, b.round)
  const w = params.beaconWindow
  if (t < blockTime - w.before) reject(BlockErrorCode.ATTESTATION_BEACON_STALE, `beacons[${i}] (${b.source}) round ${b.round} is ${Math.round(blockTime - t)} s older than the block (limit ${w.before} s)`)
  if (t > blockTime + w.after) reject(BlockErrorCode.ATTESTATION_BEACON_FUTURE, `beacons[${i}] (${b.source}) round ${b.round} is published ${Math.round(t - blockTime)} s after the block's timestamp (limit ${w.after} s)`)
  if (b.previous_signature !== undefined && !DRAND_SCHEMES[pin.scheme].chained) reject(BlockErrorCode.ATTESTATION_MALFORMED, `beacons[${i}] (${b.source}): scheme ${pin.scheme} is unchained, previous_signature must be absent`)
  let input: BeaconPairingInput
  try {
    input = prepareBeacon({ publicKey: pin.publicKey, scheme: pin.scheme }, b)
    checkRandomness(input, b.round)
  } catch (err) {
    if (!(err instanceof BeaconVerificationError)) throw err
    const code = err.failure === 'randomness'
      ? BlockErrorCode.ATTESTATION_BEACON_BAD_RANDOMNESS
      : err.failure === 'scheme' ? BlockErrorCode.ATTESTATION_UNKNOWN_SCHEME : BlockErrorCode.ATTESTATION_MALFORMED
    reject(code, `beacons[${i}] (${b.source}): ${err.message}`)
  }
  return { index: i, cacheKey: beaconCacheKey(pin.publicKey, pin.scheme, b), input }
}

export interface VerifyAttestationOptions {
  /** rounds already verified (default: the process-wide cache) */
  cache?: VerifiedBeacons
  /** the kernel's SHA3, ML-DSA and BLS cores (default: WASM SHA3, native ML-DSA, JS BLS) */
  cores?: { sha3: Sha3Core; mldsa: MldsaCore; bls?: BlsCore }
}

/** A beacon round that passed every rule but its BLS pairing (not in the cache yet). */
export interface PendingPairing {
  index: number
  cacheKey: string
  input: BeaconPairingInput
}

/** Every rule but the beacon pairings, which are returned (those not already cached). */
export function checkAttestation (params: NetworkParams, block: Pick<Block, 'timestamp' | 'quantum_signature'>, opts: VerifyAttestationOptions = {}): { env: Attestation; pending: PendingPairing[] } {
  const registry = params.sourceRegistry
  const env = checkEnvelopePresent(block)
  checkShape(env)
  if (typeof env.source !== 'string' || !isRegisteredSource(env.source, registry)) {
    reject(BlockErrorCode.ATTESTATION_UNREGISTERED_SOURCE, `entropy source '${String(env.source)}' is not registered`)
  }
  if (!isTrusted(params, env.source)) {
    reject(BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE, `entropy source '${env.source}' is not in the ${params.name} trust list`)
  }

  // evidence: exactly one round per beacon component of the source, in sorted order
  const expected = beaconComponents(env.source, registry)
  const quoted = env.beacons.map((b) => b.source)
  if (quoted.length !== expected.length || quoted.some((s, i) => s !== expected[i])) {
    reject(BlockErrorCode.ATTESTATION_BEACON_SET, `source '${env.source}' needs beacon evidence for [${expected.join(', ')}] in that order, the envelope quotes [${quoted.map((s) => s.slice(0, 64)).join(', ')}]`)
  }
  if (expected.length < params.minBeacons) {
    reject(BlockErrorCode.ATTESTATION_UNVERIFIABLE, `the ${params.name} chain needs at least ${params.minBeacons} verifiable beacon round(s); source '${env.source}' has ${expected.length}`)
  }
  const pairings = env.beacons.map((b, i) => checkBeacon(params, block.timestamp, b, i))

  const sha3 = opts.cores?.sha3 ?? DEFAULT_SHA3_CORE
  const { seed, proof } = deriveEntropy(env.beacons.map((b) => Buffer.from(b.randomness, 'hex')), Buffer.from(env.local_entropy, 'hex'), sha3)
  if (Buffer.from(seed).toString('hex') !== env.entropy_seed || Buffer.from(proof).toString('hex') !== env.entropy_proof) {
    reject(BlockErrorCode.ATTESTATION_NOT_DERIVED, `entropy_seed and entropy_proof are not SHA3-512("${ENTROPY_DOMAIN}" ‖ beacon randomness ‖ local_entropy)`)
  }
  if (typeof env.commitment !== 'string' || env.commitment !== commitmentOf(env.entropy_proof, sha3)) {
    reject(BlockErrorCode.ATTESTATION_BAD_COMMITMENT, 'commitment differs from SHA3-512 of entropy_proof')
  }
  checkHealth(params, env, block.timestamp, Buffer.concat([seed, proof]))
  checkSignature(params, env, opts.cores?.mldsa ?? DEFAULT_MLDSA_CORE)
  const cache = opts.cache ?? verifiedBeacons
  return { env, pending: pairings.filter((p) => !cache.has(p.cacheKey)) }
}

/**
 * The verdicts of the pending pairings (one per entry, computed inline or on the verify pool):
 * the first that failed rejects the block; the rest are remembered.
 */
export function settlePairings (env: Attestation, pending: readonly PendingPairing[], results: readonly boolean[], cache: VerifiedBeacons = verifiedBeacons): void {
  pending.forEach((p, i) => {
    if (results[i] === true) return
    const b = env.beacons[p.index] as BeaconEvidence
    reject(BlockErrorCode.ATTESTATION_BEACON_BAD_SIGNATURE, `beacons[${p.index}] (${b.source}) round ${b.round}: BLS signature does not verify under the registry's ${b.source} key`)
  })
  for (const p of pending) cache.add(p.cacheKey)
}

/** Every rule, the pairings inline (the costliest check last, on an envelope every other rule accepted). */
export function verifyAttestation (params: NetworkParams, block: Pick<Block, 'timestamp' | 'quantum_signature'>, opts: VerifyAttestationOptions = {}): Attestation {
  const { env, pending } = checkAttestation(params, block, opts)
  const results: boolean[] = []
  for (const p of pending) {
    const ok = (opts.cores?.bls ?? DEFAULT_BLS_CORE).pairingHolds(p.input)
    results.push(ok)
    if (!ok) break
  }
  settlePairings(env, pending, results, opts.cache)
  return env
}

/**
 * A block as far as its beacon evidence goes, its shape not checked yet: a Block, or the
 * envelope of a peer's block read before the rest of it (sync).
 */
export interface BeaconEvidenceView { quantum_signature?: unknown }

const fieldOf = (v: unknown, key: string): unknown => v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined

/**
 * The pairings a run of blocks needs, without judging anything else: for batch verification
 * before the blocks are processed (sync). Malformed evidence is skipped; the block's own
 * validation reports it.
 */
export function beaconPairingsOf (params: NetworkParams, blocks: readonly BeaconEvidenceView[], cache: VerifiedBeacons = verifiedBeacons): Array<{ cacheKey: string; input: BeaconPairingInput }> {
  const out = new Map<string, BeaconPairingInput>()
  for (const block of blocks) {
    const beacons = fieldOf(fieldOf(block.quantum_signature, 'qrng_attestation'), 'beacons')
    if (!Array.isArray(beacons)) continue
    // no registered composition names more beacons; a longer list is refused by the block's validation
    for (const b of (beacons as BeaconEvidence[]).slice(0, MAX_BEACONS_PER_BLOCK)) {
      const pin = b !== null && typeof b === 'object' && typeof b.source === 'string' ? beaconPin(b.source, params.sourceRegistry) : null
      if (pin === null || !isDrandScheme(pin.scheme)) continue
      const key = beaconCacheKey(pin.publicKey, pin.scheme, b)
      if (cache.has(key) || out.has(key)) continue
      try {
        const input = prepareBeacon({ publicKey: pin.publicKey, scheme: pin.scheme }, b)
        checkRandomness(input, b.round)
        out.set(key, input)
      } catch { /* reported by the block's validation */ }
    }
  }
  return [...out].map(([cacheKey, input]) => ({ cacheKey, input }))
}

/** Rule 5, with the statistics recomputed from the 64 revealed bytes rather than trusted. */
function checkHealth (params: NetworkParams, env: Attestation, blockTime: number, revealed: Uint8Array): void {
  const h = env.health
  const b = params.healthBounds
  const monobit = monobitRatio(revealed)
  const fano = fanoFactor(revealed)
  const near = (claimed: unknown, actual: number): boolean => typeof claimed === 'number' && Math.abs(claimed - actual) <= HEALTH_TOLERANCE
  if (!near(h.monobit_ratio, monobit)) reject(BlockErrorCode.ATTESTATION_HEALTH_MISMATCH, `monobit_ratio ${String(h.monobit_ratio)} claimed, ${monobit} computed from entropy_seed ‖ entropy_proof`)
  if (!near(h.fano_factor, fano)) reject(BlockErrorCode.ATTESTATION_HEALTH_MISMATCH, `fano_factor ${String(h.fano_factor)} claimed, ${fano} computed from entropy_seed ‖ entropy_proof`)
  const inRange = (v: number, [lo, hi]: [number, number]): boolean => v >= lo && v <= hi
  if (!inRange(monobit, b.monobit)) reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, `monobit_ratio ${monobit} outside [${b.monobit.join(', ')}]`)
  if (!inRange(fano, b.fano)) reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, `fano_factor ${fano} outside [${b.fano.join(', ')}]`)
  if (typeof h.pool_size !== 'number' || h.pool_size < b.minPoolSize) reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, `pool_size must be at least ${b.minPoolSize}`)
  if (typeof h.timestamp !== 'number' || Math.abs(h.timestamp - blockTime) > params.attestationMaxSkew) {
    reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, `health timestamp must be within ${params.attestationMaxSkew}s of the block`)
  }
}

/** Rule 6: the optional (or registry-mandated) ML-DSA-87 signature over the commitment. */
function checkSignature (params: NetworkParams, env: Attestation, mldsa: MldsaCore): void {
  const registry = params.sourceRegistry
  const registeredKey = sourceComponents(env.source).length === 1 ? findSource(env.source, registry)?.publicKey ?? null : null
  const hasSignature = typeof env.signature === 'string' && env.signature.length > 0
  if (registeredKey !== null) {
    if (!hasSignature) reject(BlockErrorCode.ATTESTATION_MISSING_SIGNATURE, `source '${env.source}' has a registered key: signature is mandatory`)
    if (env.public_key !== registeredKey) reject(BlockErrorCode.ATTESTATION_KEY_MISMATCH, 'envelope public_key differs from the registered key')
  }
  if (hasSignature) {
    const sig = env.signature as string
    const pub = env.public_key
    if (typeof pub !== 'string' || !HEX.test(pub) || !HEX.test(sig) ||
        !mldsa.verify(Buffer.from(pub, 'hex'), attestationMessage(env.commitment), Buffer.from(sig, 'hex'))) {
      reject(BlockErrorCode.ATTESTATION_BAD_SIGNATURE, 'ML-DSA-87 signature over the commitment does not verify')
    }
  }
}

/** What a block's envelope proves, for views: verifiable = at least one beacon round backs it. */
export function attestationFacts (qs: Block['quantum_signature']): { entropy_verifiable: boolean; beacon_rounds: Array<{ source: string; round: number }> } {
  const beacons = qs?.qrng_attestation?.beacons
  const rounds = Array.isArray(beacons) ? beacons.map((b) => ({ source: b.source, round: b.round })) : []
  return { entropy_verifiable: rounds.length > 0, beacon_rounds: rounds }
}

export interface AttestationInput {
  /** evidence of every beacon component of `source`, sorted by source id (may be empty) */
  beacons: BeaconEvidence[]
  /** 32 bytes from the entropy source, mixed with the beacons' randomness */
  localEntropy: Uint8Array
  source: string
  device: string
  proofType: string
  /** pool_size and timestamp of the health snapshot; the statistics are computed here */
  poolSize: number
  timestamp: number
  /** ML-DSA-87 seed of the attestation key; the envelope then carries signature and public_key */
  signerSeed?: Uint8Array
  /** the miner's kernel's cores (default: WASM SHA3, native ML-DSA) */
  cores?: { sha3: Sha3Core; mldsa: MldsaCore }
}

/** Builds a v2 envelope. Its health may fall outside the chain's bounds (about 1 in 10^5): callers draw new local entropy then. */
export function buildAttestation (input: AttestationInput): Attestation {
  if (input.localEntropy.length !== 32) throw new RangeError('local entropy must be 32 bytes')
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
  const sha3 = input.cores?.sha3 ?? DEFAULT_SHA3_CORE
  const mldsa = input.cores?.mldsa ?? DEFAULT_MLDSA_CORE
  const { seed, proof } = deriveEntropy(input.beacons.map((b) => Buffer.from(b.randomness, 'hex')), input.localEntropy, sha3)
  const revealed = Buffer.concat([seed, proof])
  const proofHex = hex(proof)
  const commitment = commitmentOf(proofHex, sha3)
  const env: Attestation = {
    version: ATTESTATION_VERSION,
    entropy_seed: hex(seed),
    entropy_proof: proofHex,
    commitment,
    source: input.source,
    device_id: input.device,
    proof_type: input.proofType,
    health: { monobit_ratio: monobitRatio(revealed), fano_factor: fanoFactor(revealed), pool_size: input.poolSize, timestamp: input.timestamp },
    beacons: input.beacons.map((b) => ({ ...b })),
    local_entropy: hex(input.localEntropy)
  }
  if (input.signerSeed !== undefined) {
    env.public_key = hex(mldsa.keygen(input.signerSeed).publicKey)
    env.signature = hex(mldsa.sign(input.signerSeed, attestationMessage(commitment)))
  }
  return env
}
