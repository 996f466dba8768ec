import t from 'tap'
import { extend, startP2pNode, waitFor } from './helpers.ts'

t.test('a node joining late syncs 520 blocks in header and body batches, reporting syncing meanwhile', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  await extend(a.chain, 520)
  // small batches: 6 header requests, the last one short, and bodies 16 at a time
  const b = await startP2pNode({ start: false, p2p: { headersPerRequest: 100, blocksPerRequest: 16 } })
  t.teardown(() => b.stop())
  const during: string[] = []
  let flagged = 0
  b.node.kernel.hooks.blockConnected.tap('test', (e) => {
    during.push(b.p2p.syncState())
    if (e.syncing) flagged++
  })
  await b.node.kernel.start()
  t.equal(b.p2p.syncState(), 'idle')
  await b.p2p.connect(a.address)
  await waitFor('b to reach a\'s tip', () => b.chain.tip().hash === a.chain.tip().hash, 60_000)
  t.equal(b.chain.tip().height, 520)
  t.equal(during.length, 520)
  t.ok(during.every((s) => s === 'syncing'), 'sync_state is "syncing" while the blocks connect')
  t.equal(flagged, 520, 'blockConnected carries syncing: true')
  await b.p2p.syncIdle()
  t.equal(b.p2p.syncState(), 'synced')
  for (const h of [1, 100, 101, 519]) t.equal(b.chain.hashAtHeight(h), a.chain.hashAtHeight(h), `block ${h}`)
})
