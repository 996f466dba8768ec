// A peer's block at the height being mined, relayed on its proven work, makes the miner wait
// (bounded) for it to be connected instead of hashing on its parent: a block found meanwhile
// could only be its stale competitor. A refused competitor ends the wait.
import t from 'tap'
import type { Test } from 'tap'
import { startTestNode } from '../../helpers/node.ts'
import { waitFor } from '../../helpers/wait.ts'
import { testParams } from '../../helpers/chain.ts'
import { bitsForDifficulty } from '../../../core/chain/target.ts'
import { COMPETITOR_HOLD_MS } from '../../../plugins/miner/miner.ts'
import type { Miner } from '../../../plugins/miner/miner.ts'
import type { BlockRelayedEvent } from '../../../core/kernel/hooks.ts'

// ~16^5 hashes a block: a search lasts long enough to be caught at it
const params = testParams({ initialBits: bitsForDifficulty(5), easiestBits: bitsForDifficulty(5), hardestBits: bitsForDifficulty(5) })
const competitor = (height: number, n: number): BlockRelayedEvent => ({ hash: n.toString(16).padStart(128, 'c'), height, peerId: 'peer', relayMs: 1, rebuilt: 'held' })

async function minerNode (t: Test): Promise<{ node: Awaited<ReturnType<typeof startTestNode>>; miner: Miner }> {
  const node = await startTestNode({ plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner'], config: { miner: { threads: 1 } }, params })
  t.teardown(() => node.stop())
  return { node, miner: node.resolve('miner') as unknown as Miner }
}

/** fires a competitor at the height being mined once the miner is hashing on the tip; retries when a block beat it */
async function relayWhileSearching (node: Awaited<ReturnType<typeof startTestNode>>, miner: Miner, n: number): Promise<{ height: number; at: number; hash: string }> {
  const chain = node.resolve('chain')
  for (let attempt = 0; attempt < 20; attempt++) {
    const tip = chain.tip()
    const before = miner.hashesTried()
    await waitFor('the miner to hash on the tip', () => miner.hashesTried() > before || chain.tip().hash !== tip.hash, 20_000)
    if (chain.tip().hash !== tip.hash) continue
    const held = miner.heldForCompetitors
    const at = Date.now()
    const event = competitor(tip.height + 1, n)
    node.kernel.hooks.blockRelayed.call(event)
    await waitFor('the miner to hold, or a block to have beaten the competitor', () => miner.heldForCompetitors > held || chain.tip().hash !== tip.hash, 20_000)
    if (miner.heldForCompetitors > held) return { height: tip.height + 1, at, hash: event.hash }
  }
  throw new Error('the miner never held for a competitor in 20 attempts')
}

t.test('a relayed block at the height being mined holds hashing until the hold ends', async (t) => {
  const { node, miner } = await minerNode(t)
  const chain = node.resolve('chain')
  await waitFor('a first block', () => chain.tip().height >= 1, 30_000)
  const { height, at } = await relayWhileSearching(node, miner, 1)
  // the competitor never connects (it was only announced): the miner goes on after the hold
  await waitFor('a block at the competitor\'s height after all', () => chain.tip().height >= height, 30_000)
  const block = await chain.getBlockByHeight(height)
  t.ok((block?.timestamp ?? 0) * 1000 >= at + COMPETITOR_HOLD_MS - 5, 'its template was made once the hold had ended')
})

t.test('a refused competitor ends the hold', async (t) => {
  const { node, miner } = await minerNode(t)
  const chain = node.resolve('chain')
  await waitFor('a first block', () => chain.tip().height >= 1, 30_000)
  const { height, hash } = await relayWhileSearching(node, miner, 2)
  t.same(miner.competitorHeld(), { height, hash }, 'holding for it')
  node.kernel.hooks.blockRejected.call({ hash, code: 'BLOCK_ERROR_BAD_TX', reason: 'its body failed', origin: 'peer' })
  // well before the hold would have ended by itself
  await waitFor('the hold to end', () => miner.competitorHeld() === null, COMPETITOR_HOLD_MS / 2)
  await waitFor('mining on at that height', () => chain.tip().height >= height, 30_000)
  t.pass()
})
