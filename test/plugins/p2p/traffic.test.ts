// What the operator metrics read from the p2p plugin: who dialed each peer, and the bytes its
// connections carried (counted from the TCP sockets, so they survive the connection closing).
import t from 'tap'
import { extend, startP2pNode, waitFor } from './helpers.ts'
import { encodeBlock } from '../../../core/chain/tx-codec.ts'

t.test('peers by direction and wire bytes in and out', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  t.same(a.p2p.traffic(), { bytesIn: 0, bytesOut: 0 }, 'nothing moved before a peer')
  const blocks = await extend(a.chain, 3)
  const blockBytes = blocks.reduce((n, b) => n + encodeBlock(b).length, 0)
  const b = await startP2pNode({ peers: [a.address] })
  await waitFor('both sides to list each other', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 1)
  t.equal(a.p2p.peers()[0]?.direction, 'inbound', 'b dialed a')
  t.equal(b.p2p.peers()[0]?.direction, 'outbound')
  await waitFor('b to sync', () => b.chain.tip().height === 3)

  const atB = b.p2p.traffic()
  const atA = a.p2p.traffic()
  t.ok(atB.bytesIn > blockBytes, `b received the blocks and more (${atB.bytesIn} > ${blockBytes})`)
  t.ok(atA.bytesOut > blockBytes, `a sent them (${atA.bytesOut} > ${blockBytes})`)
  t.ok(atB.bytesOut > 0 && atA.bytesIn > 0, 'requests went the other way')
  await b.stop()
  await waitFor('a to notice b left', () => a.p2p.peers().length === 0)
  const after = a.p2p.traffic()
  t.ok(after.bytesOut >= atA.bytesOut && after.bytesIn >= atA.bytesIn, 'a closed connection keeps its count')
})
