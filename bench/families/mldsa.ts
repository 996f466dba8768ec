// mldsa: ML-DSA-87 keygen, sign and verify through the node's facade, native (node:crypto,
// Node 24) against the @noble/post-quantum twin. Sign and verify use one key, as a wallet or
// a block validator meeting the same sender again does (the native path caches key objects).
// The wasm core only verifies (it signs through node:crypto): once under one key, which its
// cache of expanded keys keeps (a validator meeting the same senders), and once under a new key
// each time (more keys in turn than the cache holds, so every verify expands its key).
import crypto from 'node:crypto'
import { getMldsaCore } from '../../core/crypto/mldsa.ts'
import type { MldsaCore } from '../../core/crypto/mldsa.ts'
import { mldsaWasmCacheStats } from '../../core/crypto/mldsa-wasm.ts'
import { interleave, rateSample, statsOf } from '../lib/sampler.ts'
import type { Contender } from '../lib/sampler.ts'
import { pairedRatios } from '../lib/stats.ts'
import { goal } from '../lib/goals.ts'
import type { BenchContext, BenchFamily, BenchRow, FamilyReport } from '../lib/types.ts'

type Op = 'keygen' | 'sign' | 'verify'
const OPS: Op[] = ['keygen', 'sign', 'verify']

function opContender (core: MldsaCore, op: Op, ms: number): Contender {
  const { seed, publicKey } = core.keygen(crypto.randomBytes(32))
  const message = crypto.randomBytes(32) // a transaction digest
  const signature = core.sign(seed, message)
  if (!core.verify(publicKey, message, signature)) throw new Error(`${core.kind} ML-DSA-87 does not verify its own signature`)
  if (op === 'keygen') return () => rateSample(() => { core.keygen(); return 1 }, ms)
  if (op === 'sign') return () => rateSample(() => { core.sign(seed, message); return 1 }, ms)
  return () => rateSample(() => { if (!core.verify(publicKey, message, signature)) throw new Error('verify failed'); return 1 }, ms)
}

/** Verifies per second by the wasm core, each under another key than the last `cache slots` ones. */
function newKeyVerifyContender (ms: number): Contender {
  const native = getMldsaCore('native')
  const wasm = getMldsaCore('wasm')
  const keys = Array.from({ length: mldsaWasmCacheStats().slots + 16 }, () => {
    const { seed, publicKey } = native.keygen(crypto.randomBytes(32))
    const message = crypto.randomBytes(32)
    return { publicKey, message, signature: native.sign(seed, message) }
  })
  let next = 0
  return () => rateSample(() => {
    const k = keys[next]!
    next = (next + 1) % keys.length
    if (!wasm.verify(k.publicKey, k.message, k.signature)) throw new Error('verify failed')
    return 1
  }, ms)
}

/** Native verifies per second on one core, over `ms`: the unit the block bound is built from. */
export function nativeVerifyContender (ms: number): Contender { return opContender(getMldsaCore('native'), 'verify', ms) }

async function run (ctx: BenchContext): Promise<FamilyReport> {
  const started = performance.now()
  const ms = ctx.quick ? 20 : 400
  const native = getMldsaCore('native')
  const noble = getMldsaCore('noble')
  const contenders: Record<string, Contender> = {}
  for (const op of OPS) {
    contenders[`native ${op}`] = opContender(native, op, ms)
    contenders[`noble ${op}`] = opContender(noble, op, ms)
  }
  contenders['wasm verify cached'] = opContender(getMldsaCore('wasm'), 'verify', ms)
  contenders['wasm verify new key'] = newKeyVerifyContender(ms)
  ctx.progress(`keygen, sign, verify × native, noble; wasm verify: ${ctx.runs + 1} runs of ${ms} ms each`)
  const samples = await interleave(contenders, { runs: ctx.runs, onRound: (r, n) => { ctx.progress(`round ${r + 1}/${n}`) } })
  const stats = statsOf(samples)
  const rows: BenchRow[] = OPS.flatMap((op) => [
    { family: 'mldsa' as const, name: `ML-DSA-87 ${op}, native (node:crypto)`, unit: 'ops/s', stats: stats[`native ${op}`]! },
    { family: 'mldsa' as const, name: `ML-DSA-87 ${op}, anchor @noble/post-quantum`, unit: 'ops/s', stats: stats[`noble ${op}`]! }
  ])
  rows.push(
    { family: 'mldsa', name: 'ML-DSA-87 verify, WASM (cached key)', unit: 'ops/s', stats: stats['wasm verify cached']! },
    { family: 'mldsa', name: 'ML-DSA-87 verify, WASM (new key each time)', unit: 'ops/s', stats: stats['wasm verify new key']! }
  )
  const goals = [
    goal('mldsa', 'native verify ≥ 5× noble verify', pairedRatios(samples['native verify']!, samples['noble verify']!), '>=', 5),
    goal('mldsa', 'WASM verify (cached key) ≥ 2× native verify', pairedRatios(samples['wasm verify cached']!, samples['native verify']!), '>=', 2),
    // no slower than 1.2× native's time per verify: at least 1/1.2 of its rate
    goal('mldsa', 'WASM verify (new key) ≥ 0.83× native verify', pairedRatios(samples['wasm verify new key']!, samples['native verify']!), '>=', 0.83)
  ]
  return { family: 'mldsa', title: 'ML-DSA-87', available: true, rows, goals, seconds: (performance.now() - started) / 1000 }
}

export const mldsaFamily: BenchFamily = { name: 'mldsa', title: 'ML-DSA-87', run }
