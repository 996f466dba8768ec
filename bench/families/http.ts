// http: requests per second and p99 latency of the explorer's stats, block, tx and address
// endpoints on a 10,000-block chain, against a bare fastify route returning a constant, both
// served by their own process and loaded by autocannon from this one (2 connections per core).
// Also reported: what an idle SSE connection costs the node (RSS and JS heap).
import crypto from 'node:crypto'
import { benchParams, benchTmpDir, devAccount, removeDir } from '../lib/chain-fixture.ts'
import { buildBlocks, connectChain } from '../lib/chain-builder.ts'
import { startChild } from '../lib/child.ts'
import type { Child } from '../lib/child.ts'
import { loadSample } from '../lib/load.ts'
import type { LoadSample } from '../lib/load.ts'
import { openMany } from '../lib/sse-clients.ts'
import { interleave } from '../lib/sampler.ts'
import type { Contender } from '../lib/sampler.ts'
import { pairedRatios, summarize } from '../lib/stats.ts'
import { goal } from '../lib/goals.ts'
import type { BenchContext, BenchFamily, BenchRow, FamilyReport, GoalResult } from '../lib/types.ts'

const pick = <T>(items: readonly T[]): T => items[crypto.randomInt(items.length)]!

type Endpoint = 'bare' | 'stats' | 'block' | 'tx' | 'address' | 'address-miner'
const GATED: Endpoint[] = ['stats', 'block', 'tx']

async function expectOk (port: number, path: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`)
}

async function explorerLoad (ctx: BenchContext): Promise<{ rows: BenchRow[]; goals: GoalResult[] }> {
  const params = benchParams()
  const shape = ctx.quick ? { blocks: 40, txPerBlock: 3, txBlocks: 5 } : { blocks: 10_000, txPerBlock: 20, txBlocks: 100 }
  ctx.progress(`building a ${shape.blocks.toLocaleString('en-US')}-block chain (the last ${shape.txBlocks} with ${shape.txPerBlock} transfers each)`)
  const built = buildBlocks(params, shape, ctx.progress)
  const { dir, seconds } = await connectChain(params, built.blocks, 'http')
  ctx.progress(`chain connected in ${seconds.toFixed(1)} s`)
  const transferIds = built.blocks.flatMap((b) => b.transactions.slice(1).map((t) => t.transaction_id))
  const senders = built.senders.map((w) => w.address)
  const miner = devAccount().address
  let explorer: Child | null = null
  let bare: Child | null = null
  try {
    explorer = startChild({ role: 'explorer', dataDir: dir })
    bare = startChild({ role: 'bare-fastify' })
    const node = (await explorer.next('ready', 60_000)).port
    const anchor = (await bare.next('ready', 60_000)).port
    const paths: Record<Endpoint, { port: number; next: () => string }> = {
      bare: { port: anchor, next: () => '/' },
      stats: { port: node, next: () => '/api/explorer/stats' },
      block: { port: node, next: () => `/api/explorer/block/${crypto.randomInt(shape.blocks + 1)}` },
      tx: { port: node, next: () => `/api/explorer/tx/${pick(transferIds)}` },
      address: { port: node, next: () => `/api/explorer/address/${pick(senders)}` },
      'address-miner': { port: node, next: () => `/api/explorer/address/${miner}` }
    }
    for (const p of Object.values(paths)) await expectOk(p.port, p.next())
    const connections = 2 * ctx.cores
    const seconds = 2
    const contenders = Object.fromEntries(Object.entries(paths).map(([name, p]) => [name, (async () => await loadSample({
      port: p.port, nextPath: p.next, connections, ...(ctx.quick ? { amount: 40 } : { seconds })
    })) satisfies Contender<LoadSample>])) as Record<Endpoint, Contender<LoadSample>>
    ctx.progress(`autocannon, ${connections} connections: 6 endpoints × ${ctx.runs + 1} runs${ctx.quick ? '' : ` of ${seconds} s`}`)
    const samples = await interleave(contenders, { runs: ctx.runs, onRound: (r, n) => { ctx.progress(`round ${r + 1}/${n}`) } })
    const rps = (e: Endpoint): number[] => samples[e].map((s) => s.requestsPerSecond)
    const label: Record<Endpoint, string> = {
      bare: 'anchor bare fastify route (constant)',
      stats: 'explorer stats',
      block: `explorer block (random height of ${shape.blocks.toLocaleString('en-US')})`,
      tx: 'explorer tx (random transfer)',
      address: `explorer address (a sender, ${shape.txBlocks} txs)`,
      'address-miner': `explorer address (the miner, ${shape.blocks.toLocaleString('en-US')} txs)`
    }
    const rows: BenchRow[] = (Object.keys(paths) as Endpoint[]).flatMap((e) => [
      { family: 'http' as const, name: `${label[e]}`, unit: 'req/s', stats: summarize(rps(e)) },
      { family: 'http' as const, name: `  p99 latency`, unit: 'ms', stats: summarize(samples[e].map((s) => s.p99Ms)), note: 'autocannon measures whole ms: 0 is under 1 ms' }
    ])
    const goals = GATED.map((e) => goal('http', `explorer ${e} ≥ 50% of the bare route`, pairedRatios(rps(e), rps('bare')), '>=', 0.5))
    return { rows, goals }
  } finally {
    await explorer?.stop()
    await bare?.stop()
    removeDir(dir)
  }
}

/** Per idle SSE connection: a fresh node each round, so freed memory is not simply reused. */
async function sseMemory (ctx: BenchContext): Promise<BenchRow[]> {
  const n = ctx.quick ? 20 : 1000
  const rssKiB: number[] = []
  const heapKiB: number[] = []
  for (let round = 0; round <= ctx.runs; round++) {
    ctx.progress(`SSE memory ${round === 0 ? 'warm-up' : `run ${round}/${ctx.runs}`}: ${n} idle connections on a fresh node`)
    const dir = benchTmpDir('sse')
    const node = startChild({ role: 'stream', dataDir: dir })
    try {
      const { port, cookie } = await node.next('ready', 60_000)
      if (cookie === undefined) throw new Error('stream node reported no session cookie')
      // open and close a few first, so the baseline already holds the compiled code paths
      for (const c of await openMany(port, cookie, 20)) c.close()
      await new Promise((resolve) => setTimeout(resolve, 300))
      node.send({ type: 'measure-memory' })
      const before = (await node.next('memory', 30_000)).memory
      const open = await openMany(port, cookie, n)
      await new Promise((resolve) => setTimeout(resolve, 500))
      node.send({ type: 'measure-memory' })
      const after = (await node.next('memory', 30_000)).memory
      for (const c of open) c.close()
      if (round === 0) continue
      rssKiB.push((after.rss - before.rss) / n / 1024)
      heapKiB.push((after.heapUsed - before.heapUsed) / n / 1024)
    } finally {
      await node.stop()
      removeDir(dir)
    }
  }
  return [
    { family: 'http', name: `memory: RSS per idle SSE connection (${n} open)`, unit: 'KiB', stats: summarize(rssKiB), note: 'reported, not gated' },
    { family: 'http', name: `memory: JS heap per idle SSE connection (${n} open)`, unit: 'KiB', stats: summarize(heapKiB), note: 'reported, not gated' }
  ]
}

async function run (ctx: BenchContext): Promise<FamilyReport> {
  const started = performance.now()
  const load = await explorerLoad(ctx)
  const memory = await sseMemory(ctx)
  return { family: 'http', title: 'explorer HTTP', available: true, rows: [...load.rows, ...memory], goals: load.goals, seconds: (performance.now() - started) / 1000 }
}

export const httpFamily: BenchFamily = { name: 'http', title: 'explorer HTTP', run }
