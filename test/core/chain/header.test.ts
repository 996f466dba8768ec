import t from 'tap'
import crypto from 'node:crypto'
import canonicalize from 'canonicalize'
import { encodeHeader, encodeHeaderPrefix, envelopeHash, blockHash, HEADER_PREFIX_BYTES, HEADER_BYTES } from '../../../core/chain/header.ts'
import type { HeaderFields } from '../../../core/chain/header.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { checkBlockFormat } from '../../../core/chain/validate.ts'
import { testParams, makeAttestation, mineBlock, transfer, devWallet, generateWallet } from '../../helpers/chain.ts'
import { Cores } from '../../../core/cores/cores.ts'

const JS_CORES = new Cores({ sha3: 'js', pow: 'js' })
const WASM_CORES = new Cores()

const sha3 = (alg: 'sha3-512' | 'sha3-256', data: Uint8Array | string): Buffer => crypto.createHash(alg).update(data).digest()
const hexOf = (c: string, n: number): string => c.repeat(n)

function fields (): HeaderFields {
  return {
    version: 2,
    height: 0x0102030405,
    timestamp: 1767225600.25,
    previous_hash: hexOf('a', 128),
    merkle_root: hexOf('b', 128),
    bits: 0x3e5a1234,
    miner: '0123456789abcdef0123456789abcdef',
    quantum_signature: { qrng_attestation: makeAttestation(1767225600) }
  }
}

t.test('header prefix: fixed 264 bytes, each field at its offset', async (t) => {
  t.equal(HEADER_PREFIX_BYTES, 264)
  t.equal(HEADER_BYTES, 272, 'the 8-byte nonce comes last')
  const h = fields()
  const p = Buffer.from(encodeHeaderPrefix(h))
  t.equal(p.length, 264)
  t.equal(p.readUInt32BE(0), 2, 'version u32 at 0')
  t.equal(p.readBigUInt64BE(4), 0x0102030405n, 'height u64 at 4')
  t.equal(p.readDoubleBE(12), 1767225600.25, 'timestamp f64 at 12')
  t.equal(p.subarray(20, 84).toString('hex'), h.previous_hash, 'previous_hash at 20')
  t.equal(p.subarray(84, 148).toString('hex'), h.merkle_root, 'merkle_root at 84')
  t.equal(p.readUInt32BE(148), 0x3e5a1234, 'bits (the compact target) u32 at 148')
  t.equal(p.subarray(152, 168).toString('hex'), h.miner, 'miner at 152')
  t.equal(p.subarray(168, 200).toString('hex'), h.quantum_signature?.qrng_attestation.entropy_seed, 'entropy_seed at 168')
  const envHash = sha3('sha3-512', canonicalize(h.quantum_signature) as string)
  t.same(p.subarray(200, 264), envHash, 'SHA3-512 of the canonical envelope at 200')
  t.same(Buffer.from(envelopeHash(h.quantum_signature)), envHash)
})

t.test('header codec round trip: the bytes give back every field the header carries', async (t) => {
  const h = { ...fields(), nonce: 2 ** 40 + 17 }
  const bytes = Buffer.from(encodeHeader(h))
  t.equal(bytes.length, HEADER_BYTES)
  t.same({
    version: bytes.readUInt32BE(0),
    height: Number(bytes.readBigUInt64BE(4)),
    timestamp: bytes.readDoubleBE(12),
    previous_hash: bytes.subarray(20, 84).toString('hex'),
    merkle_root: bytes.subarray(84, 148).toString('hex'),
    bits: bytes.readUInt32BE(148),
    miner: bytes.subarray(152, 168).toString('hex'),
    nonce: Number(bytes.readBigUInt64BE(264))
  }, { version: h.version, height: h.height, timestamp: h.timestamp, previous_hash: h.previous_hash, merkle_root: h.merkle_root, bits: h.bits, miner: h.miner, nonce: h.nonce })
  t.same(bytes.subarray(0, HEADER_PREFIX_BYTES), Buffer.from(encodeHeaderPrefix(h)), 'the prefix is the header without its nonce')
})

t.test('genesis header: no envelope means zero seed and zero envelope hash', async (t) => {
  const g = genesisBlock(testParams())
  const p = Buffer.from(encodeHeaderPrefix(g))
  t.ok(p.subarray(168, 264).every((b) => b === 0))
  t.equal(g.hash, sha3('sha3-512', Buffer.concat([p, Buffer.alloc(8)])).toString('hex'))
})

t.test('block hash = SHA3-512(prefix || nonce as u64 big-endian), on both PoW cores', async (t) => {
  const h = { ...fields(), nonce: 0x1234567 }
  const nonce = Buffer.alloc(8)
  nonce.writeBigUInt64BE(0x1234567n)
  const expected = sha3('sha3-512', Buffer.concat([encodeHeaderPrefix(h), nonce])).toString('hex')
  t.equal(blockHash(h, JS_CORES), expected)
  t.equal(blockHash(h, WASM_CORES), expected)
  t.not(blockHash({ ...h, nonce: h.nonce + 1 }, JS_CORES), expected)
})

t.test('every envelope field is bound into the header', async (t) => {
  const base = fields()
  const baseHash = blockHash({ ...base, nonce: 0 }, JS_CORES)
  const env = base.quantum_signature!.qrng_attestation
  const variants: Array<[string, Partial<typeof env>]> = [
    ['device_id', { device_id: 'other-device' }],
    ['proof_type', { proof_type: 'other' }],
    ['version', { version: 3 }],
    ['beacons', { beacons: [] }],
    ['local_entropy', { local_entropy: hexOf('e', 64) }],
    ['source', { source: 'beacon-default' }],
    ['entropy_proof', { entropy_proof: hexOf('c', 64) }],
    ['commitment', { commitment: hexOf('d', 128) }],
    ['health', { health: { ...env.health, pool_size: env.health.pool_size - 1 } }],
    ['signature added', { signature: 'ab' }],
    ['public_key added', { public_key: 'ab' }]
  ]
  for (const [name, change] of variants) {
    const h = { ...base, quantum_signature: { qrng_attestation: { ...env, ...change } } }
    t.not(blockHash({ ...h, nonce: 0 }, JS_CORES), baseHash, `${name} changes the block hash`)
  }
  for (const key of ['version', 'height', 'timestamp', 'bits'] as const) {
    t.not(blockHash({ ...base, [key]: base[key] + 1, nonce: 0 }, JS_CORES), baseHash, `${key} changes the block hash`)
  }
  t.not(blockHash({ ...base, miner: hexOf('f', 32), nonce: 0 }, JS_CORES), baseHash, 'miner changes the block hash')
})

t.test('prefix encoding refuses hex fields of the wrong length', async (t) => {
  t.throws(() => encodeHeaderPrefix({ ...fields(), previous_hash: hexOf('a', 126) }))
  t.throws(() => encodeHeaderPrefix({ ...fields(), merkle_root: hexOf('b', 130) }))
  t.throws(() => encodeHeaderPrefix({ ...fields(), miner: 'zz'.repeat(16) }))
})

t.test('a block survives a JSON round-trip with its hash intact', async (t) => {
  const params = testParams()
  const dev = devWallet()
  const g = genesisBlock(params)
  const txs = [
    transfer(params, dev, generateWallet().address, 1.5, 0, { data: { memo: 'héllo ✓' } }),
    transfer(params, dev, generateWallet().address, 0.000000000000000001, 1)
  ]
  const block = mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp }, { txs })
  const copy = JSON.parse(JSON.stringify(block)) as unknown
  checkBlockFormat(copy)
  t.same(copy, block)
  t.equal(blockHash(copy, JS_CORES), block.hash)
  t.equal(blockHash(copy, WASM_CORES), block.hash)
})
