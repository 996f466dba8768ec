// Side branches cost their sender: a side block is stored only when its branch forks within
// the reorg limit of the tip and could overtake it (a peer's lighter block only when a checked
// header chain vouches for it); side blocks that fall out of reach are pruned.
import t from 'tap'
import type { Test } from 'tap'
import { cleanup, generateWallet, mineBlock, openTestChain, testParams } from '../../helpers/chain.ts'
import type { TestChain } from '../../helpers/chain.ts'
import type { Block } from '../../../core/chain/types.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import { encodeHeader } from '../../../core/chain/header.ts'
import { chainKey } from '../../../core/chain/keys.ts'
import type { ProcessOptions } from '../../../core/chain/chain-service.ts'
import { refOf } from './reorg-helpers.ts'

const p = testParams({ maxReorgDepth: 3 })
const other = generateWallet()
const hex = (b: Uint8Array | undefined): string | undefined => b === undefined ? undefined : Buffer.from(b).toString('hex')

async function open (t: Test): Promise<TestChain> {
  const tc = await openTestChain(p)
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  return tc
}

async function mainChain (tc: TestChain, n: number): Promise<Block[]> {
  const out: Block[] = []
  for (let i = 0; i < n; i++) {
    const b = mineBlock(p, tc.tipRef())
    await tc.chain.processBlock(b, 'test')
    out.push(b)
  }
  return out
}

/** A branch of `n` blocks on `parent` (another miner, so the hashes differ from the main chain's). */
function branch (parent: Block | { hash: string; height: number; timestamp: number }, n: number): Block[] {
  const out: Block[] = []
  let ref = refOf(parent)
  for (let i = 0; i < n; i++) {
    const b = mineBlock(p, ref, { miner: other.address, timestamp: ref.timestamp + 2 })
    out.push(b)
    ref = refOf(b)
  }
  return out
}

async function refused (tc: TestChain, block: Block, code: string, opts?: ProcessOptions): Promise<boolean> {
  try {
    await tc.chain.processBlock(block, 'peer', opts)
    return false
  } catch (err) {
    return err instanceof BlockError && err.code === code
  }
}

t.test('a peer\'s side block lighter than the tip is not stored unless a heavier header chain backs it', async (t) => {
  const tc = await open(t)
  const main = await mainChain(tc, 3)
  const side = branch(main[0] as Block, 3) // forks at 1: side blocks at 2, 3, 4
  t.ok(await refused(tc, side[0] as Block, BlockErrorCode.LIGHT_BRANCH), 'a lighter side block from a peer is refused')
  t.equal(tc.chain.getBlockMeta(side[0]?.hash ?? ''), undefined, 'and not stored')
  // headers-first sync checked a header chain ending at side[2], which outweighs the tip
  const branchWork = BigInt(tc.chain.tip().work) + 1n
  t.equal((await tc.chain.processBlock(side[0] as Block, 'peer', { branchWork })).status, 'side')
  t.equal((await tc.chain.processBlock(side[1] as Block, 'peer', { branchWork })).status, 'side', 'equal work')
  t.equal((await tc.chain.processBlock(side[2] as Block, 'peer')).status, 'reorg', 'heavier: no voucher needed')
  t.equal(tc.chain.tip().hash, side[2]?.hash)
})

t.test('a side block of equal work (a race at the tip) is stored from any peer', async (t) => {
  const tc = await open(t)
  const main = await mainChain(tc, 2)
  const rival = branch(main[0] as Block, 1)[0] as Block
  t.equal((await tc.chain.processBlock(rival, 'peer')).status, 'side')
  t.equal(hex(tc.chain.getHeader(rival.hash)), hex(encodeHeader(rival)), 'its header is indexed')
})

t.test('a branch forking deeper than the reorg limit is refused from every origin, before validation', async (t) => {
  const tc = await open(t)
  await mainChain(tc, 5)
  const g = tc.chain.getBlockMeta(tc.chain.genesisHash())
  if (g === undefined) throw new Error('no genesis')
  const [cheap] = branch(g, 1)
  for (const origin of ['peer', 'test'] as const) {
    try {
      await tc.chain.processBlock(cheap as Block, origin, { branchWork: 10n ** 40n })
      t.fail('stored')
    } catch (err) {
      t.equal((err as BlockError).code, BlockErrorCode.REORG_TOO_DEEP, `${origin}: refused as too deep`)
    }
  }
  t.equal(tc.chain.getBlockMeta(cheap?.hash ?? ''), undefined, 'not stored')
  // forking exactly at the limit (tip 5, fork 2) is still allowed
  const atLimit = branch({ hash: tc.chain.hashAtHeight(2) ?? '', height: 2, timestamp: (tc.chain.getBlockMeta(tc.chain.hashAtHeight(2) ?? '')?.timestamp ?? 0) }, 1)[0] as Block
  t.equal((await tc.chain.processBlock(atLimit, 'test')).status, 'side')
})

t.test('side blocks are pruned once no reorg could reach them, disconnected main blocks too', async (t) => {
  const tc = await open(t)
  const main = await mainChain(tc, 2)
  const side = branch(main[0] as Block, 2) // heights 2 and 3; the second one wins a reorg
  await tc.chain.processBlock(side[0] as Block, 'test')
  t.equal((await tc.chain.processBlock(side[1] as Block, 'test')).status, 'reorg')
  const loser = main[1] as Block // height 2, now a side block
  t.equal(tc.chain.getBlockMeta(loser.hash)?.status, 'side')
  const lateSide = branch(side[0] as Block, 1)[0] as Block // height 3, equal work: stored as a side block
  t.equal((await tc.chain.processBlock(lateSide, 'test')).status, 'side')
  t.ok(tc.chain.getHeader(lateSide.hash) !== undefined)

  // tip 3 -> 5: the limit reaches height 2, the loser (fork at 1) is out of reach
  await mainChain(tc, 2)
  t.equal(tc.chain.getBlockMeta(loser.hash), undefined, 'the stale side block\'s meta is gone')
  t.equal(await tc.chain.getBlockByHash(loser.hash), undefined, 'and its body')
  t.equal(tc.chain.getHeader(loser.hash), undefined, 'and its header')
  t.equal(tc.chain.getBlockMeta(lateSide.hash)?.status, 'side', 'a side block still in reach stays')
  await mainChain(tc, 1) // tip 6: height 3 falls out of reach
  t.equal(tc.chain.getBlockMeta(lateSide.hash), undefined)
  for (const b of side) t.equal(tc.chain.getBlockMeta(b.hash)?.status, 'main', 'main blocks are never pruned')
  const leftovers: string[] = []
  for await (const k of tc.db.keys({ gte: chainKey.sideBlockPrefix(), lt: chainKey.sideBlockPrefix() + '\xff' })) leftovers.push(k)
  t.same(leftovers, [], 'the side index is empty')
  const bodies: string[] = []
  for await (const k of tc.db.keys({ gte: `bx:${loser.hash}`, lt: `bx:${loser.hash}\xff` })) bodies.push(k)
  t.same(bodies, [], 'no transaction of the pruned block is left')
})

t.test('every main-chain block has its 272 header bytes indexed', async (t) => {
  const tc = await open(t)
  const main = await mainChain(tc, 3)
  for (const b of main) t.equal(hex(tc.chain.getHeader(b.hash)), hex(encodeHeader(b)))
})
