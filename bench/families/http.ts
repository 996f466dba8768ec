// http: requests per second and p99 latency of the explorer's stats, blocks, block, tx and
// address endpoints on a 10,000-block chain, against a bare fastify route returning a
// constant, each served by its own process and loaded by autocannon from this one (2
// connections per core). The address lookups also run on a 100,000-block chain of the same
// shape (its last blocks carry the transfers too): a sender with the same history length, and
// the miner with ten times the history, to show that a lookup reads the indexes, not the
// chain (each pair sampled back to back in every round). Also reported: what an idle SSE
// connection costs the node (RSS and JS heap).
import crypto from 'node:crypto'
import { benchParams, benchTmpDir, devAccount, removeDir } from '../lib/chain-fixture.ts'
import { buildBlocks, connectChain } from '../lib/chain-builder.ts'
import type { BuiltChain } from '../lib/chain-builder.ts'
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
const n = (x: number): string => x.toLocaleString('en-US')

type Endpoint = 'bare' | 'stats' | 'blocks' | 'block' | 'tx' | 'address' | 'address-miner' | 'address-large' | 'address-miner-large'
const GATED = ['stats', 'block', 'tx'] as const
/** issue 4: the same lookup on the short and the long chain */
const ISSUE_4_PAIRS: ReadonlyArray<readonly [Endpoint, Endpoint]> = [['address', 'address-large'], ['address-miner', 'address-miner-large']]
/** the blocks endpoint's default page size */
const PAGE = 25

async function getOk (port: number, path: string): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`)
  return await res.json()
}

async function txCount (port: number, address: string): Promise<number> {
  return ((await getOk(port, `/api/explorer/address/${address}`)) as { tx_count: number }).tx_count
}

async function explorerLoad (ctx: BenchContext): Promise<{ rows: BenchRow[]; goals: GoalResult[] }> {
  const params = benchParams()
  const small = ctx.quick ? 40 : 10_000
  const large = ctx.quick ? 400 : 100_000
  const txPerBlock = ctx.quick ? 3 : 20
  const txBlocks = ctx.quick ? 5 : 100
  // two chains of the same shape but length: the last `txBlocks` blocks carry the transfers, so
  // a sender's history and the miner's newest page lie in the same kind of blocks on both
  const build = (blocks: number): BuiltChain => {
    ctx.progress(`building a ${n(blocks)}-block chain in memory (the last ${txBlocks} with ${txPerBlock} transfers each)`)
    return buildBlocks(params, { blocks, txPerBlock, txBlocks }, ctx.progress)
  }
  const builtSmall = build(small)
  ctx.progress(`connecting the ${n(small)}-block chain`)
  const smallChain = await connectChain(params, builtSmall.blocks, 'http', ctx.progress)
  ctx.progress(`${n(small)} blocks connected in ${smallChain.seconds.toFixed(1)} s`)
  const transferIds = builtSmall.blocks.flatMap((b) => b.transactions.slice(1).map((t) => t.transaction_id))
  const senders = builtSmall.senders.map((w) => w.address)
  builtSmall.blocks.length = 0 // the node holds the chain now
  const dirs = [smallChain.dir]
  let explorer: Child | null = null
  let explorerLarge: Child | null = null
  let bare: Child | null = null
  try {
    const builtLarge = build(large)
    ctx.progress(`connecting the ${n(large)}-block chain`)
    const largeChain = await connectChain(params, builtLarge.blocks, 'http-large', ctx.progress)
    dirs.push(largeChain.dir)
    ctx.progress(`${n(large)} blocks connected in ${largeChain.seconds.toFixed(1)} s`)
    const sendersLarge = builtLarge.senders.map((w) => w.address)
    builtLarge.blocks.length = 0
    const miner = devAccount().address
    explorer = startChild({ role: 'explorer', dataDir: smallChain.dir })
    explorerLarge = startChild({ role: 'explorer', dataDir: largeChain.dir })
    bare = startChild({ role: 'bare-fastify' })
    const node = (await explorer.next('ready', 60_000)).port
    const nodeLarge = (await explorerLarge.next('ready', 60_000)).port
    const anchor = (await bare.next('ready', 60_000)).port
    const paths: Record<Endpoint, { port: number; next: () => string }> = {
      bare: { port: anchor, next: () => '/' },
      stats: { port: node, next: () => '/api/explorer/stats' },
      blocks: { port: node, next: () => `/api/explorer/blocks?offset=${crypto.randomInt(Math.floor(small / PAGE)) * PAGE}&limit=${PAGE}` },
      block: { port: node, next: () => `/api/explorer/block/${crypto.randomInt(small + 1)}` },
      tx: { port: node, next: () => `/api/explorer/tx/${pick(transferIds)}` },
      address: { port: node, next: () => `/api/explorer/address/${pick(senders)}` },
      'address-miner': { port: node, next: () => `/api/explorer/address/${miner}` },
      'address-large': { port: nodeLarge, next: () => `/api/explorer/address/${pick(sendersLarge)}` },
      'address-miner-large': { port: nodeLarge, next: () => `/api/explorer/address/${miner}` }
    }
    for (const p of Object.values(paths)) await getOk(p.port, p.next())
    const history = { sender: await txCount(node, senders[0]!), miner: await txCount(node, miner), minerLarge: await txCount(nodeLarge, miner) }
    if (await txCount(nodeLarge, sendersLarge[0]!) !== history.sender) throw new Error('a sender\'s history differs in length between the two chains')
    const connections = 2 * ctx.cores
    const seconds = 2
    const load = async (e: Endpoint): Promise<LoadSample> => await loadSample({
      port: paths[e].port, nextPath: paths[e].next, connections, ...(ctx.quick ? { amount: 40 } : { seconds })
    })
    // Issue 4's pairs (the same lookup on both chains) are sampled back to back in every round,
    // which goes first alternating: a ratio of two samples minutes apart measured the machine's
    // phases as much as the lookups (0.75x, 0.75x and 1.20x in one run of three)
    const units: Record<string, Contender<Partial<Record<Endpoint, LoadSample>>>> = {}
    const paired = new Set(ISSUE_4_PAIRS.flat())
    for (const e of Object.keys(paths) as Endpoint[]) if (!paired.has(e)) units[e] = async () => ({ [e]: await load(e) })
    for (const [a, b] of ISSUE_4_PAIRS) {
      let turn = 0
      units[`${a}+${b}`] = async () => {
        const [first, second] = turn++ % 2 === 0 ? [a, b] : [b, a]
        return { [first]: await load(first), [second]: await load(second) }
      }
    }
    const endpoints = Object.keys(paths) as Endpoint[]
    ctx.progress(`autocannon, ${connections} connections: ${endpoints.length} endpoints × ${ctx.runs + 1} runs${ctx.quick ? '' : ` of ${seconds} s`}`)
    const rounds = await interleave(units, { runs: ctx.runs, onRound: (r, total) => { ctx.progress(`round ${r + 1}/${total}`) } })
    const samples = Object.fromEntries(endpoints.map((e) => [e, Object.values(rounds).flatMap((unit) => unit.flatMap((r) => r[e] ?? []))])) as Record<Endpoint, LoadSample[]>
    const rps = (e: Endpoint): number[] => samples[e].map((s) => s.requestsPerSecond)
    const label: Record<Endpoint, string> = {
      bare: 'anchor bare fastify route (constant)',
      stats: 'explorer stats',
      blocks: `explorer blocks (a random page of ${PAGE} of ${n(small)})`,
      block: `explorer block (random height of ${n(small)})`,
      tx: 'explorer tx (random transfer)',
      address: `explorer address, ${n(small)}-block chain (a sender, ${n(history.sender)} txs)`,
      'address-miner': `explorer address, ${n(small)}-block chain (the miner, ${n(history.miner)} txs)`,
      'address-large': `explorer address, ${n(large)}-block chain (a sender, ${n(history.sender)} txs)`,
      'address-miner-large': `explorer address, ${n(large)}-block chain (the miner, ${n(history.minerLarge)} txs)`
    }
    const rows: BenchRow[] = endpoints.flatMap((e) => [
      { family: 'http' as const, name: label[e], unit: 'req/s', stats: summarize(rps(e)) },
      { family: 'http' as const, name: '  p99 latency', unit: 'ms', stats: summarize(samples[e].map((s) => s.p99Ms)), note: 'autocannon measures whole ms: 0 is under 1 ms' }
    ])
    // issue 15: block and tx at least half the bare route, stats (no storage read) three quarters
    const goals = GATED.map((e) => {
      const share = e === 'stats' ? 0.75 : 0.5
      return goal('http', `explorer ${e} ≥ ${share * 100}% of the bare route`, pairedRatios(rps(e), rps('bare')), '>=', share)
    })
    // issue 4: an address lookup costs the same whatever the chain's length (indexes, no walk)
    goals.push(
      goal('http', `address lookup (a sender): ${n(large)}-block chain ≥ 80% of the ${n(small)}-block chain`, pairedRatios(rps('address-large'), rps('address')), '>=', 0.8, 'issue 4: same cost on both chains'),
      goal('http', `address lookup (the miner, ~10× the history): ${n(large)}-block chain ≥ 80% of the ${n(small)}-block chain`, pairedRatios(rps('address-miner-large'), rps('address-miner')), '>=', 0.8, 'issue 4: same cost on both chains')
    )
    return { rows, goals }
  } finally {
    await explorer?.stop()
    await explorerLarge?.stop()
    await bare?.stop()
    for (const dir of dirs) removeDir(dir)
  }
}

/** Per idle SSE connection: a fresh node each round, so freed memory is not simply reused. */
async function sseMemory (ctx: BenchContext): Promise<BenchRow[]> {
  const n = ctx.quick ? 200 : 1000
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
      // a fall between the two readings (a collection returning pages) is noise larger than
      // the connections' share, as in quick runs: counted as nothing, not as negative memory
      rssKiB.push(Math.max(0, after.rss - before.rss) / n / 1024)
      heapKiB.push(Math.max(0, after.heapUsed - before.heapUsed) / n / 1024)
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
