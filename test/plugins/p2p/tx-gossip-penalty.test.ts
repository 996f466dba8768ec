// Gossiped transactions the mempool refuses cost their sender by the refusal's class: one no
// honest node relays (a broken signature) 10 points, one our own limits refuse (a duplicate)
// nothing, a nonce gap nothing (held as an orphan), and one that fails against our chain (an
// overdrawn balance) nothing within the peer's budget of STALE_TX_BUDGET and a point each
// beyond it: a flood of them still gets its sender banned.
import t from 'tap'
import { params, startP2pNode, waitFor } from './helpers.ts'
import { startRogue } from './fixtures/rogue.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'
import { topics } from '../../../plugins/p2p/protocol.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { devWallet, generateWallet, transfer } from '../../helpers/chain.ts'
import { TX_REFUSAL_PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import { STALE_TX_BUDGET } from '../../../plugins/p2p/tx-refusal-score.ts'
import type { Transaction } from '../../../core/chain/types.ts'

t.test('a gossiped transaction refused by the mempool costs its sender by the refusal class; a flood of failing ones beyond the budget bans it', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const rogue = await startRogue(t, params, victim.address, () => ourStatus(victim.chain, nodeVersion(params)))
  await waitFor('the rogue to pass the handshake', () => victim.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  const topic = topics(params).txs
  await waitFor('the victim to subscribe to transactions', () => rogue.node.services.pubsub.getSubscribers(topic).length > 0)
  const publish = async (tx: Transaction): Promise<void> => { await rogue.node.services.pubsub.publish(topic, encodeTx(tx)) }
  const dev = devWallet()
  const to = generateWallet().address

  const forged = { ...transfer(params, dev, to, 2, 0), signature: transfer(params, generateWallet(), to, 2, 0).signature }
  await publish(forged)
  await waitFor('the forged transaction to cost the invalid penalty', () => victim.p2p.score(rogue.peerId) === TX_REFUSAL_PENALTY.invalid)

  // valid in form and signature, but dev's next nonce is 0 on this chain: a gap, held as an orphan for free
  const ahead = transfer(params, dev, to, 1, 7, { withKey: true })
  await publish(ahead)
  await waitFor('the transaction ahead to be held', () => victim.mempool.holds(ahead.transaction_id))
  t.equal(victim.p2p.score(rogue.peerId), TX_REFUSAL_PENALTY.invalid, 'a nonce gap cost nothing')
  t.notOk(victim.mempool.has(ahead.transaction_id), 'held, not pending')

  // admitted, then the same again (a new gossip message id, so gossipsub passes it on): a duplicate is free
  const good = transfer(params, dev, to, 3, 0)
  await publish(good)
  await waitFor('the good transaction to be admitted', () => victim.mempool.has(good.transaction_id))
  await publish(good)

  // overdrawn: a wallet with nothing (its key carried, so every rule but the balance passes)
  const pauper = generateWallet()
  const overdrawn = Array.from({ length: STALE_TX_BUDGET.capacity + 150 }, (_, i) => transfer(params, pauper, to, 1 + i, 0, { withKey: true }))
  const withinBudget = overdrawn.slice(0, STALE_TX_BUDGET.capacity)
  for (const tx of withinBudget) await publish(tx)
  // a valid one marks the point by which those were judged (messages are handled in order)
  const marker = transfer(params, dev, to, 4, 1)
  await publish(marker)
  await waitFor('the marker to be admitted', () => victim.mempool.has(marker.transaction_id))
  t.equal(victim.p2p.score(rogue.peerId), TX_REFUSAL_PENALTY.invalid, 'the duplicate and a budget\'s worth of overdrawn transactions cost nothing')

  for (const tx of overdrawn.slice(STALE_TX_BUDGET.capacity)) await publish(tx)
  await waitFor('the flood beyond the budget to get the rogue banned', () => victim.p2p.bans().some((ban) => ban.peer_id === rogue.peerId))
  t.match(victim.p2p.bans().find((ban) => ban.peer_id === rogue.peerId)?.reason, /TX_ERROR_INSUFFICIENT_BALANCE/)
})
