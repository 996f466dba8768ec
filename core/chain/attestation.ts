// Attestation verifier (SPEC 2.8 rules 1-6). Every validator runs this on every block, so
// it lives in core rather than in the miner plugin that produces envelopes.
import { sha3_512Hex } from '../crypto/sha3.ts'
import { mldsa } from '../crypto/mldsa.ts'
import { findSource, isRegisteredSource, sourceComponents, aggregatorId, AGGREGATOR_PREFIX, ENTROPY_SOURCE_REGISTRY } from '../../config/entropy-sources.ts'
import type { EntropySourceEntry } from '../../config/entropy-sources.ts'
import type { NetworkParams } from './params.ts'
import type { Attestation, Block } from './types.ts'
import { BlockError, BlockErrorCode } from './errors.ts'

const HEX32 = /^[0-9a-f]{64}$/
const HEX = /^[0-9a-f]+$/

export function commitmentOf (entropyProofHex: string): string {
  return sha3_512Hex(Buffer.from(entropyProofHex, 'hex'))
}

/** The message an attestation signature covers: the commitment hex string's bytes. */
export function attestationMessage (commitment: string): Uint8Array {
  return new TextEncoder().encode(commitment)
}

function isTrusted (params: NetworkParams, source: string): boolean {
  const canonical = source.startsWith(AGGREGATOR_PREFIX) ? aggregatorId(sourceComponents(source)) : source
  return params.trustedSources.includes(canonical)
}

function reject (code: BlockErrorCode, reason: string): never {
  throw new BlockError(code, reason)
}

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

/** @param registry the source registry; only tests pass another (no built-in source has a key yet) */
export function verifyAttestation (params: NetworkParams, block: Pick<Block, 'timestamp' | 'quantum_signature'>,
  registry: readonly EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY): Attestation {
  const env = checkEnvelopePresent(block)
  if (typeof env.source !== 'string' || !isRegisteredSource(env.source, registry)) {
    reject(BlockErrorCode.ATTESTATION_UNREGISTERED_SOURCE, `entropy source '${String(env.source)}' is not registered`)
  }
  if (!isTrusted(params, env.source)) {
    reject(BlockErrorCode.ATTESTATION_UNTRUSTED_SOURCE, `entropy source '${env.source}' is not in the ${params.name} trust list`)
  }
  if (typeof env.commitment !== 'string' || env.commitment !== commitmentOf(env.entropy_proof)) {
    reject(BlockErrorCode.ATTESTATION_BAD_COMMITMENT, 'commitment differs from SHA3-512 of entropy_proof')
  }

  const h = env.health
  const b = params.healthBounds
  if (h === null || typeof h !== 'object') reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, 'health snapshot missing')
  const inRange = (v: unknown, [lo, hi]: [number, number]): boolean => typeof v === 'number' && v >= lo && v <= hi
  if (!inRange(h.monobit_ratio, b.monobit)) reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, `monobit_ratio ${String(h.monobit_ratio)} outside [${b.monobit.join(', ')}]`)
  if (!inRange(h.fano_factor, b.fano)) reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, `fano_factor ${String(h.fano_factor)} outside [${b.fano.join(', ')}]`)
  if (typeof h.pool_size !== 'number' || h.pool_size < b.minPoolSize) reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, `pool_size must be at least ${b.minPoolSize}`)
  if (typeof h.timestamp !== 'number' || Math.abs(h.timestamp - block.timestamp) > params.attestationMaxSkew) {
    reject(BlockErrorCode.ATTESTATION_BAD_HEALTH, `health timestamp must be within ${params.attestationMaxSkew}s of the block`)
  }

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
  return env
}

export interface AttestationInput {
  /** at least 64 bytes drawn from the source: the first 32 seed the header, the last 32 are the proof */
  entropy: Uint8Array
  source: string
  device: string
  proofType: string
  health: Attestation['health']
  /** ML-DSA-87 seed of the attestation key; the envelope then carries signature and public_key */
  signerSeed?: Uint8Array
}

export const ATTESTATION_VERSION = 1

export function buildAttestation (input: AttestationInput): Attestation {
  if (input.entropy.length < 64) throw new RangeError('an attestation needs at least 64 bytes of entropy')
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
  const proof = hex(input.entropy.subarray(input.entropy.length - 32))
  const commitment = commitmentOf(proof)
  const env: Attestation = {
    version: ATTESTATION_VERSION,
    entropy_seed: hex(input.entropy.subarray(0, 32)),
    entropy_proof: proof,
    commitment,
    source: input.source,
    device_id: input.device,
    proof_type: input.proofType,
    health: input.health
  }
  if (input.signerSeed !== undefined) {
    env.public_key = hex(mldsa.keygen(input.signerSeed).publicKey)
    env.signature = hex(mldsa.sign(input.signerSeed, attestationMessage(commitment)))
  }
  return env
}
