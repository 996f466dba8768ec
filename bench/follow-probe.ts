// Follow probe (issue 29's goals for ctx.follow): block import with and without a follower that
// takes 100 ms a block (the follower must not slow import: goal >= 0.95x), and the backfill of
// a follower that starts the whole chain behind, against the rate the same blocks connected at
// (goal >= 0.8x). Connects through Chain.processBlock as the consensus plugin builds it, runs
// alternated; prints the rates and the ratios.
//
//   node bench/follow-probe.ts [--blocks 2000] [--pairs 2] [--follower-ms 100]
import { parseArgs } from 'node:util'
import type { Block } from '../core/chain/types.ts'
import type { Chain } from '../plugins/consensus/chain.ts'
import type { ChainFollowers } from '../plugins/consensus/follower.ts'
import { buildBlocks } from './lib/chain-builder.ts'
import { benchParams, benchTmpDir, openFollowedChain, removeDir } from './lib/chain-fixture.ts'

const { values } = parseArgs({ options: { blocks: { type: 'string', default: '2000' }, pairs: { type: 'string', default: '2' }, 'follower-ms': { type: 'string', default: '100' } } })
const N = Number(values.blocks)
const followerMs = Number(values['follower-ms'])
const params = benchParams()
const { blocks } = buildBlocks(params, { blocks: N, txPerBlock: 0 }, () => {})

async function open (dir: string): Promise<{ chain: Chain; followers: ChainFollowers; close: () => Promise<void> }> {
  const { chain, db, followers } = await openFollowedChain(params, dir)
  return { chain, followers, close: async () => { await followers.stop(0); await db.close() } }
}

async function importRate (slowFollower: boolean, chainBlocks: Block[] = blocks): Promise<{ rate: number; dir: string; followed: number }> {
  const dir = benchTmpDir('follow-probe')
  const { chain, followers, close } = await open(dir)
  const follower = slowFollower ? followers.follow('probe/slow', async () => { await new Promise((resolve) => setTimeout(resolve, followerMs)) }) : undefined
  await followers.start()
  const started = performance.now()
  // a block at a time, yielding to the event loop between them as blocks that arrive from a
  // peer do (a loop of processBlock alone can run on microtasks and starve every timer)
  for (const b of chainBlocks) {
    await chain.processBlock(b, 'test')
    await new Promise((resolve) => setImmediate(resolve))
  }
  const rate = chainBlocks.length / ((performance.now() - started) / 1000)
  const followed = follower?.delivered ?? 0
  await close()
  return { rate, dir, followed }
}

async function backfillRate (dir: string): Promise<number> {
  const { chain, followers, close } = await open(dir)
  const tip = chain.tip().hash
  let done: () => void = () => {}
  const reached = new Promise<void>((resolve) => { done = resolve })
  followers.follow('probe/backfill', (n) => { if (n.kind === 'commit' && n.block.hash === tip) done() })
  const started = performance.now()
  await followers.start()
  await reached
  const rate = (N + 1) / ((performance.now() - started) / 1000)
  await close()
  return rate
}

// a warm-up (not counted): the first import in a process ran ~2-30x slower than the next ones
// (compiling, JIT, the page cache), which made pair 1's ratios meaningless
removeDir((await importRate(false, blocks.slice(0, Math.min(N, 500)))).dir)
const ratios: number[] = []
const backfill: number[] = []
for (let p = 0; p < Number(values.pairs); p++) {
  const plain = await importRate(false)
  const slow = await importRate(true)
  ratios.push(slow.rate / plain.rate)
  const fill = await backfillRate(plain.dir)
  backfill.push(fill / plain.rate)
  console.log(`pair ${p + 1}: import ${plain.rate.toFixed(0)} blocks/s alone, ${slow.rate.toFixed(0)} with a ${followerMs} ms follower (${(slow.rate / plain.rate).toFixed(3)}x; it had handled ${slow.followed}); backfill of ${N} blocks ${fill.toFixed(0)} blocks/s (${(fill / plain.rate).toFixed(2)}x the import)`)
  removeDir(plain.dir)
  removeDir(slow.dir)
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid] as number : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}
console.log(`median: import with a slow follower ${median(ratios).toFixed(3)}x (goal >= 0.95), backfill ${median(backfill).toFixed(2)}x the import rate (goal >= 0.8)`)
