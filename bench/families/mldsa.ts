// mldsa: ML-DSA-87 keygen, sign and verify through the node's facade, native (node:crypto,
// Node 24) against the @noble/post-quantum twin. Sign and verify use one key, as a wallet or
// a block validator meeting the same sender again does (the native path caches key objects).
import crypto from 'node:crypto'
import { getMldsaCore } from '../../core/crypto/mldsa.ts'
import type { MldsaCore } from '../../core/crypto/mldsa.ts'
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
  ctx.progress(`keygen, sign, verify × native, noble: ${ctx.runs + 1} runs of ${ms} ms each`)
  const samples = await interleave(contenders, { runs: ctx.runs, onRound: (r, n) => { ctx.progress(`round ${r + 1}/${n}`) } })
  const stats = statsOf(samples)
  const rows: BenchRow[] = OPS.flatMap((op) => [
    { family: 'mldsa' as const, name: `ML-DSA-87 ${op}, native (node:crypto)`, unit: 'ops/s', stats: stats[`native ${op}`]! },
    { family: 'mldsa' as const, name: `ML-DSA-87 ${op}, anchor @noble/post-quantum`, unit: 'ops/s', stats: stats[`noble ${op}`]! }
  ])
  const goals = [goal('mldsa', 'native verify ≥ 5× noble verify', pairedRatios(samples['native verify']!, samples['noble verify']!), '>=', 5)]
  return { family: 'mldsa', title: 'ML-DSA-87', available: true, rows, goals, seconds: (performance.now() - started) / 1000 }
}

export const mldsaFamily: BenchFamily = { name: 'mldsa', title: 'ML-DSA-87', run }
