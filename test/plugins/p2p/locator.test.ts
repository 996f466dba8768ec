import t from 'tap'
import { buildLocator, forkPoint, locatorHeights } from '../../../plugins/p2p/locator.ts'
import { cleanup, mineBlock, openTestChain } from '../../helpers/chain.ts'

t.test('locator heights are dense near the tip, sparse below, and end at genesis', async (t) => {
  t.same(locatorHeights(0), [0])
  t.same(locatorHeights(5), [5, 4, 3, 2, 1, 0])
  const hs = locatorHeights(100_000)
  t.same(hs.slice(0, 10), [100000, 99999, 99998, 99997, 99996, 99995, 99994, 99993, 99992, 99991])
  t.equal(hs[hs.length - 1], 0)
  t.ok(hs.length <= 64)
  t.ok(hs.every((h, i) => i === 0 || h < (hs[i - 1] as number)), 'strictly decreasing')
})

t.test('the fork point is the first locator entry on our main chain', async (t) => {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  for (let i = 0; i < 12; i++) await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef()), 'test')
  const main = buildLocator(tc.chain)
  t.equal(main[0], tc.chain.tip().hash)
  t.equal(forkPoint(tc.chain, main), 12)
  // a side branch from height 8: its hashes are unknown or off our main chain
  const at8 = await tc.chain.getBlockByHeight(8)
  const side = mineBlock(tc.params, { hash: at8?.hash as string, height: 8, timestamp: (at8?.timestamp as number) + 0.5 })
  await tc.chain.processBlock(side, 'test')
  t.equal(forkPoint(tc.chain, [side.hash, 'f'.repeat(128), tc.chain.hashAtHeight(8) as string]), 8)
  t.equal(forkPoint(tc.chain, ['f'.repeat(128)]), 0, 'no shared entry: start from genesis')
})
