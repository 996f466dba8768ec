// sync: blocks per second of an initial sync from one local peer, over the node's real p2p
// stack (libp2p on 127.0.0.1, header-first, bodies in batches), for empty blocks and for
// blocks of 20 signed transfers. Serving node and syncing node are separate processes. The
// anchor is the rate at which this process connects the same blocks from memory through
// Chain.processBlock, measured in each run just before the sync (a sync cannot beat it).
// Also reported: the syncing node's RSS once synced.
import { benchParams, benchTmpDir, removeDir } from '../lib/chain-fixture.ts'
import { buildBlocks, connectChain } from '../lib/chain-builder.ts'
import type { ChainShape } from '../lib/chain-builder.ts'
import { startChild } from '../lib/child.ts'
import type { Child } from '../lib/child.ts'
import { pairedRatios, summarize } from '../lib/stats.ts'
import { goal } from '../lib/goals.ts'
import type { BenchContext, BenchFamily, BenchRow, FamilyReport, GoalResult } from '../lib/types.ts'

interface Variant { label: string; shape: ChainShape }

function variants (quick: boolean): Variant[] {
  if (quick) return [{ label: 'empty blocks', shape: { blocks: 30, txPerBlock: 0 } }, { label: '2-tx blocks', shape: { blocks: 6, txPerBlock: 2 } }]
  return [
    { label: 'empty blocks', shape: { blocks: 10_000, txPerBlock: 0 } },
    // 20 transfers a block: each run connects them twice (anchor, then sync) at ~12-40
    // blocks/s on two cores, so 10,000 of them would take hours over 6 runs; 500 blocks
    // (10,000 signed transfers, ~15-40 s a sync) keeps the family within minutes
    { label: '20-tx blocks', shape: { blocks: 500, txPerBlock: 20 } }
  ]
}

async function measureVariant (ctx: BenchContext, v: Variant): Promise<{ rows: BenchRow[]; goals: GoalResult[] }> {
  const params = benchParams()
  const n = v.shape.blocks
  ctx.progress(`${v.label}: building ${n.toLocaleString('en-US')} blocks in memory`)
  const { blocks } = buildBlocks(params, v.shape, ctx.progress)
  const connectRates: number[] = []
  const syncRates: number[] = []
  const firstBlock: number[] = []
  const rss: number[] = []
  const heap: number[] = []
  const external: number[] = []
  let serverDir: string | null = null
  let server: Child | null = null
  let peer = ''
  try {
    for (let round = 0; round <= ctx.runs; round++) {
      const tag = round === 0 ? 'warm-up' : `run ${round}/${ctx.runs}`
      ctx.progress(`${v.label} ${tag}: connecting ${n.toLocaleString('en-US')} blocks from memory`)
      const connected = await connectChain(params, blocks, 'sync-connect', (m) => { ctx.progress(`${v.label} ${tag}: ${m}`) })
      if (serverDir === null) {
        // the warm-up's chain is the one the peer serves
        serverDir = connected.dir
        server = startChild({ role: 'p2p-serve', dataDir: serverDir })
        peer = `127.0.0.1:${(await server.next('ready', 60_000)).port}`
      } else {
        removeDir(connected.dir)
      }
      ctx.progress(`${v.label} ${tag}: syncing ${n.toLocaleString('en-US')} blocks from the peer (connect rate ${Math.round(n / connected.seconds)} blocks/s)`)
      const client = startChild({ role: 'p2p-sync', dataDir: benchTmpDir('sync-client'), peer, height: n, timeoutMs: 600_000 }, (m) => { ctx.progress(`${v.label} ${tag}: ${m}`) })
      const synced = await client.next('synced', 610_000)
      await client.stop()
      if (round === 0) continue
      connectRates.push(n / connected.seconds)
      syncRates.push(n / synced.seconds)
      firstBlock.push(synced.firstBlockSeconds)
      rss.push(synced.memory.rss / 2 ** 20)
      heap.push(synced.memory.heapUsed / 2 ** 20)
      external.push(synced.memory.external / 2 ** 20)
    }
  } finally {
    await server?.stop()
    if (serverDir !== null) removeDir(serverDir)
  }
  const size = `${n.toLocaleString('en-US')} ${v.label}`
  const rows: BenchRow[] = [
    { family: 'sync', name: `initial sync of ${size} from one local peer`, unit: 'blocks/s', stats: summarize(syncRates), note: 'from node start (dial, handshake, headers, bodies) to tip' },
    { family: 'sync', name: `  of which before the first block connects`, unit: 's', stats: summarize(firstBlock) },
    { family: 'sync', name: `anchor connect rate of the same blocks from memory`, unit: 'blocks/s', stats: summarize(connectRates) },
    { family: 'sync', name: `memory: syncing node's RSS after ${size}`, unit: 'MiB', stats: summarize(rss), note: 'reported, not gated' },
    { family: 'sync', name: `memory: syncing node's JS heap after ${size}`, unit: 'MiB', stats: summarize(heap), note: 'after a full GC' },
    { family: 'sync', name: `memory: syncing node's external memory after ${size}`, unit: 'MiB', stats: summarize(external), note: 'Buffers and other memory V8 tracks outside its heap; the rest of RSS is native (RocksDB, libp2p, code)' }
  ]
  const goals = [goal('sync', `${v.label}: sync ≥ 70% of the connect rate`, pairedRatios(syncRates, connectRates), '>=', 0.7)]
  // issue 11: every bench block quotes a devnet beacon round, so the empty-block sync is the
  // rate at which beacon evidence is verified (batched) along with everything else
  if (v.shape.txPerBlock === 0) goals.push(goal('sync', `${v.label} with beacon evidence: sync ≥ 400 blocks/s`, summarize(syncRates), '>=', 400))
  return { rows, goals }
}

async function run (ctx: BenchContext): Promise<FamilyReport> {
  const started = performance.now()
  const rows: BenchRow[] = []
  const goals: GoalResult[] = []
  for (const v of variants(ctx.quick)) {
    const r = await measureVariant(ctx, v)
    rows.push(...r.rows)
    goals.push(...r.goals)
  }
  return { family: 'sync', title: 'initial sync', available: true, rows, goals, seconds: (performance.now() - started) / 1000 }
}

export const syncFamily: BenchFamily = { name: 'sync', title: 'initial sync', run }
