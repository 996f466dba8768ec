// Re-verifies a block's attestation envelope (docs/entropy.md, envelope v2) in the browser,
// with the libraries the node uses (@noble/curves, @noble/hashes, served by the node as static
// ES modules): every beacon's BLS signature under the published key, randomness = SHA-256
// (signature), the round's time window, the seed/proof derivation, the commitment and the
// health figures. The rules mirror core/chain/attestation.ts; a mismatch is a failed badge.
const VENDOR = '/explorer/vendor/'
const G2_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_'
const G1_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_'
const SCHEMES = {
  'pedersen-bls-chained': { group: 'G2', dst: G2_DST, chained: true },
  'pedersen-bls-unchained': { group: 'G2', dst: G2_DST, chained: false },
  'bls-unchained-on-g1': { group: 'G1', dst: G2_DST, chained: false },
  'bls-unchained-g1-rfc9380': { group: 'G1', dst: G1_DST, chained: false }
}
const WINDOW = { before: 60, after: 5 }

const fromHex = (s) => {
  if (typeof s !== 'string' || !/^(?:[0-9a-f]{2})*$/.test(s)) throw new Error('not lowercase hex')
  return Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16))
}
const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}
const roundBytes = (round) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, BigInt(round)); return b }

function monobit (bytes) {
  let ones = 0
  for (const b of bytes) for (let x = b; x !== 0; x >>= 1) ones += x & 1
  return ones / (bytes.length * 8)
}

/** Fano factor over 2-bit windows, as core/entropy/health.ts computes it. */
function fano (bytes) {
  const n = bytes.length * 4
  let sum = 0
  let sumSq = 0
  for (const b of bytes) {
    for (let k = 0; k < 4; k++) {
      const w = (b >> (k * 2)) & 3
      const c = (w & 1) + (w >> 1)
      sum += c
      sumSq += c * c
    }
  }
  const mean = sum / n
  const p = mean / 2
  if (p === 0 || p === 1) return 0
  return ((sumSq - n * mean * mean) / (n - 1)) / (mean * (1 - p))
}

let libs = null
async function load () {
  libs ??= Promise.all([import(`${VENDOR}noble-curves/bls12-381.js`), import(`${VENDOR}noble-hashes/sha2.js`), import(`${VENDOR}noble-hashes/sha3.js`)])
    .then(([curves, sha2, sha3]) => ({ bls: curves.bls12_381, sha256: sha2.sha256, sha3_512: sha3.sha3_512 }))
  return await libs
}

/**
 * @param block the explorer's block detail (quantum_signature, timestamp)
 * @param beacons GET /api/explorer/beacons
 * @returns {Promise<{ ok: boolean, checked: string[], failed?: string }>}
 */
export async function verifyAttestation (block, beacons) {
  const env = block.quantum_signature?.qrng_attestation
  if (env === undefined || env === null) return { ok: false, checked: [], failed: 'no attestation envelope' }
  const { bls, sha256, sha3_512 } = await load()
  const checked = []
  const fail = (why) => ({ ok: false, checked, failed: why })
  if (env.version !== 2) return fail(`envelope version ${env.version} (expected 2)`)
  const randomness = []
  for (const [i, b] of (env.beacons ?? []).entries()) {
    const pin = beacons.find((p) => p.id === b.source)
    if (pin === undefined) return fail(`beacon ${b.source} is not one this network trusts`)
    const rule = SCHEMES[pin.scheme]
    if (rule === undefined) return fail(`unknown beacon scheme ${pin.scheme}`)
    const t = pin.genesis_time + (b.round - 1) * pin.period
    if (t < block.timestamp - WINDOW.before) return fail(`${b.source} round ${b.round} is older than the block by more than ${WINDOW.before} s`)
    if (t > block.timestamp + WINDOW.after) return fail(`${b.source} round ${b.round} is published after the block's time`)
    let sig
    try { sig = fromHex(b.signature) } catch { return fail(`beacons[${i}] signature is not hex`) }
    if (toHex(sha256(sig)) !== b.randomness) return fail(`${b.source} round ${b.round}: randomness is not SHA-256(signature)`)
    const message = rule.chained ? sha256(concat(fromHex(b.previous_signature ?? ''), roundBytes(b.round))) : sha256(roundBytes(b.round))
    const sigs = rule.group === 'G2' ? bls.longSignatures : bls.shortSignatures
    let valid = false
    try { valid = sigs.verify(sig, sigs.hash(message, rule.dst), fromHex(pin.public_key)) } catch { valid = false }
    if (!valid) return fail(`${b.source} round ${b.round}: BLS signature does not verify under the published key`)
    checked.push(`${b.source} round ${b.round} (BLS)`)
    randomness.push(fromHex(b.randomness))
  }
  const mix = sha3_512(concat(new TextEncoder().encode('ledger-entropy-v2'), ...randomness, fromHex(env.local_entropy)))
  if (toHex(mix.subarray(0, 32)) !== env.entropy_seed || toHex(mix.subarray(32)) !== env.entropy_proof) return fail('seed and proof are not derived from the beacons and local entropy')
  checked.push('derivation')
  if (toHex(sha3_512(fromHex(env.entropy_proof))) !== env.commitment) return fail('commitment is not SHA3-512(entropy_proof)')
  checked.push('commitment')
  const revealed = concat(fromHex(env.entropy_seed), fromHex(env.entropy_proof))
  if (Math.abs(monobit(revealed) - env.health.monobit_ratio) > 1e-9 || Math.abs(fano(revealed) - env.health.fano_factor) > 1e-9) return fail('health figures differ from the revealed bytes')
  checked.push('health')
  return { ok: true, checked }
}
