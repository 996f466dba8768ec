// Invalid blocks are not stored for ever: pruned once out of any reorg's reach and past a
// count bound, and still never validated again (a bounded set of known-invalid hashes).
import t from 'tap'
import { openTestChain, mineBlock, transfer, devWallet, generateWallet, cleanup, testParams, tmpDir } from '../../helpers/chain.ts'
import type { TestChain } from '../../helpers/chain.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import type { Block } from '../../../core/chain/types.ts'
import { chainKey } from '../../../core/chain/keys.ts'

const dev = devWallet()

/** A block on the tip whose transaction reuses a nonce: valid work, invalid state (BAD_TX). */
function invalidOnTip (tc: TestChain, salt: number): Block {
  const bob = generateWallet()
  return mineBlock(tc.params, tc.tipRef(), { txs: [transfer(tc.params, dev, bob.address, 1 + salt, 0)], timestamp: tc.tipRef().timestamp + 1 + salt })
}

async function refusedAs (tc: TestChain, block: Block, message: RegExp): Promise<void> {
  await tc.chain.processBlock(block, 'peer').then(() => { throw new Error('accepted') }, (err: unknown) => {
    if (!(err instanceof BlockError) || err.code !== BlockErrorCode.BAD_TX || !message.test(err.message)) throw err
  })
}

async function storedInvalid (tc: TestChain): Promise<string[]> {
  const out: string[] = []
  for await (const key of tc.db.keys({ gte: 'iv:', lt: 'iv:~' })) out.push(key.slice(key.lastIndexOf(':') + 1))
  return out
}

t.test('an invalid block is pruned once out of reorg reach, and still refused without validation', async (t) => {
  const tc = await openTestChain(testParams({ maxReorgDepth: 3 }), tmpDir())
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  // spend dev's nonce 0 on the main chain first, so a block reusing it is state-invalid
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: [transfer(tc.params, dev, generateWallet().address, 1, 0)] }), 'test')
  const bad = invalidOnTip(tc, 0)
  await refusedAs(tc, bad, /nonce/)
  t.equal(tc.chain.getBlockMeta(bad.hash)?.status, 'invalid', 'stored as invalid at first')
  t.same(await storedInvalid(tc), [bad.hash])
  for (let i = 0; i < 4; i++) await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef()), 'test')
  t.equal(tc.chain.getBlockMeta(bad.hash), undefined, 'pruned once at or below tip − reorg limit')
  t.equal(await tc.db.get(chainKey.block(bad.hash)), undefined, 'its body too')
  t.same(await storedInvalid(tc), [])
  await refusedAs(tc, bad, /already found invalid/)
  const child = mineBlock(tc.params, { hash: bad.hash, height: bad.height, timestamp: bad.timestamp })
  await refusedAs(tc, child, /parent block is invalid/)
})

t.test('past the count bound the lowest invalid blocks go first', async (t) => {
  const tc = await openTestChain(testParams(), tmpDir(), { maxInvalidStored: 2 })
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: [transfer(tc.params, dev, generateWallet().address, 1, 0)] }), 'test')
  const bad: Block[] = []
  for (let i = 0; i < 4; i++) {
    const b = invalidOnTip(tc, i)
    await refusedAs(tc, b, /nonce/)
    bad.push(b)
    // the next one a height up: connect a valid block between them
    await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { timestamp: tc.tipRef().timestamp + 10 + i }), 'test')
  }
  const kept = await storedInvalid(tc)
  t.equal(kept.length, 2, 'two kept')
  t.same(new Set(kept), new Set([bad[2]?.hash, bad[3]?.hash]), 'the highest two')
  for (const b of bad) await refusedAs(tc, b, /already found invalid/)
})
