// The chain applies the target schedule at retarget heights from the right window of block
// timestamps, refuses a block claiming any other target, and chooses forks by the work the
// targets imply (2^512 / (target + 1)), not by length.
import t from 'tap'
import type { Test } from 'tap'
import { openTestChain, mineBlock, cleanup, testParams, scheduledBranch } from '../../helpers/chain.ts'
import type { TestChain } from '../../helpers/chain.ts'
import type { Block } from '../../../core/chain/types.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import { BlockError, BlockErrorCode } from '../../../core/chain/errors.ts'
import { blockWork } from '../../../core/chain/difficulty.ts'
import { bitsForDifficulty, decodeBits, difficultyOfBits } from '../../../core/chain/target.ts'

/** a retargeting network: difficulty 1 .. 3, target 5 s; `overrides` for a stronger step */
const retargeting = (overrides: Partial<NetworkParams> = {}): NetworkParams => testParams({
  fixedDifficulty: false, initialBits: bitsForDifficulty(1), easiestBits: bitsForDifficulty(1), hardestBits: bitsForDifficulty(3), blockTimeTarget: 5, ...overrides
})

async function open (t: Test, params: NetworkParams): Promise<TestChain> {
  const tc = await openTestChain(params)
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  return tc
}

async function refusedWith (tc: TestChain, block: Block, code: string): Promise<string> {
  try {
    await tc.chain.processBlock(block, 'test')
  } catch (err) {
    if (err instanceof BlockError && err.code === code) return err.message
    throw err
  }
  throw new Error(`expected ${code}`)
}

const branch = scheduledBranch

t.test('re-evaluation every 10 blocks on a live chain; other heights keep the parent\'s target', async (t) => {
  const params = retargeting()
  const tc = await open(t, params)
  const g = tc.chain.tip()
  const fast = branch(params, [g.timestamp], { ...tc.tipRef(), bits: g.bits }, 25, 1) // 1 s blocks, 5 s target
  for (const b of fast) {
    t.equal(tc.chain.nextBits(), b.bits, `height ${b.height}: the chain demands what the schedule gives`)
    t.equal(tc.chain.nextDifficulty(), difficultyOfBits(b.bits))
    await tc.chain.processBlock(b, 'test')
  }
  t.equal(fast[18]!.bits, params.initialBits, 'heights 1..19 carry the initial target')
  t.ok(decodeBits(fast[19]!.bits) < decodeBits(fast[18]!.bits), 'height 20: blocks five times too fast, a smaller target')
  t.equal(fast[24]!.bits, fast[19]!.bits, 'heights 21..25 keep it')
  const total = fast.reduce((w, b) => w + blockWork(b.bits), blockWork(g.bits))
  t.equal(tc.chain.tip().work, total.toString(), 'cumulative work sums 2^512 / (target + 1) of every block')
})

t.test('forged targets: easier than the schedule, harder than it, and a difficulty its bits do not give are refused', async (t) => {
  const params = retargeting()
  const tc = await open(t, params)
  const g = tc.chain.tip()
  const fast = branch(params, [g.timestamp], { ...tc.tipRef(), bits: g.bits }, 20, 1)
  for (const b of fast.slice(0, 19)) await tc.chain.processBlock(b, 'test')
  const demanded = tc.chain.nextBits()
  t.equal(demanded, fast[19]!.bits)
  // the parent's (easier) target at a retarget that demands a harder one: inside the bounds, still refused
  t.match(await refusedWith(tc, mineBlock(params, tc.tipRef(), { bits: params.initialBits, timestamp: tc.tipRef().timestamp + 1 }), BlockErrorCode.BAD_DIFFICULTY), /the schedule demands/)
  t.match(await refusedWith(tc, mineBlock(params, tc.tipRef(), { bits: demanded - 1, timestamp: tc.tipRef().timestamp + 1 }), BlockErrorCode.BAD_DIFFICULTY), /the schedule demands/, 'one mantissa step harder is refused too: the target is exact')
  t.match(await refusedWith(tc, mineBlock(params, tc.tipRef(), { bits: demanded, timestamp: tc.tipRef().timestamp + 1, tamper: (b) => { b.difficulty += 1 } }), BlockErrorCode.BAD_DIFFICULTY), /leading zero/)
  await tc.chain.processBlock(fast[19]!, 'test')
  t.equal(tc.chain.tip().hash, fast[19]!.hash, 'the block with the demanded target connects')
})

t.test('fork choice by work: a shorter branch of harder targets beats a longer one of easier targets', async (t) => {
  // a strong step (τ = 2 blocks, up to 2^3 a retarget) so one retarget's work shows plainly
  const params = retargeting({ retargetHalfLife: 2, maxRetargetLog2: 3 })
  const tc = await open(t, params)
  const g = tc.chain.tip()
  const root = { ...tc.tipRef(), bits: g.bits }
  const slow = branch(params, [g.timestamp], root, 21, 5) // about the target's pace
  const fast = branch(params, [g.timestamp], root, 20, 1) // five times fast: block 20 carries 1/8 of the target
  const eighth = decodeBits(params.initialBits) / 8n
  const fastTarget = decodeBits(fast[19]!.bits)
  t.ok(fastTarget <= eighth && fastTarget > eighth - eighth / 10_000n, 'block 20 of the fast branch: an eighth of the target (the step\'s bound)')
  for (const b of slow) await tc.chain.processBlock(b, 'test')
  t.equal(tc.chain.tip().height, 21)
  const statuses: string[] = []
  for (const b of fast) statuses.push((await tc.chain.processBlock(b, 'test')).status)
  t.same(statuses.slice(0, 19), new Array(19).fill('side'), 'lighter while shorter')
  t.equal(statuses[19], 'reorg', 'block 20 of the fast branch outweighs 21 easy blocks')
  t.equal(tc.chain.tip().hash, fast[19]!.hash)
  t.equal(tc.chain.tip().height, 20, 'the main chain is now the shorter one')
  t.ok(BigInt(tc.chain.tip().work) > BigInt(tc.chain.getBlockMeta(slow[20]!.hash)!.work), 'because it has more work')
})

t.test('equal work keeps the branch seen first', async (t) => {
  const params = retargeting()
  const tc = await open(t, params)
  const g = tc.chain.tip()
  const root = { ...tc.tipRef(), bits: g.bits }
  const a = branch(params, [g.timestamp], root, 3, 5)
  const b = branch(params, [g.timestamp], root, 3, 6)
  for (const x of a) await tc.chain.processBlock(x, 'test')
  for (const x of b) t.equal((await tc.chain.processBlock(x, 'test')).status, 'side')
  t.equal(tc.chain.tip().work, tc.chain.getBlockMeta(b[2]!.hash)!.work, 'the same work')
  t.equal(tc.chain.tip().hash, a[2]!.hash, 'the first stays')
})

t.test('a fixed-target chain never adjusts', async (t) => {
  const params = testParams()
  const tc = await open(t, params)
  for (let h = 1; h <= 21; h++) await tc.chain.processBlock(mineBlock(params, tc.tipRef(), { timestamp: tc.tipRef().timestamp + 0.01 }), 'test')
  t.equal(tc.chain.nextBits(), params.initialBits)
  t.equal(tc.chain.nextDifficulty(), 1)
  t.equal(tc.chain.tip().work, (22n * 16n).toString(), 'difficulty 1: 16 hashes a block, genesis included')
})
