// sha3: SHA3-256 and SHA3-512 throughput of the WASM core and its JS twin against
// node:crypto, hash-wasm and @noble/hashes, from a 32-byte key to a megabyte.
import crypto from 'node:crypto'
import { createSHA3 } from 'hash-wasm'
import { sha3_256 as nobleSha3_256, sha3_512 as nobleSha3_512 } from '@noble/hashes/sha3.js'
import { getSha3Core } from '../../core/crypto/sha3.ts'
import { interleave, rateSample, roundsFor, statsOf } from '../lib/sampler.ts'
import type { Contender } from '../lib/sampler.ts'
import { pairedRatios } from '../lib/stats.ts'
import { goal } from '../lib/goals.ts'
import { formatBytes, formatNumber } from '../lib/format.ts'
import type { BenchContext, BenchFamily, BenchRow, FamilyReport, GoalResult, Stats } from '../lib/types.ts'

const SIZES = [32, 200, 4096, 1 << 20]
const BITS = [256, 512] as const
/**
 * rounds of the five contenders per run: the WASM core's lead over hash-wasm at 4 KB and 1 MB
 * is 5-20%, and one sample disturbed by the host turned a run's ratio to 0.54-0.95x, so the
 * goals take the median of twice as many pairs
 */
const ROUNDS_PER_RUN = 2
type Bits = typeof BITS[number]
const CONTENDERS = ['wasm', 'js', 'node:crypto', 'hash-wasm', 'noble'] as const
type ContenderName = typeof CONTENDERS[number]
const LABEL: Record<ContenderName, string> = {
  wasm: 'WASM core',
  js: 'JS twin',
  'node:crypto': 'anchor node:crypto',
  'hash-wasm': 'anchor hash-wasm',
  noble: 'anchor @noble/hashes'
}

type HashLoop = (data: Uint8Array, n: number) => void

/** One loop per contender and width, so every call site in a timed loop sees one callee. */
async function hashLoops (bits: Bits): Promise<Record<ContenderName, HashLoop>> {
  const wasm = getSha3Core('wasm')
  const js = getSha3Core('js')
  const hw = await createSHA3(bits)
  const algo = `sha3-${bits}`
  if (bits === 256) {
    return {
      wasm: (d, n) => { for (let i = 0; i < n; i++) wasm.sha3_256(d) },
      js: (d, n) => { for (let i = 0; i < n; i++) js.sha3_256(d) },
      'node:crypto': (d, n) => { for (let i = 0; i < n; i++) crypto.hash(algo, d, 'buffer') },
      'hash-wasm': (d, n) => { for (let i = 0; i < n; i++) { hw.init(); hw.update(d); hw.digest('binary') } },
      noble: (d, n) => { for (let i = 0; i < n; i++) nobleSha3_256(d) }
    }
  }
  return {
    wasm: (d, n) => { for (let i = 0; i < n; i++) wasm.sha3_512(d) },
    js: (d, n) => { for (let i = 0; i < n; i++) js.sha3_512(d) },
    'node:crypto': (d, n) => { for (let i = 0; i < n; i++) crypto.hash(algo, d, 'buffer') },
    'hash-wasm': (d, n) => { for (let i = 0; i < n; i++) { hw.init(); hw.update(d); hw.digest('binary') } },
    noble: (d, n) => { for (let i = 0; i < n; i++) nobleSha3_512(d) }
  }
}

function opsNote (stats: Stats, size: number): string {
  return `≈ ${formatNumber(stats.median * 1e6 / size)} ops/s`
}

async function run (ctx: BenchContext): Promise<FamilyReport> {
  const started = performance.now()
  const rows: BenchRow[] = []
  const goals: GoalResult[] = []
  for (const bits of BITS) {
    const loops = await hashLoops(bits)
    for (const size of SIZES) {
      const data = crypto.randomBytes(size)
      const batch = Math.max(1, Math.floor(4096 / Math.sqrt(size)))
      const ms = ctx.quick ? 10 : (size >= 1 << 20 ? 400 : 150)
      const rounds = roundsFor(ctx, ROUNDS_PER_RUN)
      ctx.progress(`SHA3-${bits} at ${formatBytes(size)}: ${CONTENDERS.length} contenders × ${rounds + 1} rounds of ${ms} ms`)
      // each sample is MB/s: bytes hashed per second / 1e6
      const contenders = Object.fromEntries(CONTENDERS.map((c) => [c, (() => rateSample(() => { loops[c](data, batch); return batch }, ms) * size / 1e6) satisfies Contender])) as Record<ContenderName, Contender>
      const samples = await interleave(contenders, { runs: rounds })
      const stats = statsOf(samples)
      for (const c of CONTENDERS) {
        rows.push({ family: 'sha3', name: `SHA3-${bits} ${formatBytes(size)} ${LABEL[c]}`, unit: 'MB/s', stats: stats[c], note: opsNote(stats[c], size) })
      }
      goals.push(goal('sha3', `SHA3-${bits} ${formatBytes(size)}: WASM core ≥ hash-wasm`, pairedRatios(samples.wasm, samples['hash-wasm']), '>=', 1))
    }
  }
  return { family: 'sha3', title: 'SHA3 throughput', available: true, rows, goals, seconds: (performance.now() - started) / 1000 }
}

export const sha3Family: BenchFamily = { name: 'sha3', title: 'SHA3 throughput', run }
