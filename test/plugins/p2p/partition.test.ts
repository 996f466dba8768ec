import t from 'tap'
import { extend, params, startP2pNode, waitFor } from './helpers.ts'
import { devWallet, generateWallet, transfer } from '../../helpers/chain.ts'

t.test('a partition heals: the lighter side reorganizes and no transaction is lost', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  const b = await startP2pNode()
  t.teardown(() => b.stop())
  await b.p2p.connect(a.address)
  await waitFor('the handshake', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 1)

  // Two funded senders, one per side of the coming partition.
  const dev = devWallet()
  const w1 = generateWallet()
  const w2 = generateWallet()
  a.mempool.add(transfer(params, dev, w1.address, 100, 0))
  a.mempool.add(transfer(params, dev, w2.address, 100, 1, { withKey: true }))
  await waitFor('the funding transactions to be gossiped', () => b.mempool.size === 2)
  await extend(a.chain, 1, { txs: a.mempool.select(100) })
  await waitFor('b to follow', () => b.chain.tip().hash === a.chain.tip().hash)
  t.equal(b.mempool.size, 0, 'confirmed transactions leave b\'s mempool too')

  await a.p2p.disconnect(b.p2p.peerId ?? '')
  await waitFor('the partition', () => a.p2p.peers().length === 0 && b.p2p.peers().length === 0)
  const txA = transfer(params, w1, generateWallet().address, 1, 0)
  const txB = transfer(params, w2, generateWallet().address, 2, 0)
  a.mempool.add(txA)
  b.mempool.add(txB)
  await extend(a.chain, 1, { txs: a.mempool.select(100) })
  await extend(a.chain, 2)
  const bBlocks = await extend(b.chain, 1, { txs: b.mempool.select(100) })
  await extend(b.chain, 1)
  t.ok(await b.chain.getTransaction(txB.transaction_id), 'txB confirmed on the lighter side')
  t.equal(a.chain.tip().height, 4)
  t.equal(b.chain.tip().height, 3)

  await b.p2p.connect(a.address)
  await waitFor('b to reorganize onto a\'s heavier branch', () => b.chain.tip().hash === a.chain.tip().hash)
  t.equal(b.chain.getBlockMeta(bBlocks[0]?.hash ?? '')?.status, 'side', 'b\'s own blocks are now a side branch')
  t.notOk(await b.chain.getTransaction(txB.transaction_id), 'txB is no longer confirmed on b')
  t.ok(b.mempool.has(txB.transaction_id), 'the orphaned txB is back in b\'s mempool')
  await waitFor('txB to be gossiped to a', () => a.mempool.has(txB.transaction_id))

  await extend(a.chain, 1, { txs: a.mempool.select(100) })
  await waitFor('b to follow the next block', () => b.chain.tip().hash === a.chain.tip().hash)
  for (const [name, n] of [['a', a], ['b', b]] as const) {
    t.ok(await n.chain.getTransaction(txA.transaction_id), `${name}: txA confirmed`)
    t.ok(await n.chain.getTransaction(txB.transaction_id), `${name}: txB confirmed`)
    t.equal(n.mempool.size, 0, `${name}: mempool empty`)
  }
})
