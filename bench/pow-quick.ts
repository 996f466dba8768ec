// PoW hash rate on the node's real header shape (264-byte prefix + 8-byte nonce):
// the midstate cores against full-header hashing by node:crypto, hash-wasm and @noble/hashes,
// then the 2-thread worker pool. Run: node bench/pow-quick.ts [--json]
import crypto from 'node:crypto'
import { createSHA3 } from 'hash-wasm'
import { sha3_512 as nobleSha3_512 } from '@noble/hashes/sha3.js'
import { getPowCore } from '../core/pow/pow-core.ts'
import { PowWorkerPool } from '../core/pow/worker-pool.ts'
import type { CoreKind } from '../core/crypto/sha3.ts'
import { bestRate, printTable, wantsJson } from './measure.ts'

const PREFIX_BYTES = 264
const UNREACHABLE = 60 // difficulty no run here reaches, so every nonce is hashed
const prefix = crypto.randomBytes(PREFIX_BYTES)
const header = Buffer.alloc(PREFIX_BYTES + 8)
header.set(prefix)

// full-header hashing per nonce, each anchor with its own loop (one callee per call site)
let nonce = 0
const setNonce = (): void => { header.writeBigUInt64BE(BigInt(nonce++), PREFIX_BYTES) }
const BATCH = 1000
const hashWasm = await createSHA3(512)
const anchors = {
  'node:crypto sha3-512, full header': (): number => {
    for (let i = 0; i < BATCH; i++) { setNonce(); crypto.hash('sha3-512', header, 'buffer') }
    return BATCH
  },
  'hash-wasm sha3-512, full header': (): number => {
    for (let i = 0; i < BATCH; i++) { setNonce(); hashWasm.init(); hashWasm.update(header); hashWasm.digest('binary') }
    return BATCH
  },
  '@noble/hashes sha3-512, full header': (): number => {
    for (let i = 0; i < BATCH; i++) { setNonce(); nobleSha3_512(header) }
    return BATCH
  }
}

function coreSearch (kind: CoreKind, batch: number): () => number {
  const core = getPowCore(kind)
  let start = 0
  return () => {
    const { tried } = core.search(prefix, start, batch, UNREACHABLE)
    start += tried
    return tried
  }
}

async function poolRate (kind: CoreKind, threads: number, ms: number): Promise<number> {
  const pool = new PowWorkerPool({ threads, core: kind })
  try {
    // warm up: workers start, load their core and size their chunks
    const warm = new AbortController()
    const warming = pool.search({ prefix, difficulty: UNREACHABLE, signal: warm.signal })
    await new Promise((resolve) => setTimeout(resolve, 500))
    warm.abort()
    await warming
    const controller = new AbortController()
    const searching = pool.search({ prefix, difficulty: UNREACHABLE, signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, ms))
    const rate = pool.hashRate
    controller.abort()
    await searching
    return rate
  } finally {
    await pool.close()
  }
}

const single: Record<string, number> = {
  'wasm midstate (PoW core)': bestRate(coreSearch('wasm', 50_000), 1000),
  'js midstate (PoW twin)': bestRate(coreSearch('js', 10_000), 1000)
}
for (const [name, batch] of Object.entries(anchors)) single[name] = bestRate(batch, 1000)
const pool = {
  'pool wasm, 2 threads': await poolRate('wasm', 2, 3000),
  'pool js, 2 threads': await poolRate('js', 2, 3000)
}
const results = { ...single, ...pool }
printTable(Object.entries(results).map(([what, rate]) => ({ what, 'nonces/s': Math.round(rate) })))
const ratio = (a: string, b: string): string => `${(single[a]! / single[b]!).toFixed(2)}x`
const ratios = {
  'wasm / node:crypto': ratio('wasm midstate (PoW core)', 'node:crypto sha3-512, full header'),
  'wasm / hash-wasm': ratio('wasm midstate (PoW core)', 'hash-wasm sha3-512, full header'),
  'js twin / @noble/hashes': ratio('js midstate (PoW twin)', '@noble/hashes sha3-512, full header')
}
if (wantsJson) console.log(JSON.stringify({ noncesPerSecond: results, ratios }, null, 2))
else console.log(ratios)
