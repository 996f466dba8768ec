// Builds valid v2 envelopes for a given moment without an entropy service: for tools that
// make chains (tests, benchmarks, the devnet e2e). Beacon rounds come from signers the caller
// holds; the devnet beacon's is built in (its key is public).
import { randomBytes } from 'node:crypto'
import { beaconComponents, beaconPin } from '../../config/entropy-sources.ts'
import { devnetRound } from '../entropy/devnet-beacon.ts'
import type { DrandBeacon } from '../entropy/beacon-verify.ts'
import { healthViolation } from '../entropy/health.ts'
import { buildAttestation, beaconRoundAt } from './attestation.ts'
import type { NetworkParams } from './params.ts'
import type { Attestation, BeaconEvidence } from './types.ts'

/** Signs a round of one beacon (chained schemes: over some previous signature). */
export type RoundSigner = (round: number) => DrandBeacon

export interface EnvelopeOptions {
  /** default: beacon-devnet */
  source?: string
  /** signers of beacons other than beacon-devnet, by source id */
  signers?: Readonly<Record<string, RoundSigner>>
  /** quote this round instead of the newest one at the timestamp, per source id */
  rounds?: Readonly<Record<string, number>>
  /** ML-DSA-87 seed: the envelope is then signed (rule 6) */
  signerSeed?: Uint8Array
  device?: string
  proofType?: string
  poolSize?: number
  /** where local entropy comes from (tests pass a seeded stream); default node:crypto */
  random?: (n: number) => Uint8Array
}

export function evidenceFor (params: NetworkParams, source: string, timestamp: number, opts: EnvelopeOptions = {}): BeaconEvidence[] {
  return beaconComponents(source, params.sourceRegistry).map((id) => {
    const pin = beaconPin(id, params.sourceRegistry)
    if (pin === null) throw new Error(`${id} is no beacon`)
    const round = opts.rounds?.[id] ?? beaconRoundAt(pin, timestamp)
    const sign = id === 'beacon-devnet' ? devnetRound : opts.signers?.[id]
    if (sign === undefined) throw new Error(`no signer for beacon ${id}`)
    const b = sign(round)
    const e: BeaconEvidence = { source: id, round: b.round, signature: b.signature, randomness: b.randomness }
    if (b.previous_signature !== undefined) e.previous_signature = b.previous_signature
    return e
  })
}

/** A v2 envelope whose every rule holds at `timestamp` (fresh local entropy until the health bounds pass). */
export function envelopeAt (params: NetworkParams, timestamp: number, opts: EnvelopeOptions = {}): Attestation {
  const source = opts.source ?? 'beacon-devnet'
  const beacons = evidenceFor(params, source, timestamp, opts)
  const random = opts.random ?? ((n: number) => new Uint8Array(randomBytes(n)))
  for (;;) {
    const env = buildAttestation({
      beacons,
      localEntropy: random(32),
      source,
      device: opts.device ?? 'test-device',
      proofType: opts.proofType ?? 'entropy-commitment-v2',
      poolSize: opts.poolSize ?? 65536,
      timestamp,
      signerSeed: opts.signerSeed
    })
    if (healthViolation(env.health, params.healthBounds) === null) return env
  }
}
