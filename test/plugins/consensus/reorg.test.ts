// Fork choice by cumulative work and reorgs: the node ends exactly where a node fed only the
// winning branch would be.
import t from 'tap'
import type { Test } from 'tap'
import { mineBlock, transfer, devWallet, generateWallet, openTestChain, cleanup, testParams } from '../../helpers/chain.ts'
import type { Block } from '../../../core/chain/types.ts'
import type { ChainService } from '../../../core/chain/chain-service.ts'
import type { BlockRef, ReorgEvent } from '../../../core/kernel/hooks.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import { blockWork } from '../../../core/chain/difficulty.ts'
import { startChainNode, refOf, stateDump, feed } from './reorg-helpers.ts'
import type { PluginChain } from './reorg-helpers.ts'

const params = testParams()
const dev = devWallet()
const X = generateWallet()
const W = generateWallet()
const Z = generateWallet()
const Y = generateWallet()
const alice = generateWallet()
const carol = generateWallet()
const dave = generateWallet()
const bob = generateWallet()
const memo = (text: string): { data: { memo: string } } => ({ data: { memo: text } })

/** Compares everything observable through the chain service, plus the raw state dump. */
async function sameAsFresh (t: Test, node: PluginChain, winning: Block[]): Promise<void> {
  const fresh = await openTestChain(params)
  try {
    await feed(fresh.chain, winning)
    t.same(node.chain.tip(), fresh.chain.tip(), 'same tip')
    t.equal(node.chain.totalSupply(), fresh.chain.totalSupply(), 'same supply')
    for (const w of [dev, X, W, Z, Y, alice, carol, dave, bob]) {
      t.same(node.chain.getAccount(w.address), fresh.chain.getAccount(w.address), 'same account (balance, nonce, key)')
      t.same(await node.chain.addressHistory(w.address, 0, 100), await fresh.chain.addressHistory(w.address, 0, 100), 'same address history')
    }
    t.same(await node.chain.recentMessageTxs(50), await fresh.chain.recentMessageTxs(50), 'same message index')
    for (let h = 0; h <= fresh.chain.tip().height; h++) t.equal(node.chain.hashAtHeight(h), fresh.chain.hashAtHeight(h), `same main block at ${h}`)
    t.equal(node.chain.hashAtHeight(fresh.chain.tip().height + 1), undefined, 'nothing above the tip')
    t.same(await stateDump(node.db), await stateDump(fresh.db), 'identical state, indexes and undo records')
  } finally {
    await fresh.close()
    cleanup(fresh.dir)
  }
}

interface Recorded { connected: Array<{ height: number; reorg: boolean }>; disconnected: number[]; reorgs: ReorgEvent[]; tips: BlockRef[] }

function record (node: PluginChain): Recorded {
  const r: Recorded = { connected: [], disconnected: [], reorgs: [], tips: [] }
  node.hooks.blockConnected.tap('test', (e) => { r.connected.push({ height: e.block.height, reorg: e.reorg }) })
  node.hooks.blockDisconnected.tap('test', (b) => { r.disconnected.push(b.height) })
  node.hooks.reorg.tap('test', (e) => { r.reorgs.push(e) })
  node.hooks.tipChanged.tap('test', (tip) => { r.tips.push(tip) })
  return r
}
const clear = (r: Recorded): void => { r.connected.length = 0; r.disconnected.length = 0; r.reorgs.length = 0; r.tips.length = 0 }

async function expectBlockError (t: Test, chain: ChainService, block: Block, code: string): Promise<void> {
  try {
    await chain.processBlock(block, 'test')
    t.fail(`expected ${code}`)
  } catch (err) {
    t.ok(err instanceof BlockError, 'a BlockError')
    t.equal((err as BlockError).code, code)
  }
}

t.test('fork choice by work; a reorg across several blocks with transactions on both branches', async (t) => {
  const node = await startChainNode(params)
  t.teardown(() => node.stop())
  const events = record(node)
  const g = node.chain.tip()

  // common block: fund X, W and dave
  const c1 = mineBlock(params, refOf(g), { txs: [transfer(params, dev, X.address, 50, 0), transfer(params, dev, W.address, 50, 1), transfer(params, dev, dave.address, 50, 2)] })
  const shared = transfer(params, W, Z.address, 2, 0)
  const x0 = transfer(params, X, Y.address, 1, 0, memo('on A'))
  const x1 = transfer(params, X, Y.address, 2, 1, { withKey: true })
  const devA = transfer(params, dev, alice.address, 3, 3)
  const a2 = mineBlock(params, refOf(c1), { txs: [x0, devA, shared] })
  const a3 = mineBlock(params, refOf(a2), { txs: [x1] })

  const devB = transfer(params, dev, carol.address, 7, 3, memo('on B'))
  const b2 = mineBlock(params, refOf(c1), { txs: [devB], timestamp: c1.timestamp + 2 })
  const b3 = mineBlock(params, refOf(b2), { txs: [shared] })
  const b4 = mineBlock(params, refOf(b3), { miner: bob.address })

  t.same((await node.chain.processBlock(c1, 'test')).status, 'connected')
  // transactions pass through the pool like on a live node
  for (const tx of [x0, devA, shared]) node.mempool.add(tx)
  t.equal((await node.chain.processBlock(a2, 'test')).status, 'connected')
  t.equal((await node.chain.processBlock(a3, 'test')).status, 'connected')
  t.equal(node.mempool.size, 0)
  const unrelated = transfer(params, dave, carol.address, 1, 0)
  node.mempool.add(unrelated)
  const beforeSide = await stateDump(node.db)

  t.equal((await node.chain.processBlock(b2, 'test')).status, 'side', 'less work: stored aside')
  t.equal((await node.chain.processBlock(b3, 'test')).status, 'side', 'equal work: the first seen stays')
  t.equal(node.chain.tip().hash, a3.hash)
  t.same(await stateDump(node.db), beforeSide, 'side blocks touch no state')
  t.equal(node.chain.getBlockMeta(b3.hash)?.status, 'side')
  t.equal((await node.chain.processBlock(b3, 'test')).status, 'known')
  clear(events)

  const r = await node.chain.processBlock(b4, 'test')
  t.same(r, { status: 'reorg', hash: b4.hash, height: 4 })
  t.equal(node.chain.tip().work, (5n * blockWork(params.initialBits)).toString(), 'cumulative work sums 2^512 / (target + 1), genesis included')

  t.test('state is as if only the new branch had ever been connected', (t) => sameAsFresh(t, node, [c1, b2, b3, b4]))

  t.test('indexes follow the new branch', async (t) => {
    t.equal(await node.chain.getTransaction(x0.transaction_id), undefined, 'abandoned tx no longer indexed')
    t.equal(await node.chain.getTransaction(devA.transaction_id), undefined)
    t.same((await node.chain.getTransaction(shared.transaction_id))?.location, { height: 3, index: 1, hash: b3.hash }, 'a tx on both branches is indexed where the new branch has it')
    t.same((await node.chain.recentMessageTxs(10)).map((c) => c.tx.transaction_id), [devB.transaction_id])
    t.equal((await node.chain.addressHistory(X.address, 0, 10)).total, 1, 'X: only its funding')
    t.equal(node.chain.getBlockMeta(a3.hash)?.status, 'side')
    t.equal(node.chain.getBlockMeta(a2.hash)?.status, 'side')
    t.equal(node.chain.getBlockMeta(b2.hash)?.status, 'main')
    t.equal((await node.chain.getBlockByHeight(2))?.hash, b2.hash)
  })

  t.test('abandoned transactions not on the new branch are back in the pool', async (t) => {
    t.ok(node.mempool.has(x0.transaction_id), 'X nonce 0 back')
    t.ok(node.mempool.has(x1.transaction_id), 'X nonce 1 back')
    t.notOk(node.mempool.has(devA.transaction_id), 'dev nonce 3 conflicts with the new branch: dropped')
    t.notOk(node.mempool.has(shared.transaction_id), 'confirmed on the new branch: not pending')
    t.ok(node.mempool.has(unrelated.transaction_id), 'an unrelated pending transaction stays')
    t.equal(node.mempool.size, 3)
    t.same(node.mempool.select(10).filter((x) => x.sender === X.address).map((x) => x.nonce), [0, 1])
  })

  t.test('hooks', async (t) => {
    t.same(events.disconnected, [3, 2], 'old branch disconnected tip first')
    t.same(events.connected, [{ height: 2, reorg: true }, { height: 3, reorg: true }, { height: 4, reorg: true }])
    t.equal(events.reorgs.length, 1)
    t.same(events.reorgs[0], { from: { height: 3, hash: a3.hash }, to: { height: 4, hash: b4.hash }, forkPoint: { height: 1, hash: c1.hash }, disconnected: 2, connected: 3 })
    t.same(events.tips, [{ height: 4, hash: b4.hash }], 'one tip change, after the whole switch')
  })

  t.test('and back: the old branch grows heavier and wins again', async (t) => {
    const a4 = mineBlock(params, refOf(a3))
    const a5 = mineBlock(params, refOf(a4))
    t.equal((await node.chain.processBlock(a4, 'test')).status, 'side', 'equal work again')
    clear(events)
    t.equal((await node.chain.processBlock(a5, 'test')).status, 'reorg')
    t.same(events.disconnected, [4, 3, 2])
    t.equal(events.connected.length, 4)
    t.ok(node.mempool.has(devB.transaction_id) === false, 'dev nonce 3 is taken on A')
    t.notOk(node.mempool.has(x0.transaction_id), 'confirmed again on A')
    await sameAsFresh(t, node, [c1, a2, a3, a4, a5])
  })
})

t.test('a reorg deeper than maxReorgDepth is refused', async (t) => {
  const p = testParams({ maxReorgDepth: 3 })
  const tc = await openTestChain(p)
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const g = tc.tipRef()
  const main: Block[] = []
  let parent = g
  for (let i = 0; i < 5; i++) { const b = mineBlock(p, parent, { txs: i === 0 ? [transfer(p, dev, X.address, 5, 0)] : [] }); main.push(b); parent = refOf(b) }
  await feed(tc.chain, main)
  const before = await stateDump(tc.db)

  // from genesis: 6 blocks would outweigh 5, but switching would undo 5 > 3, so the branch is
  // refused from its first block on and not even stored
  const deep: Block[] = []
  parent = g
  for (let i = 0; i < 7; i++) { const b = mineBlock(p, parent, { miner: bob.address, timestamp: parent.timestamp + 2 }); deep.push(b); parent = refOf(b) }
  await expectBlockError(t, tc.chain, deep[0] as Block, BlockErrorCode.REORG_TOO_DEEP)
  t.equal(tc.chain.getBlockMeta(deep[0]?.hash ?? ''), undefined, 'the stale side block was not stored')
  await expectBlockError(t, tc.chain, deep[1] as Block, BlockErrorCode.PARENT_UNKNOWN)
  t.equal(tc.chain.tip().hash, main[4]?.hash, 'still on the old branch')
  t.same(await stateDump(tc.db), before, 'state intact')

  // forking at height 2 undoes exactly 3: allowed
  const m2 = main[1] as Block
  const ok: Block[] = []
  parent = refOf(m2)
  for (let i = 0; i < 4; i++) { const b = mineBlock(p, parent, { miner: carol.address, timestamp: parent.timestamp + 3 }); ok.push(b); parent = refOf(b) }
  await feed(tc.chain, ok.slice(0, 3))
  t.equal((await tc.chain.processBlock(ok[3] as Block, 'test')).status, 'reorg')
  t.equal(tc.chain.tip().hash, ok[3]?.hash)
  t.equal(tc.chain.getAccount(X.address).balance, 5n * 10n ** 18n, 'the common block\'s transfer survives')
})

t.test('a heavier branch with an invalid block leaves the node on its branch, state and pool intact', async (t) => {
  const node = await startChainNode(params)
  t.teardown(() => node.stop())
  const events = record(node)
  const g = node.chain.tip()
  const c1 = mineBlock(params, refOf(g), { txs: [transfer(params, dev, X.address, 10, 0), transfer(params, dev, dave.address, 10, 1)] })
  const a2 = mineBlock(params, refOf(c1), { txs: [transfer(params, dev, alice.address, 1, 2, memo('kept'))] })
  const a3 = mineBlock(params, refOf(a2))
  await feed(node.chain, [c1, a2, a3])

  const pending = transfer(params, dave, Z.address, 1, 0)
  node.mempool.add(pending)
  const before = await stateDump(node.db)
  const beforeHistory = await node.chain.addressHistory(alice.address, 0, 10)

  // b2 carries the pending transaction; b3 spends more than X holds (valid in every other way)
  const b2 = mineBlock(params, refOf(c1), { txs: [pending], timestamp: c1.timestamp + 5 })
  const b3 = mineBlock(params, refOf(b2), { txs: [transfer(params, X, Y.address, 11, 0)] })
  const b4 = mineBlock(params, refOf(b3))
  await feed(node.chain, [b2, b3])
  clear(events)
  await expectBlockError(t, node.chain, b4, BlockErrorCode.BAD_TX)

  t.equal(node.chain.tip().hash, a3.hash, 'back on the old branch')
  t.same(await stateDump(node.db), before, 'state, indexes and undo records as before')
  t.same(await node.chain.addressHistory(alice.address, 0, 10), beforeHistory)
  t.equal(node.chain.getBlockMeta(b3.hash)?.status, 'invalid', 'the bad block is remembered')
  t.equal(node.chain.getBlockMeta(b2.hash)?.status, 'side')
  t.equal(node.chain.getBlockMeta(a3.hash)?.status, 'main')
  t.ok(node.mempool.has(pending.transaction_id), 'a pending transaction the failed branch carried is still pending')
  t.same(events.reorgs, [], 'no reorg announced')
  t.same(events.tips.at(-1), { height: 3, hash: a3.hash })
  t.same(events.connected.at(-1), { height: 3, reorg: true })
  await sameAsFresh(t, node, [c1, a2, a3])
  // a block extending the failed branch fails the same way and leaves the same state
  await expectBlockError(t, node.chain, mineBlock(params, refOf(b4)), BlockErrorCode.BAD_TX)
  t.same(await stateDump(node.db), before)
  t.ok(node.mempool.has(pending.transaction_id))
  // and it still takes blocks on its branch
  t.equal((await node.chain.processBlock(mineBlock(params, refOf(a3), { txs: node.mempool.select(10) }), 'test')).status, 'connected')
  t.equal(node.mempool.size, 0)
})

t.test('a reorg keeps the pending successors of an orphaned transaction', async (t) => {
  const node = await startChainNode(params)
  t.teardown(() => node.stop())
  const g = node.chain.tip()
  const c1 = mineBlock(params, refOf(g), { txs: [transfer(params, dev, X.address, 50, 0)] })
  const x0 = transfer(params, X, Y.address, 1, 0)
  const x1 = transfer(params, X, Y.address, 2, 1)
  const x2 = transfer(params, X, Y.address, 3, 2)
  const a2 = mineBlock(params, refOf(c1), { txs: [x0] })
  const b2 = mineBlock(params, refOf(c1), { timestamp: c1.timestamp + 2 })
  const b3 = mineBlock(params, refOf(b2))
  await node.chain.processBlock(c1, 'test')
  node.mempool.add(x0)
  await node.chain.processBlock(a2, 'test')
  node.mempool.add(x1)
  node.mempool.add(x2)
  t.same(node.mempool.select(10).map((x) => x.nonce), [1, 2], 'successors pending on branch A')
  await node.chain.processBlock(b2, 'test')
  t.same((await node.chain.processBlock(b3, 'test')).status, 'reorg')
  t.same(node.mempool.select(10).map((x) => x.transaction_id), [x0, x1, x2].map((x) => x.transaction_id), 'orphan and successors, in nonce order')
  t.equal(node.mempool.nextNonce(X.address), 3)
  const b4 = mineBlock(params, refOf(b3), { txs: node.mempool.select(10) })
  t.equal((await node.chain.processBlock(b4, 'test')).status, 'connected', 'the three mine together on the new branch')
  t.equal(node.chain.getAccount(X.address).nonce, 3)
  t.equal(node.mempool.size, 0)
})
