// The entropy-evidence vocabulary for the node's pages (docs/entropy.md, "What a label
// proves"): the same codes, labels and meanings as core/chain/entropy-evidence.ts, which a test
// holds equal. A badge says what was proven; its title says what that means.
export const ENTROPY_EVIDENCE = {
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

/** label, meaning and badge class of an evidence code; null (a block stored before the node recorded it) says so */
export function evidenceBadge (code) {
  const e = ENTROPY_EVIDENCE[code]
  if (e === undefined) return { label: 'not recorded', proves: 'this node stored the block before it recorded entropy evidence: open the block to see it', cls: 'evidence-unknown' }
  return { ...e, cls: code === 'beacon-verified' ? 'ok evidence-beacon' : code === 'genesis' ? 'evidence-genesis' : 'evidence-weak' }
}
