// Writes test/vectors/mldsa.json once: ML-DSA-87 known-answer vectors. Keys come from fixed
// 32-byte seeds (SHAKE256 of a label), signatures from @noble/post-quantum's deterministic
// mode (FIPS 204 with rnd = 0^32), and every vector is cross-checked against node:crypto
// (OpenSSL) before it is written: same public key from the same seed, signature verifies.
// Run: node_modules/.bin/node test/core/conformance/write-mldsa-vectors.ts
import crypto from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { ml_dsa87 } from '@noble/post-quantum/ml-dsa.js'

const shake = (label: string, bytes: number): Buffer => crypto.createHash('shake256', { outputLength: bytes }).update(label).digest()
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const b64u = (b: Uint8Array): string => Buffer.from(b).toString('base64url')

const keys = ['mldsa vector key 0', 'mldsa vector key 1'].map((label) => {
  const seed = shake(label, 32)
  const publicKey = ml_dsa87.keygen(seed).publicKey
  const native = crypto.createPrivateKey({ key: { kty: 'AKP', alg: 'ML-DSA-87', priv: b64u(seed), pub: b64u(publicKey) }, format: 'jwk' })
  const nativePub = Buffer.from(native.export({ format: 'jwk' }).pub as string, 'base64url')
  if (!nativePub.equals(publicKey)) throw new Error(`${label}: node:crypto derives another public key`)
  return { label, seed, publicKey }
})

const messages: Array<{ name: string; key: number; message: Buffer }> = [
  { name: 'empty message', key: 0, message: Buffer.alloc(0) },
  { name: '32-byte digest (a transaction id)', key: 0, message: shake('mldsa vector digest', 32) },
  { name: '1000-byte message, second key', key: 1, message: shake('mldsa vector long message', 1000) }
]

const signatures = messages.map((m) => {
  const { seed, publicKey } = keys[m.key]!
  const signature = ml_dsa87.sign(m.message, ml_dsa87.keygen(seed).secretKey, { extraEntropy: false })
  const pub = crypto.createPublicKey({ key: { kty: 'AKP', alg: 'ML-DSA-87', pub: b64u(publicKey) }, format: 'jwk' })
  if (!crypto.verify(null, m.message, pub, signature)) throw new Error(`${m.name}: node:crypto does not verify it`)
  return { name: m.name, key: m.key, message: hex(m.message), signature: hex(signature) }
})

const file = {
  description: 'ML-DSA-87 (FIPS 204) known-answer vectors for every ML-DSA core. keys: seed (32 bytes, SHAKE256 of the label) -> public_key. ' +
    'signatures: deterministic (rnd = 0^32, @noble/post-quantum) signatures that every core must accept, cross-checked against node:crypto when written. ' +
    'rejects: a signature vector altered as named (flip: XOR 0x01 into that byte of signature / message / public key; truncate: drop the last byte of the signature; key: verify under the other key) that every core must refuse. ' +
    'Written by test/core/conformance/write-mldsa-vectors.ts.',
  keys: keys.map((k) => ({ label: k.label, seed: hex(k.seed), public_key: hex(k.publicKey) })),
  signatures,
  rejects: [
    { name: 'one bit of the signature flipped', signature: 1, flip: { field: 'signature', byte: 100 } },
    { name: 'one bit of the last signature byte flipped', signature: 1, flip: { field: 'signature', byte: 4626 } },
    { name: 'one bit of the message flipped', signature: 1, flip: { field: 'message', byte: 0 } },
    { name: 'one bit of the public key flipped', signature: 1, flip: { field: 'public_key', byte: 7 } },
    { name: 'signature truncated by one byte', signature: 1, truncate: true },
    { name: 'verified under the other key', signature: 1, key: 1 }
  ]
}
writeFileSync(new URL('../../vectors/mldsa.json', import.meta.url), JSON.stringify(file, null, 1) + '\n')
console.log(`wrote ${keys.length} keys, ${signatures.length} signatures, ${file.rejects.length} rejects`)
