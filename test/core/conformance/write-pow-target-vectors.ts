// Rewrites the `searches` and `headers` sections of test/vectors/pow.json for protocol 2's
// full-precision target (a hash wins when, as a 512-bit big-endian integer, it is at most the
// target). Every hash is taken with node:crypto (OpenSSL SHA3-512), never with a core under
// test; the searches are found by scanning those hashes.
//   searches: the leading-zero targets of the earlier vectors (16^(128−d) − 1: the same nonces
//     as "d leading zero hex digits"), targets between nibble boundaries, and ties: a target
//     equal to a hash (met: ≤) and one below it (missed), so the full 512-bit compare after the
//     first 64 bits is exercised.
//   headers: whole 272-byte version 2 headers (bits at offset 148) and whether each meets the
//     target its bits stand for.
// Run: node_modules/.bin/node test/core/conformance/write-pow-target-vectors.ts
import crypto from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { encodeHeader, HEADER_PREFIX_BYTES } from '../../../core/chain/header.ts'
import type { HeaderFields } from '../../../core/chain/header.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { BLOCK_VERSION } from '../../../core/chain/genesis.ts'
import { decodeBits, encodeBits, targetForDifficulty } from '../../../core/chain/target.ts'
import { NETWORKS } from '../../../config/networks.ts'

interface Search { prefix: string; start: number; count: number; target: string; found: boolean; nonce: number; hash: string | null; note: string }

const file = new URL('../../vectors/pow.json', import.meta.url)
const vectors = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
const shake = (label: string, bytes: number): Buffer => crypto.createHash('shake256', { outputLength: bytes }).update(label).digest()
const hex128 = (n: bigint): string => n.toString(16).padStart(128, '0')

function hashOf (prefix: Buffer, nonce: number): Buffer {
  const nonceBytes = Buffer.alloc(8)
  nonceBytes.writeBigUInt64BE(BigInt(nonce))
  return crypto.hash('sha3-512', Buffer.concat([prefix, nonceBytes]), 'buffer')
}

function scan (prefix: Buffer, start: number, count: number, target: bigint): { found: boolean; nonce: number; hash: string | null } {
  for (let i = 0; i < count; i++) {
    const h = hashOf(prefix, start + i)
    if (BigInt('0x' + h.toString('hex')) <= target) return { found: true, nonce: start + i, hash: h.toString('hex') }
  }
  return { found: false, nonce: start + count, hash: null }
}

const searches: Search[] = []
const add = (prefix: Buffer, start: number, count: number, target: bigint, note: string): void => {
  searches.push({ prefix: prefix.toString('hex'), start, count, target: hex128(target), ...scan(prefix, start, count, target), note })
}
// the earlier leading-zero searches (prefix length, start, digits), as targets
for (const [length, start, d] of [[264, 0, 4], [264, 4294962296, 4], [264, 1, 3], [264, 7, 3], [300, 100, 3], [48, 0, 3], [65, 0, 3]] as const) {
  add(shake(`pow search ${length} ${start}`, length), start, 1 << 17, targetForDifficulty(d), `${d} leading zero hex digits`)
}
// targets between the nibble boundaries (a mantissa, as a compact target gives)
for (const [i, bits] of [0x3f5a1234, 0x3f012345, 0x3effffff, 0x3e7fffff].entries()) {
  add(shake(`pow target ${i}`, 264), i * 1000, 1 << 19, decodeBits(bits), `compact target 0x${bits.toString(16)}`)
}
// ties: the lowest hash of a range is the target (met), then that hash − 1 (missed in the range)
{
  const prefix = shake('pow tie', 264)
  const start = 2 ** 32 - 40
  let best = { nonce: -1, value: 1n << 512n }
  for (let i = 0; i < 80; i++) {
    const value = BigInt('0x' + hashOf(prefix, start + i).toString('hex'))
    if (value < best.value) best = { nonce: start + i, value }
  }
  add(prefix, start, 80, best.value, 'target equal to the lowest hash of the range: met (≤)')
  add(prefix, start, 80, best.value - 1n, 'target one below the lowest hash of the range: missed')
  add(prefix, best.nonce, 1, best.value, 'one nonce, its hash equal to the target')
}
if (!searches.some((s) => !s.found)) throw new Error('no negative search vector')

const genesis = genesisBlock(NETWORKS.devnet)
const fields = (height: number, bits: number): HeaderFields => ({
  version: BLOCK_VERSION,
  height,
  timestamp: genesis.timestamp + height * 2.5,
  previous_hash: height === 1 ? genesis.hash : shake(`pow header parent ${height}`, 64).toString('hex'),
  merkle_root: shake(`pow header merkle ${height}`, 64).toString('hex'),
  bits,
  miner: shake(`pow header miner ${height}`, 16).toString('hex'),
  quantum_signature: null
})
const headers: Array<{ name: string; header: string; bits: number; target: string; hash: string; meets: boolean }> = []
for (const [height, bits] of [[1, encodeBits(targetForDifficulty(2))], [2, 0x3f5a0000], [3, 0x3e1fffff], [4, 0x3e0a1b2c]] as const) {
  const f = fields(height, bits)
  const prefix = Buffer.from(encodeHeader({ ...f, nonce: 0 }).subarray(0, HEADER_PREFIX_BYTES))
  const target = decodeBits(bits)
  const found = scan(prefix, 0, 1 << 22, target)
  if (!found.found) throw new Error(`no nonce under bits ${bits.toString(16)}`)
  for (const [name, nonce] of [[`height ${height}: the first nonce meeting bits 0x${bits.toString(16)}`, found.nonce], [`height ${height}: nonce 0`, 0]] as const) {
    const header = Buffer.from(encodeHeader({ ...f, nonce }))
    const hash = crypto.hash('sha3-512', header, 'buffer')
    headers.push({ name, header: header.toString('hex'), bits, target: hex128(target), hash: hash.toString('hex'), meets: BigInt('0x' + hash.toString('hex')) <= target })
  }
}
if (!headers.some((h) => !h.meets)) throw new Error('no negative header vector')

vectors.description = 'SHA3-512(prefix || nonce as uint64 big-endian); hashes from node:crypto (OpenSSL). Prefixes are SHAKE256 of a label. searches: over nonces [start, start + count), the first whose hash, as a 512-bit big-endian integer, is <= target (found false: none; nonce = start + count). Written by test/core/conformance/write-pow-target-vectors.ts.'
vectors.searches = searches
vectors.headers = headers
vectors.headers_description = 'headers: a whole 272-byte version 2 header (prefix ‖ nonce uint64 BE; bits, the compact target, at offset 148); hash = SHA3-512 of it (node:crypto); meets = hash <= the target bits stand for. Written by test/core/conformance/write-pow-target-vectors.ts.'
writeFileSync(file, JSON.stringify(vectors, null, 1) + '\n')
console.log(`wrote ${searches.length} searches (${searches.filter((s) => !s.found).length} missing) and ${headers.length} headers (${headers.filter((h) => h.meets).length} meet their target)`)
