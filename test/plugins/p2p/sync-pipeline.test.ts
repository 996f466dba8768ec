// A download overlaps its stages: a prefetched response's beacon rounds go to the verifier when
// it arrives, while the blocks of the response before it still connect (issue 15).
import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { startP2pNode, waitFor } from './helpers.ts'
import { privateChain, rogueServing } from './fixtures/serving-rogue.ts'
import type { BeaconEvidenceView } from '../../../core/chain/attestation.ts'

t.test('the second response\'s beacon rounds are sent to the verifier before the first response\'s last block connects', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const blocks = privateChain(20) // fetched as two requests: 8 blocks, then 12
  const chain = victim.chain
  const batches: number[] = []
  const { promise: secondBatch, resolve: secondArrived } = Promise.withResolvers<void>()
  const preverify = chain.preverifyBeacons.bind(chain)
  chain.preverifyBeacons = async (views: readonly BeaconEvidenceView[]) => {
    batches.push(views.length)
    if (batches.length === 2) secondArrived()
    await preverify(views)
  }
  const process = chain.processBlock.bind(chain)
  let overlapped: boolean | null = null
  const nextOf = new Map<string, string | undefined>()
  chain.processBlock = async (block, origin, opts) => {
    nextOf.set(block.hash, opts?.next?.block.hash)
    // the first response's last block waits (bounded) for the second response's rounds
    if (block.hash === blocks[7]?.hash) overlapped = await Promise.race([secondBatch.then(() => true), sleep(5000).then(() => false)])
    return await process(block, origin, opts)
  }
  await rogueServing(t, victim, blocks)
  await waitFor('the download to connect every block', () => chain.tip().height >= 20)
  t.same(batches, [8, 12], 'one batch of rounds a response')
  t.equal(overlapped, true, 'the second batch went out while the first response was still connecting')
  // each block is processed with the one after it in the same response, for its signatures
  const expected = blocks.map((b, i) => [b.hash, i === 7 || i === 19 ? undefined : blocks[i + 1]?.hash])
  t.same([...nextOf], expected, 'ProcessOptions.next: the following block of the response (none after a response\'s last)')
})
