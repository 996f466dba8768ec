// Gossiped transactions the mempool refuses cost their sender by the refusal's class: one that
// fails against our chain (a nonce from nowhere) 1 point, one no honest node relays (a broken
// signature) 10, one our own limits refuse (a duplicate) nothing.
import t from 'tap'
import { params, startP2pNode, waitFor } from './helpers.ts'
import { startRogue } from './fixtures/rogue.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'
import { topics } from '../../../plugins/p2p/protocol.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { devWallet, generateWallet, transfer } from '../../helpers/chain.ts'
import { TX_REFUSAL_PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import type { Transaction } from '../../../core/chain/types.ts'

t.test('a gossiped transaction refused by the mempool costs its sender by the refusal class', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const rogue = await startRogue(t, params, victim.address, () => ourStatus(victim.chain, nodeVersion(params)))
  await waitFor('the rogue to pass the handshake', () => victim.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  const topic = topics(params).txs
  await waitFor('the victim to subscribe to transactions', () => rogue.node.services.pubsub.getSubscribers(topic).length > 0)
  const publish = async (tx: Transaction): Promise<void> => { await rogue.node.services.pubsub.publish(topic, encodeTx(tx)) }
  const dev = devWallet()
  const to = generateWallet().address

  // valid in form and signature, but dev's next nonce is 0 on this chain
  await publish(transfer(params, dev, to, 1, 7))
  await waitFor('the stale transaction to cost its point', () => victim.p2p.score(rogue.peerId) === TX_REFUSAL_PENALTY.stale)

  const forged = { ...transfer(params, dev, to, 2, 0), signature: transfer(params, generateWallet(), to, 2, 0).signature }
  await publish(forged)
  await waitFor('the forged transaction to cost the invalid penalty', () => victim.p2p.score(rogue.peerId) === TX_REFUSAL_PENALTY.stale + TX_REFUSAL_PENALTY.invalid)

  // admitted, then the same again (a new gossip message id, so gossipsub passes it on): a duplicate is free
  const good = transfer(params, dev, to, 3, 0)
  await publish(good)
  await waitFor('the good transaction to be admitted', () => victim.mempool.has(good.transaction_id))
  await publish(good)
  const scoreAfter = victim.p2p.score(rogue.peerId)
  t.equal(scoreAfter, TX_REFUSAL_PENALTY.stale + TX_REFUSAL_PENALTY.invalid, 'the admitted one cost nothing')
  // a last stale one marks the point by which the duplicate was judged (messages are handled in order)
  await publish(transfer(params, dev, to, 1, 9))
  await waitFor('the closing stale transaction to be scored', () => victim.p2p.score(rogue.peerId) === scoreAfter + TX_REFUSAL_PENALTY.stale)
  t.equal(victim.p2p.score(rogue.peerId), TX_REFUSAL_PENALTY.stale * 2 + TX_REFUSAL_PENALTY.invalid, 'the duplicate cost nothing')
})
