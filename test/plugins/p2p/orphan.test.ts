import t from 'tap'
import { extend, startP2pNode, waitFor } from './helpers.ts'
import type { P2pTestNode } from './helpers.ts'

/** Adds blocks that are not announced (as if gossip had lost them): the chain's syncing flag suppresses announcement. */
async function extendQuietly (n: P2pTestNode, count: number): Promise<void> {
  n.chain.setSyncing(true)
  try { await extend(n.chain, count) } finally { n.chain.setSyncing(false) }
}

t.test('a gossiped block with an unknown parent makes the node fetch the missing branch and reorg to it', async (t) => {
  // status polls far apart: only the orphan block can start the catch-up within the test
  const p2p = { statusIntervalMs: 60_000 }
  const a = await startP2pNode({ p2p })
  t.teardown(() => a.stop())
  // a's first blocks exist before b dials, so b catches up through the handshake's status (on a
  // loaded machine gossip sent before b's subscription reached a's mesh would be lost)
  await extend(a.chain, 2)
  const b = await startP2pNode({ p2p, peers: [a.address] })
  t.teardown(() => b.stop())
  await waitFor('b to follow', () => b.chain.tip().hash === a.chain.tip().hash)
  await waitFor('a and b to have finished their handshakes', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 1)

  await extendQuietly(a, 3)
  await extendQuietly(b, 2)
  const bFork = b.chain.tip().hash
  t.equal(b.chain.tip().height, 4)
  await extend(a.chain, 1) // announced; its parent is unknown to b
  await waitFor('b to fetch a\'s branch and reorganize', () => b.chain.tip().hash === a.chain.tip().hash, 10_000)
  t.equal(b.chain.tip().height, 6)
  t.equal(b.chain.getBlockMeta(bFork)?.status, 'side', 'b\'s own branch became a side branch')
  // and the other way round: a learns of nothing heavier, keeps its tip
  t.equal(a.chain.getBlockMeta(bFork), undefined)
})
