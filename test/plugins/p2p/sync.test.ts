import t from 'tap'
import { extend, startP2pNode, waitFor } from './helpers.ts'

t.test('a node that joins late syncs the chain header-first and then follows gossip', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  await extend(a.chain, 30)
  const b = await startP2pNode({ peers: [a.address] })
  t.teardown(() => b.stop())
  await waitFor('b to sync 30 blocks', () => b.chain.tip().hash === a.chain.tip().hash)
  t.equal(b.chain.tip().height, 30)
  t.equal(b.p2p.syncState(), 'synced')
  await extend(a.chain, 1)
  await waitFor('b to receive the gossiped block', () => b.chain.tip().hash === a.chain.tip().hash)
  t.equal(b.chain.tip().height, 31)
})
