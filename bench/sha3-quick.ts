// SHA3-512 throughput (MB/s) of the WASM core and its JS twin against hash-wasm, node:crypto
// and @noble/hashes, at message sizes from a short key to a megabyte.
// Run: node bench/sha3-quick.ts [--json]
import crypto from 'node:crypto'
import { createSHA3 } from 'hash-wasm'
import { sha3_512 as nobleSha3_512 } from '@noble/hashes/sha3.js'
import { getSha3Core } from '../core/crypto/sha3.ts'
import { bestRate, printTable, wantsJson } from './measure.ts'

const sizes = [32, 200, 4096, 1 << 20]
const hashWasm = await createSHA3(512)
const wasm = getSha3Core('wasm')
const js = getSha3Core('js')
// each contender has its own loop, so every call site in a timed loop sees one callee
const contenders: Record<string, (data: Uint8Array, n: number) => void> = {
  wasm: (d, n) => { for (let i = 0; i < n; i++) wasm.sha3_512(d) },
  js: (d, n) => { for (let i = 0; i < n; i++) js.sha3_512(d) },
  'hash-wasm': (d, n) => { for (let i = 0; i < n; i++) { hashWasm.init(); hashWasm.update(d); hashWasm.digest('binary') } },
  'node:crypto': (d, n) => { for (let i = 0; i < n; i++) crypto.hash('sha3-512', d, 'buffer') },
  '@noble/hashes': (d, n) => { for (let i = 0; i < n; i++) nobleSha3_512(d) }
}

// warm every contender up first, so the first one measured is not the one paying for JIT tiers
for (const run of Object.values(contenders)) bestRate(() => { for (const size of sizes) run(new Uint8Array(size), 10); return 1 }, 300, 1)

const rows: Array<Record<string, string | number>> = []
for (const size of sizes) {
  const data = crypto.randomBytes(size)
  const batch = Math.max(1, Math.floor(20_000 / Math.sqrt(size)))
  const row: Record<string, string | number> = { bytes: size }
  for (const [name, run] of Object.entries(contenders)) {
    const perSecond = bestRate(() => { run(data, batch); return batch }, size > 100_000 ? 1500 : 600)
    row[name] = Number((perSecond * size / 1e6).toFixed(1))
  }
  rows.push(row)
}
printTable(rows)
if (wantsJson) console.log(JSON.stringify({ megabytesPerSecond: rows }, null, 2))
