import crypto from 'node:crypto'
import { getSha3Core } from '../core/crypto/sha3.ts'
import { sha3 as hwSha3, createSHA3 } from 'hash-wasm'
import { sha3_512 as nobleSha3_512 } from '@noble/hashes/sha3.js'
const hw = await createSHA3(512)
function rate(fn: () => void, ms = 600) { let n = 0; const t0 = performance.now(); let t; do { for (let i = 0; i < 100; i++) fn(); n += 100 } while ((t = performance.now() - t0) < ms); return n / t * 1000 }
for (const size of [32, 200, 4096, 1 << 20]) {
  const d = crypto.randomBytes(size)
  const w = getSha3Core('wasm'), j = getSha3Core('js')
  const mb = (r: number) => (r * size / 1e6).toFixed(1)
  const ms = size > 100000 ? 1500 : 600
  const rw = rate(() => w.sha3_512(d), ms)
  const rj = rate(() => j.sha3_512(d), ms)
  const rh = rate(() => { hw.init(); hw.update(d); hw.digest('binary') }, ms)
  const rn = rate(() => crypto.hash('sha3-512', d, 'buffer'), ms)
  const rnb = rate(() => nobleSha3_512(d), ms)
  console.log(size, 'wasm', mb(rw), 'js', mb(rj), 'hash-wasm', mb(rh), 'node', mb(rn), 'noble', mb(rnb))
}
