// The test bed's finding (BENCHMARKS.md, "The network split for good"): one wallet's consecutive
// nonces entering the network at different nodes made a node receive nonce n+1 before n, and
// each such refusal cost the honest relay a point until neighbours banned each other. Now the
// gap is held as an orphan: three nodes in a line, 50 consecutive transactions of one wallet
// handed round-robin to the three (each by the wallet's own peer connection, as a relay would),
// end up in every mempool and no peer is penalised.
import t from 'tap'
import { params, startP2pNode, waitFor } from './helpers.ts'
import { devWallet, generateWallet, mineBlock, transfer } from '../../helpers/chain.ts'
import type { Transaction } from '../../../core/chain/types.ts'

t.test('one wallet\'s 50 transactions entering round-robin at three nodes in a line reach every mempool, no peer penalised', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  const b = await startP2pNode({ peers: [a.address] })
  t.teardown(() => b.stop())
  const c = await startP2pNode({ peers: [b.address] })
  t.teardown(() => c.stop())
  const nodes = [a, b, c]
  await waitFor('the line a - b - c to form', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 2 && c.p2p.peers().length === 1)
  t.notOk(a.p2p.peers().some((p) => p.peer_id === c.p2p.peerId), 'a and c are not linked: everything between them goes through b')

  // the wallet has transacted before (its key is on chain)
  const dev = devWallet()
  const first = mineBlock(params, a.chain.tip(), { txs: [transfer(params, dev, generateWallet().address, 1, 0)] })
  await a.chain.processBlock(first, 'test')
  await waitFor('every node to connect the block', () => nodes.every((n) => n.chain.tip().hash === first.hash))

  const txs: Transaction[] = Array.from({ length: 50 }, (_, i) => transfer(params, dev, generateWallet().address, 1, i + 1))
  // round-robin: nonce n enters at node n mod 3, most of them before their predecessor got there
  const outcomes = txs.map((tx, i) => nodes[i % 3]?.mempool.offer(tx, 'the-wallet'))
  t.ok(outcomes.filter((o) => o === 'orphan').length >= 30, `most entered ahead of their predecessor (${outcomes.filter((o) => o === 'orphan').length} held as orphans)`)

  await waitFor('all 50 in every mempool', () => nodes.every((n) => txs.every((tx) => n.mempool.has(tx.transaction_id))), 30_000)
  for (const [name, n] of [['a', a], ['b', b], ['c', c]] as const) {
    t.equal(n.mempool.size, 50, `${name} holds the 50 pending`)
    t.equal(n.p2p.bans().length, 0, `${name} banned nobody`)
    t.same(n.p2p.peers().map((p) => n.p2p.score(p.peer_id)), n.p2p.peers().map(() => 0), `${name} penalised no peer`)
  }
})
