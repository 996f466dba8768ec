// The entropy-evidence vocabulary (docs/entropy.md, "What a label proves"): what each kind of
// envelope is labelled, and the pages' copy of the labels (plugins/http/web) equal to core's.
import t from 'tap'
import { ENTROPY_EVIDENCE, entropyEvidenceOf, servedEvidence } from '../../../core/chain/entropy-evidence.ts'
import { makeAttestation } from '../../helpers/chain.ts'
import { ENTROPY_EVIDENCE as PAGE_VOCABULARY, evidenceBadge } from '../../../plugins/http/web/entropy-evidence.js'

const now = Math.floor(Date.now() / 1000)

t.test('each envelope says what it proves', async (t) => {
  t.equal(entropyEvidenceOf(null), 'genesis')
  t.equal(entropyEvidenceOf({ qrng_attestation: makeAttestation(now) }), 'beacon-verified', 'quotes a beacon round')
  const selfHosted = makeAttestation(now, { source: 'self-hosted' })
  t.same(selfHosted.beacons, [], 'a self-hosted envelope quotes no round')
  t.equal(entropyEvidenceOf({ qrng_attestation: selfHosted }), 'no-evidence')
  const signed = makeAttestation(now, { source: 'self-hosted', signer: new Uint8Array(32).fill(7) })
  t.ok(signed.signature, 'signed')
  t.equal(entropyEvidenceOf({ qrng_attestation: signed }), 'signed-unverifiable', 'a signature without a beacon round proves no freshness')
  t.equal(servedEvidence(0), 'no-evidence')
  t.equal(servedEvidence(2), 'beacon-verified')
})

t.test('the pages use the same labels and meanings', async (t) => {
  t.same(PAGE_VOCABULARY, ENTROPY_EVIDENCE)
  t.equal(evidenceBadge('beacon-verified').cls.split(' ')[0], 'ok', 'only beacon evidence is green')
  for (const code of ['signed-unverifiable', 'no-evidence', 'genesis', null] as const) t.notMatch(evidenceBadge(code).cls, /\bok\b/, `${String(code)} is not green`)
  t.equal(evidenceBadge(null).label, 'not recorded')
})
