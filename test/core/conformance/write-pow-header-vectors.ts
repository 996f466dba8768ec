// Adds the `headers` section to test/vectors/pow.json once: whole 272-byte block headers
// (the node's layout, core/chain/header.ts) with the hash a PoW core must give and whether it
// meets the block's difficulty. Nonces were found with the JS twin; every hash is recomputed
// with node:crypto (OpenSSL SHA3-512) and must agree before the file is written.
// Run: node_modules/.bin/node test/core/conformance/write-pow-header-vectors.ts
import crypto from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { encodeHeader, HEADER_PREFIX_BYTES } from '../../../core/chain/header.ts'
import type { HeaderFields } from '../../../core/chain/header.ts'
import { jsPowCore } from '../../../core/pow/pow-js.ts'
import { meetsDifficulty } from '../../../core/pow/pow-core.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { NETWORKS } from '../../../config/networks.ts'

const file = new URL('../../vectors/pow.json', import.meta.url)
const vectors = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
const shakeHex = (label: string, bytes: number): string => crypto.createHash('shake256', { outputLength: bytes }).update(label).digest('hex')

const genesis = genesisBlock(NETWORKS.devnet)
const fields = (height: number, difficulty: number): HeaderFields => ({
  version: 1,
  height,
  timestamp: genesis.timestamp + height * 2.5,
  previous_hash: height === 1 ? genesis.hash : shakeHex(`pow header parent ${height}`, 64),
  merkle_root: shakeHex(`pow header merkle ${height}`, 64),
  difficulty,
  miner: shakeHex(`pow header miner ${height}`, 16),
  quantum_signature: null
})

const headers: Array<{ name: string; header: string; difficulty: number; hash: string; meets: boolean }> = []
for (const [height, difficulty] of [[1, 2], [2, 3], [3, 4], [4, 5]] as const) {
  const f = fields(height, difficulty)
  const prefix = encodeHeader({ ...f, nonce: 0 }).subarray(0, HEADER_PREFIX_BYTES)
  const found = jsPowCore.search(prefix, 0, 1 << 26, difficulty)
  if (!found.found) throw new Error(`no nonce at difficulty ${difficulty}`)
  for (const [name, nonce] of [[`height ${height}: the first nonce meeting difficulty ${difficulty}`, found.nonce], [`height ${height}: nonce 0`, 0]] as const) {
    const header = encodeHeader({ ...f, nonce })
    const hash = crypto.hash('sha3-512', header, 'buffer')
    if (!hash.equals(jsPowCore.hashHeader(prefix, nonce))) throw new Error(`${name}: the JS twin disagrees with node:crypto`)
    headers.push({ name, header: Buffer.from(header).toString('hex'), difficulty, hash: hash.toString('hex'), meets: meetsDifficulty(hash, difficulty) })
  }
}
if (!headers.some((h) => !h.meets)) throw new Error('no negative header vector')
vectors.headers = headers
vectors.headers_description = 'headers: a whole 272-byte header (prefix ‖ nonce uint64 BE); hash = SHA3-512 of it (node:crypto); meets = the hash has >= difficulty leading zero hex digits. Written by test/core/conformance/write-pow-header-vectors.ts.'
writeFileSync(file, JSON.stringify(vectors, null, 1) + '\n')
console.log(`wrote ${headers.length} header vectors (${headers.filter((h) => h.meets).length} meet their difficulty)`)
