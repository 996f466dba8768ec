import t from 'tap'
import { extend, params, startP2pNode, waitFor } from './helpers.ts'
import { mineBlock } from '../../helpers/chain.ts'
import type { P2pTestNode } from './helpers.ts'

const sameTip = (...nodes: P2pTestNode[]): boolean => nodes.every((n) => n.chain.tip().hash === nodes[0]?.chain.tip().hash)

t.test('three nodes, two producing (with competing blocks), converge on one tip', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  const b = await startP2pNode({ peers: [a.address] })
  t.teardown(() => b.stop())
  const c = await startP2pNode({ peers: [a.address, b.address] })
  t.teardown(() => c.stop())
  await waitFor('the mesh to form', () => a.p2p.peers().length === 2 && b.p2p.peers().length === 2 && c.p2p.peers().length === 2)

  for (let round = 0; round < 3; round++) {
    await extend(a.chain, 2)
    await waitFor(`round ${round}: b and c to follow a`, () => sameTip(a, b, c))
    await extend(b.chain, 2)
    await waitFor(`round ${round}: a and c to follow b`, () => sameTip(a, b, c))
  }
  t.equal(c.chain.tip().height, 12)

  // A race: a and b each find a block at the same height; equal work keeps both tips,
  // until the next block on one branch makes it heavier everywhere.
  const tip = a.chain.tip()
  const parent = { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }
  const fromA = mineBlock(params, parent, { timestamp: parent.timestamp + 1 })
  const fromB = mineBlock(params, parent, { timestamp: parent.timestamp + 2 })
  await Promise.all([a.chain.processBlock(fromA, 'test'), b.chain.processBlock(fromB, 'test')])
  await waitFor('both competing blocks to reach every node', () => [a, b, c].every((n) => n.chain.getBlockMeta(fromA.hash) !== undefined && n.chain.getBlockMeta(fromB.hash) !== undefined))
  t.equal(a.chain.tip().hash, fromA.hash, 'a keeps its own block at equal work')
  t.equal(b.chain.tip().hash, fromB.hash, 'b keeps its own block at equal work')
  await extend(b.chain, 1)
  await waitFor('everyone to reorg onto the heavier branch', () => sameTip(a, b, c))
  t.equal(a.chain.tip().height, 14)
  t.equal(a.chain.hashAtHeight(13), fromB.hash, 'a reorganized onto b\'s branch')
  t.equal(a.chain.getBlockMeta(fromA.hash)?.status, 'side')
  // a node that fetched the branch by sync reports "synced" once that sync round ends
  await waitFor('every node to report synced', () => [a, b, c].every((n) => n.p2p.syncState() === 'synced'))
  for (const n of [a, b, c]) t.equal(n.p2p.syncState(), 'synced')
})
