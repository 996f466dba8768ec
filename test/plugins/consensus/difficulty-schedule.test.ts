// The chain applies the difficulty schedule at interval boundaries from the right window of
// block timestamps, and cumulative work follows the difficulties.
import t from 'tap'
import { openTestChain, mineBlock, cleanup, testParams } from '../../helpers/chain.ts'
import type { Block } from '../../../core/chain/types.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import { blockWork } from '../../../core/chain/difficulty.ts'

t.test('re-evaluation every 10 blocks on a live chain', async (t) => {
  // interval 10, target 5 s: the 9 gaps of an interval are expected to take 45 s
  const params = testParams({ fixedDifficulty: false, initialDifficulty: 1, minDifficulty: 1, maxDifficulty: 2, blockTimeTarget: 5, difficultyInterval: 10 })
  const tc = await openTestChain(params)
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const add = async (gap: number, difficulty: number): Promise<Block> => {
    const b = mineBlock(params, tc.tipRef(), { timestamp: tc.tipRef().timestamp + gap, difficulty })
    await tc.chain.processBlock(b, 'test')
    return b
  }

  for (let h = 1; h <= 9; h++) {
    t.equal(tc.chain.nextDifficulty(), 1, `height ${h}: initial difficulty`)
    await add(1, 1)
  }
  // blocks 0..9 spanned 9 s < 22.5 s: height 10 must be one harder
  t.equal(tc.chain.nextDifficulty(), 2)
  try {
    await tc.chain.processBlock(mineBlock(params, tc.tipRef(), { timestamp: tc.tipRef().timestamp + 1000, difficulty: 1 }), 'test')
    t.fail('expected BAD_DIFFICULTY')
  } catch (err) {
    t.equal((err as BlockError).code, BlockErrorCode.BAD_DIFFICULTY)
  }
  // a long gap before block 10 lies outside the window height 20 looks at
  await add(1000, 2)
  for (let h = 11; h <= 19; h++) {
    t.equal(tc.chain.nextDifficulty(), 2, `height ${h} keeps the parent difficulty`)
    await add(5, 2)
  }
  t.equal(tc.chain.nextDifficulty(), 2, 'height 20: blocks 10..19 took 45 s, on target: hold')
  await add(5, 2)
  for (let h = 21; h <= 29; h++) await add(12, 2)
  t.equal(tc.chain.nextDifficulty(), 1, 'height 30: blocks 20..29 took 108 s > 90 s: one easier')
  await add(1, 1)
  t.equal(tc.chain.tip().work, (blockWork(0) + 10n * blockWork(1) + 20n * blockWork(2)).toString(), 'work sums 16^difficulty')
})

t.test('a fixed-difficulty chain never adjusts', async (t) => {
  const params = testParams()
  const tc = await openTestChain(params)
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  for (let h = 1; h <= 11; h++) await tc.chain.processBlock(mineBlock(params, tc.tipRef()), 'test')
  t.equal(tc.chain.nextDifficulty(), 1)
  t.equal(tc.chain.tip().work, (1n + 11n * 16n).toString())
})
