// Chain followers (ctx.follow, issue 29): every block in order from a durable cursor, a reorg as
// reverts then commits, resume after a restart from the last acknowledgement, a slow follower
// that import never waits for, and the goal in reduced form: random reorgs (depth 1-20) with
// restarts at random points, after which an indexer's table equals the one recomputed from the
// final chain.
import t from 'tap'
import path from 'node:path'
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import type { Block } from '../../../core/chain/types.ts'
import type { FollowNotification } from '../../../core/kernel/follow.ts'
import type { BlockRef } from '../../../core/kernel/hooks.ts'
import { startTestNode } from '../../helpers/node.ts'
import type { TestNode } from '../../helpers/node.ts'
import { cleanup, mineBlock, testParams, tmpDir } from '../../helpers/chain.ts'
import type { ParentRef } from '../../helpers/chain.ts'
import { seededBytes, seededRandom } from '../../helpers/random.ts'
import { waitFor } from '../../helpers/wait.ts'

const params = testParams()
const refOf = (b: Block): ParentRef => ({ hash: b.hash, height: b.height, timestamp: b.timestamp })

async function node (dataDir: string, p = params): Promise<TestNode> {
  return await startTestNode({ plugins: ['storage', 'consensus'], params: p, dataDir, keepData: true })
}

/** `n` blocks on `parent`; `salt` makes a branch's blocks differ from another's at the same height */
function branch (parent: ParentRef, n: number, salt: number, miner?: (i: number) => string): Block[] {
  const out: Block[] = []
  let at = parent
  for (let i = 0; i < n; i++) {
    const b = mineBlock(params, at, { timestamp: at.timestamp + 1 + salt, miner: miner?.(i) })
    out.push(b)
    at = refOf(b)
  }
  return out
}

async function feed (n: TestNode, blocks: Block[]): Promise<void> {
  const chain = n.resolve('chain')
  for (const b of blocks) await chain.processBlock(b, 'test')
}

const tag = (e: FollowNotification): string => `${e.kind} ${e.block.height} ${e.block.hash.slice(0, 8)}`

t.test('in order from genesis; a reorg arrives as reverts (newest first) then commits', async (t) => {
  const dir = tmpDir('ledger-follow-')
  t.teardown(() => cleanup(dir))
  const n = await node(dir)
  t.teardown(() => n.stop())
  const seen: FollowNotification[] = []
  const f = n.resolve('chainFollow').follow('test/order', (e) => { seen.push(e) })
  const genesis = await n.resolve('chain').getBlockByHeight(0) as Block
  const a = branch(refOf(genesis), 5, 0)
  await feed(n, a)
  await waitFor('the follower at A5', () => f.position?.hash === a[4]?.hash)
  const b = branch(refOf(a[1] as Block), 5, 1)
  await feed(n, b)
  await waitFor('the follower at B7', () => f.position?.hash === b[4]?.hash)
  t.same(seen.map(tag), [
    tag({ kind: 'commit', block: genesis, receipts: [], cursor: refOf(genesis) }),
    ...a.map((x) => `commit ${x.height} ${x.hash.slice(0, 8)}`),
    ...a.slice(2).reverse().map((x) => `revert ${x.height} ${x.hash.slice(0, 8)}`),
    ...b.map((x) => `commit ${x.height} ${x.hash.slice(0, 8)}`)
  ])
  const reverted = seen.find((e) => e.kind === 'revert')
  t.same(reverted?.cursor, { height: 4, hash: a[3]?.hash }, 'a revert\'s cursor is the parent of the reverted block')
})

t.test('a restart resumes after the last acknowledged block; a failing handler gets the same block again', async (t) => {
  const dir = tmpDir('ledger-follow-')
  t.teardown(() => cleanup(dir))
  const heights: number[] = []
  let failOnce = 3
  const handler = (e: FollowNotification): void => {
    if (e.kind === 'commit' && e.block.height === failOnce) { failOnce = -1; throw new Error('indexer hiccup') }
    heights.push(e.block.height)
  }
  let n = await node(dir)
  let f = n.resolve('chainFollow').follow('test/resume', handler)
  const genesis = await n.resolve('chain').getBlockByHeight(0) as Block
  const blocks = branch(refOf(genesis), 8, 0)
  await feed(n, blocks.slice(0, 5))
  await waitFor('the follower at 5', () => f.position?.height === 5, 20_000)
  await n.stop()
  n = await node(dir)
  t.teardown(() => n.stop())
  f = n.resolve('chainFollow').follow('test/resume', handler)
  await feed(n, blocks.slice(5))
  await waitFor('the follower at 8', () => f.position?.height === 8)
  t.same(heights, [0, 1, 2, 3, 4, 5, 6, 7, 8], 'every block once: none missed, none repeated after its acknowledgement')
})

t.test('a stuck follower never holds import back, holds no queue, and catches up from the database', async (t) => {
  const dir = tmpDir('ledger-follow-')
  t.teardown(() => cleanup(dir))
  const n = await node(dir)
  t.teardown(() => n.stop())
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => { release = resolve })
  const heights: number[] = []
  const f = n.resolve('chainFollow').follow('test/slow', async (e) => { if (e.block.height === 1) await gate; heights.push(e.block.height) })
  const genesis = await n.resolve('chain').getBlockByHeight(0) as Block
  const blocks = branch(refOf(genesis), 30, 0)
  await feed(n, blocks)
  t.equal(n.resolve('chain').tip().height, 30, 'all 30 blocks imported while the follower waits at height 1')
  t.equal(f.position?.height, 0, 'the follower has acknowledged genesis only')
  release()
  await waitFor('the follower at 30', () => f.position?.height === 30)
  t.same(heights, Array.from({ length: 31 }, (_, i) => i))
})

t.test('side blocks a lagging follower still has to revert are kept past the reorg horizon', async (t) => {
  const dir = tmpDir('ledger-follow-')
  t.teardown(() => cleanup(dir))
  const n = await node(dir, testParams({ maxReorgDepth: 3 }))
  t.teardown(() => n.stop())
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => { release = resolve })
  const seen: string[] = []
  const f = n.resolve('chainFollow').follow('test/lagging', async (e) => { if (e.kind === 'commit' && e.block.height === 8) await gate; seen.push(tag(e)) })
  const genesis = await n.resolve('chain').getBlockByHeight(0) as Block
  const a = branch(refOf(genesis), 8, 0)
  await feed(n, a)
  await waitFor('the follower past A7, waiting at A8', () => f.position?.height === 7)
  const b = branch(refOf(a[5] as Block), 15, 1)
  await feed(n, b)
  t.equal(n.resolve('chain').tip().height, 21)
  t.ok(await n.resolve('chain').getBlockByHash((a[6] as Block).hash), 'A7 is kept (18 blocks below the tip, horizon 3)')
  release()
  await waitFor('the follower at the tip', () => f.position?.height === 21)
  t.same(seen.slice(7, 11), [`commit 7 ${a[6]?.hash.slice(0, 8)}`, `commit 8 ${a[7]?.hash.slice(0, 8)}`, `revert 8 ${a[7]?.hash.slice(0, 8)}`, `revert 7 ${a[6]?.hash.slice(0, 8)}`])
})

/** an indexer's table: per address, coin received by coinbase and transfers, and block count mined */
type Table = Record<string, { received: number; mined: number }>

function apply (table: Table, block: Block, sign: 1 | -1): void {
  const row = (a: string): { received: number; mined: number } => (table[a] ??= { received: 0, mined: 0 })
  row(block.miner).mined += sign
  for (const tx of block.transactions) row(tx.recipient).received += sign * tx.amount
  for (const [k, v] of Object.entries(table)) if (v.received === 0 && v.mined === 0) delete table[k]
}

/** the indexer keeps its table and its cursor in one file, replaced atomically: exactly once */
function fileIndexer (file: string): { table: () => Table; handler: (e: FollowNotification) => void; load: () => BlockRef | null } {
  const read = (): { table: Table; cursor: BlockRef | null } => existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as { table: Table; cursor: BlockRef | null } : { table: {}, cursor: null }
  return {
    table: () => read().table,
    load: () => read().cursor,
    handler: (e) => {
      const state = read()
      apply(state.table, e.block, e.kind === 'commit' ? 1 : -1)
      state.cursor = e.cursor
      writeFileSync(`${file}.tmp`, JSON.stringify(state))
      renameSync(`${file}.tmp`, file)
    }
  }
}

t.test('goal, reduced: random reorgs of depth 1-20 and restarts at random points; the table equals the final chain\'s', async (t) => {
  const dir = tmpDir('ledger-follow-')
  t.teardown(() => cleanup(dir))
  const random = seededRandom(29)
  const miners = Array.from({ length: 4 }, (_, i) => seededBytes(`follower-goal-miner-${i}`, 16).toString('hex'))
  const pick = (): string => miners[Math.floor(random() * miners.length)] as string
  const indexer = fileIndexer(path.join(dir, 'indexer.json'))
  let n = await node(path.join(dir, 'node'))
  let f = n.resolve('chainFollow').follow('test/indexer', indexer.handler, { cursor: { load: indexer.load } })
  const chain = () => n.resolve('chain')
  await feed(n, branch(refOf(await chain().getBlockByHeight(0) as Block), 25, 0, pick))
  let reorgs = 0
  let restarts = 0
  for (let round = 1; round <= 24; round++) {
    const tip = chain().tip()
    const depth = 1 + Math.floor(random() * 20)
    const fork = await chain().getBlockByHeight(Math.max(0, tip.height - depth)) as Block
    // a longer branch: heavier, so it becomes the best chain
    await feed(n, branch(refOf(fork), tip.height - fork.height + 1 + Math.floor(random() * 3), round, pick))
    reorgs++
    if (random() < 0.35) {
      // a restart at whatever point the follower has reached (often behind, mid-backfill)
      await n.stop()
      n = await node(path.join(dir, 'node'))
      f = n.resolve('chainFollow').follow('test/indexer', indexer.handler, { cursor: { load: indexer.load } })
      restarts++
    }
  }
  await waitFor('the indexer at the tip', () => f.position?.hash === chain().tip().hash, 60_000)
  const expected: Table = {}
  for (let h = 0; h <= chain().tip().height; h++) apply(expected, await chain().getBlockByHeight(h) as Block, 1)
  t.same(indexer.table(), expected, `after ${reorgs} reorgs and ${restarts} restarts`)
  t.ok(restarts > 0, 'restarted at least once')
  await n.stop()
})
