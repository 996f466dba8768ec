// Follow sync probe (issue 29's second goal for ctx.follow): a real initial sync over the
// node's p2p stack (two node processes on 127.0.0.1, as the sync family runs them) of N empty
// blocks, with and without a follower in the syncing node that takes 100 ms over every block.
// The follower must not slow the sync (goal: rate with it >= 0.95x the rate without). Runs
// alternate (which goes first swaps every pair) against one serving node; prints each pair and
// the median ratio.
//
//   node bench/follow-sync-probe.ts [--blocks 2000] [--pairs 4] [--follower-ms 100]
import { parseArgs } from 'node:util'
import { benchParams, benchTmpDir, removeDir } from './lib/chain-fixture.ts'
import { buildBlocks, connectChain } from './lib/chain-builder.ts'
import { startChild } from './lib/child.ts'
import type { Child } from './lib/child.ts'

const { values } = parseArgs({ options: { blocks: { type: 'string', default: '2000' }, pairs: { type: 'string', default: '4' }, 'follower-ms': { type: 'string', default: '100' } } })
const N = Number(values.blocks)
const followerMs = Number(values['follower-ms'])
const params = benchParams()
const { blocks } = buildBlocks(params, { blocks: N, txPerBlock: 0 }, () => {})
const { dir: serverDir } = await connectChain(params, blocks, 'follow-sync-serve')
blocks.length = 0

async function sync (peer: string, withFollower: boolean): Promise<{ rate: number; followed: number }> {
  const client = startChild({ role: 'p2p-sync', dataDir: benchTmpDir('follow-sync-client'), peer, height: N, timeoutMs: 600_000, ...(withFollower ? { followerMs } : {}) })
  try {
    const synced = await client.next('synced', 610_000)
    return { rate: N / synced.seconds, followed: synced.followed ?? 0 }
  } finally {
    await client.stop()
  }
}

const ratios: number[] = []
let server: Child | undefined
try {
  server = startChild({ role: 'p2p-serve', dataDir: serverDir })
  const peer = `127.0.0.1:${(await server.next('ready', 60_000)).port}`
  await sync(peer, false) // warm-up: the serving node's caches, the OS's page cache
  for (let p = 0; p < Number(values.pairs); p++) {
    const followerFirst = p % 2 === 1
    const first = await sync(peer, followerFirst)
    const second = await sync(peer, !followerFirst)
    const [plain, slow] = followerFirst ? [second, first] : [first, second]
    ratios.push(slow.rate / plain.rate)
    console.log(`pair ${p + 1}: sync of ${N} blocks ${plain.rate.toFixed(0)} blocks/s alone, ${slow.rate.toFixed(0)} with a ${followerMs} ms follower (${(slow.rate / plain.rate).toFixed(3)}x; it had handled ${slow.followed} blocks when the tip was reached)`)
  }
} finally {
  await server?.stop()
  removeDir(serverDir)
}
const sorted = [...ratios].sort((a, b) => a - b)
const median = sorted.length % 2 === 1 ? sorted[sorted.length >> 1] as number : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2
console.log(`median: p2p sync with a slow follower ${median.toFixed(3)}x the sync without (goal >= 0.95; pairs ${ratios.map((r) => r.toFixed(3)).join(', ')})`)
