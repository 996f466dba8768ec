// pow: nonces per second on a real header template. The PoW cores absorb the 264-byte prefix
// once (midstate) and run one Keccak-f per nonce; the anchors hash the whole 272-byte header
// per nonce as a miner without a midstate would. The node's WASM core is the SIMD one (three
// nonces per Keccak-f pass, issue 15) where the engine has WebAssembly SIMD; the scalar WASM core
// runs beside it. Then the worker pool on one and on all cores.
import crypto from 'node:crypto'
import { createSHA3 } from 'hash-wasm'
import { sha3_512 as nobleSha3_512 } from '@noble/hashes/sha3.js'
import { getPowCore } from '../../core/pow/pow-core.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import { simdSupported, wasmScalarPowCore } from '../../core/pow/pow-wasm.ts'
import { PowWorkerPool } from '../../core/pow/worker-pool.ts'
import { HEADER_BYTES, HEADER_PREFIX_BYTES } from '../../core/chain/header.ts'
import { benchParams, devAccount, transfer, randomAddress } from '../lib/chain-fixture.ts'
import { assembleBlock } from '../../core/chain/template.ts'
import { envelopeAt } from '../../core/chain/attestation-builder.ts'
import { genesisBlock } from '../../core/chain/genesis.ts'
import { difficultyOfBits, workOfBits } from '../../core/chain/target.ts'
import { NETWORKS } from '../../config/networks.ts'
import { interleave, rateSample, roundsFor, statsOf } from '../lib/sampler.ts'
import type { Contender } from '../lib/sampler.ts'
import { pairedRatios, summarize } from '../lib/stats.ts'
import { goal, goalNotEvaluated } from '../lib/goals.ts'
import type { BenchContext, BenchFamily, BenchRow, FamilyReport, GoalResult } from '../lib/types.ts'

// a target no run reaches (zero: only an all-zero hash meets it), so every nonce of a timed
// batch is hashed
const UNREACHABLE = new Uint8Array(64)
/** pool samples (1 thread, all threads) per run; the goal is the median of their ratios */
const POOL_PAIRS_PER_RUN = 3
/** rounds of the six one-core contenders per run: the SIMD/scalar ratio moved 1.14-1.46x within one run at one a run */
const SINGLE_ROUNDS_PER_RUN = 2

/** Header prefix of a block the miner would assemble: coinbase + signed transfers, attested. */
function realTemplate (): Uint8Array {
  const params = benchParams()
  const genesis = genesisBlock(params)
  const dev = devAccount()
  const timestamp = genesis.timestamp + 1
  const txs = Array.from({ length: 4 }, (_, i) => transfer(params, dev, randomAddress(), 1, i, timestamp, i === 0))
  const attestation = envelopeAt(params, timestamp, { device: 'bench', proofType: 'bench' })
  const { prefix } = assembleBlock(params, {
    parent: { hash: genesis.hash, height: 0 }, miner: dev.address, transactions: txs, timestamp,
    bits: params.initialBits, supply: 0n, attestation
  })
  if (prefix.length !== HEADER_PREFIX_BYTES) throw new Error(`header prefix is ${prefix.length} bytes, expected ${HEADER_PREFIX_BYTES}`)
  return prefix
}

function coreContender (core: PowCore, prefix: Uint8Array, batch: number, ms: number): Contender {
  let start = 0
  return () => rateSample(() => {
    const { tried } = core.search(prefix, start, batch, UNREACHABLE)
    start += tried
    return tried
  }, ms)
}

/** Full-header hashing per nonce; each anchor has its own loop so every call site sees one callee. */
async function anchorContenders (prefix: Uint8Array, ms: number): Promise<Record<'node:crypto' | 'hash-wasm' | 'noble', Contender>> {
  const header = new Uint8Array(HEADER_BYTES)
  header.set(prefix)
  const view = new DataView(header.buffer)
  let nonce = 0
  // nonces stay below 2^32 in a bench run: the high word is 0
  const setNonce = (): void => { view.setUint32(HEADER_PREFIX_BYTES + 4, nonce++ >>> 0) }
  const hashWasm = await createSHA3(512)
  const BATCH = 500
  return {
    'node:crypto': () => rateSample(() => {
      for (let i = 0; i < BATCH; i++) { setNonce(); crypto.hash('sha3-512', header, 'buffer') }
      return BATCH
    }, ms),
    'hash-wasm': () => rateSample(() => {
      for (let i = 0; i < BATCH; i++) { setNonce(); hashWasm.init(); hashWasm.update(header); hashWasm.digest('binary') }
      return BATCH
    }, ms),
    noble: () => rateSample(() => {
      for (let i = 0; i < BATCH; i++) { setNonce(); nobleSha3_512(header) }
      return BATCH
    }, ms)
  }
}

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

/**
 * One sample of a pool: hashes per second over `ms` of an endless search, counted from the
 * pool's shared counter once the workers report their first chunks (steady state: a miner's
 * search runs for seconds, so the few milliseconds a search takes to reach the workers are
 * not part of its rate). Workers add to the counter every ~3 ms chunk.
 */
async function poolSample (pool: PowWorkerPool, prefix: Uint8Array, ms: number): Promise<number> {
  const controller = new AbortController()
  const before = pool.hashesTried
  const searching = pool.search({ prefix, target: UNREACHABLE, signal: controller.signal })
  try {
    const deadline = performance.now() + 10_000
    while (pool.hashesTried === before) {
      if (performance.now() > deadline) throw new Error('the PoW worker pool reported no hashes within 10 s')
      await sleep(1)
    }
    await sleep(10) // every worker past its first chunk
    const start = { at: performance.now(), tried: pool.hashesTried }
    await sleep(ms)
    const end = { at: performance.now(), tried: pool.hashesTried }
    return (end.tried - start.tried) * 1000 / (end.at - start.at)
  } finally {
    controller.abort()
    await searching
  }
}

async function run (ctx: BenchContext): Promise<FamilyReport> {
  const started = performance.now()
  const ms = ctx.quick ? 25 : 500
  const poolMs = ctx.quick ? 100 : 1000
  // pairs of 1-thread and all-threads samples per run: the all-cores rate needs both cores to
  // itself, and one sample disturbed by the host moves the ratio by 10-25% (1.45-1.88x within
  // one run at one pair a run), so each run takes several pairs and the goal their median
  const poolRounds = roundsFor(ctx, POOL_PAIRS_PER_RUN)
  const prefix = realTemplate()
  const simd = simdSupported()
  const singleRounds = roundsFor(ctx, SINGLE_ROUNDS_PER_RUN)
  ctx.progress(`one core: 3 PoW cores and 3 anchors, ${singleRounds} rounds of ${ms} ms each after a warm-up`)
  const single = await interleave({
    wasm: coreContender(getPowCore('wasm'), prefix, 20_000, ms),
    scalar: coreContender(wasmScalarPowCore, prefix, 20_000, ms),
    js: coreContender(getPowCore('js'), prefix, 2_000, ms),
    ...await anchorContenders(prefix, ms)
  }, { runs: singleRounds, onRound: (r, n) => { ctx.progress(`one core: round ${r + 1}/${n}`) } })

  ctx.progress(`worker pool (wasm core): 1 thread vs ${ctx.cores} threads, ${poolRounds} pairs of ${poolMs} ms samples`)
  const one = new PowWorkerPool({ threads: 1, core: 'wasm' })
  const all = new PowWorkerPool({ threads: ctx.cores, core: 'wasm' })
  let pooled: Record<'one' | 'all', number[]>
  try {
    pooled = await interleave({
      one: async () => await poolSample(one, prefix, poolMs),
      all: async () => await poolSample(all, prefix, poolMs)
    }, { runs: poolRounds, onRound: (r, n) => { ctx.progress(`pool: round ${r + 1}/${n}`) } })
  } finally {
    await one.close()
    await all.close()
  }

  const s = statsOf(single)
  const p = statsOf(pooled)
  const unit = 'nonces/s'
  const rows: BenchRow[] = [
    { family: 'pow', name: `WASM core, midstate (1 core)${simd ? ': SIMD, 3 nonces per pass (2 in v128 lanes, 1 in i64)' : ': scalar, no SIMD in this engine'}`, unit, stats: s.wasm },
    { family: 'pow', name: 'WASM scalar core, midstate (1 core)', unit, stats: s.scalar },
    { family: 'pow', name: 'JS twin, midstate (1 core)', unit, stats: s.js },
    { family: 'pow', name: 'anchor node:crypto sha3-512, full header', unit, stats: s['node:crypto'] },
    { family: 'pow', name: 'anchor hash-wasm sha3-512, full header', unit, stats: s['hash-wasm'] },
    { family: 'pow', name: 'anchor @noble/hashes sha3-512, full header', unit, stats: s.noble },
    { family: 'pow', name: 'WASM worker pool, 1 thread', unit, stats: p.one },
    { family: 'pow', name: `WASM worker pool, ${ctx.cores} threads (all cores)`, unit, stats: p.all }
  ]
  // what the all-cores rate means for the testnet: a target takes 2^512 / (target + 1) hashes
  // on average; the initial target should give about the block time target on two cores, and
  // the ceiling (the hardest target) must leave the retarget room above it (docs/chain.md)
  const testnet = NETWORKS.testnet
  for (const [what, bits] of [['initial target', testnet.initialBits], ['hardest target (the ceiling)', testnet.hardestBits]] as const) {
    const work = Number(workOfBits(bits))
    rows.push({
      family: 'pow',
      name: `testnet ${what}, difficulty ${difficultyOfBits(bits)}: mean block time, all cores`,
      unit: 's',
      stats: summarize(pooled.all.map((rate) => work / rate)),
      note: `2^${Math.log2(work).toFixed(1)} hashes / the all-cores rate; target ${testnet.blockTimeTarget} s`
    })
  }
  const goals: GoalResult[] = [
    simd
      ? goal('pow', 'WASM SIMD core ≥ 1.4× the scalar WASM core (per core)', pairedRatios(single.wasm, single.scalar), '>=', 1.4)
      : goalNotEvaluated('pow', 'WASM SIMD core ≥ 1.4× the scalar WASM core', '>=', 1.4, 'this engine has no WebAssembly SIMD'),
    goal('pow', 'WASM core ≥ 2× node:crypto (per core)', pairedRatios(single.wasm, single['node:crypto']), '>=', 2),
    goal('pow', 'WASM core ≥ 2× hash-wasm (per core)', pairedRatios(single.wasm, single['hash-wasm']), '>=', 2),
    goal('pow', 'JS twin ≥ 2× @noble/hashes', pairedRatios(single.js, single.noble), '>=', 2),
    ctx.cores > 1
      ? goal('pow', `all cores (${ctx.cores} threads) ≥ 1.8× one core (pool, 1 thread)`, pairedRatios(pooled.all, pooled.one), '>=', 1.8)
      : goalNotEvaluated('pow', 'all cores ≥ 1.8× one core', '>=', 1.8, 'this machine has one core')
  ]
  return { family: 'pow', title: 'PoW nonces/s', available: true, rows, goals, seconds: (performance.now() - started) / 1000 }
}

export const powFamily: BenchFamily = { name: 'pow', title: 'PoW nonces/s', run }
