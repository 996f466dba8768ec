// The one vocabulary every surface uses to say what a block's entropy attestation proves
// (docs/entropy.md, "What a label proves"): the explorer's badges, the dashboard, the logs,
// the entropy server's /api/health and the metrics' `evidence` label. SPEC's own fields
// (quantum_verified, qrng_attestation_present) keep their values; these are presentation.
import type { Attestation, QuantumSignature } from './types.ts'
import { beaconComponents } from '../../config/entropy-sources.ts'

export type EntropyEvidence = 'beacon-verified' | 'signed-unverifiable' | 'no-evidence' | 'genesis'

export const ENTROPY_EVIDENCE: Readonly<Record<EntropyEvidence, { label: string; proves: string }>> = {
  'beacon-verified': {
    label: 'beacon-verified',
    proves: 'quotes public beacon rounds whose BLS signatures verify under the keys this network pins, and its seed is derived from them: the proof-of-work input could not be known before those rounds were published'
  },
  'signed-unverifiable': {
    label: 'signed, unverifiable',
    proves: 'no beacon round; an ML-DSA signature over the commitment shows who vouched for the bytes, not when they were made or that they were random'
  },
  'no-evidence': {
    label: 'no evidence',
    proves: 'no beacon round and no signature: the commitment and health figures are self-consistent, nothing shows where the bytes came from (accepted on testnet only)'
  },
  genesis: {
    label: 'genesis (no attestation)',
    proves: 'the genesis block carries no attestation'
  }
}

/** What the envelope carries. For a main-chain block the beacon rounds were verified before it connected. */
export function entropyEvidenceOf (qs: QuantumSignature | null | undefined): EntropyEvidence {
  const a: Attestation | undefined = qs?.qrng_attestation
  if (a === undefined || a === null) return 'genesis'
  if (Array.isArray(a.beacons) && a.beacons.length > 0) return 'beacon-verified'
  if (typeof a.signature === 'string' && a.signature !== '') return 'signed-unverifiable'
  return 'no-evidence'
}

/** The evidence of bytes an entropy source serves: beacon rounds back them, or nothing does. */
export function servedEvidence (beaconRounds: number): EntropyEvidence {
  return beaconRounds > 0 ? 'beacon-verified' : 'no-evidence'
}

/** What backs what a provider serves now: a beacon among the sources of its last draw, or
 *  nothing; null while it serves nothing. A configured beacon that is down does not count. */
export function providerEvidence (reachable: boolean, source: string | null): EntropyEvidence | null {
  if (!reachable || source === null) return null
  return servedEvidence(beaconComponents(source).length)
}
