// Node events (core/views/node-events.ts): each hook's payload becomes its operator event, a
// peer-shaped reason is capped, a confirmed transaction is no event, the log keeps a bounded tail.
import t from 'tap'
import { createHooks } from '../../../core/kernel/hooks.ts'
import { NodeEventLog, tapNodeEvents } from '../../../core/views/node-events.ts'
import type { NodeEventDraft } from '../../../core/views/node-events.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'

t.test('every hook maps to its event', async (t) => {
  const hooks = createHooks()
  const got: NodeEventDraft[] = []
  tapNodeEvents(hooks, 'test', (e) => { got.push(e) }, () => 42)
  await hooks.started.promise()
  hooks.blockRejected.call({ hash: 'ab', code: 'BLOCK_ERROR_BAD_POW', reason: 'x'.repeat(10_000), origin: 'peer' })
  hooks.blockMined.call({ height: 3, hash: 'cd', difficulty: 2, transactions: [{}, {}] } as unknown as Block)
  hooks.reorg.call({ from: { height: 5, hash: 'f' }, to: { height: 6, hash: 't' }, forkPoint: { height: 4, hash: 'k' }, disconnected: 1, connected: 2 })
  hooks.peerConnected.call({ peerId: 'p', address: '1.2.3.4:5' })
  hooks.peerDisconnected.call({ peerId: 'p', address: '1.2.3.4:5' })
  const tx = { transaction_id: 'tx1', sender: 'aa' } as Transaction
  hooks.txRemoved.call({ tx, reason: 'confirmed' })
  hooks.txRemoved.call({ tx, reason: 'evicted' })
  hooks.entropyStatus.call({ reachable: false, source: null, reason: 'down' })
  await hooks.stopping.promise()
  t.same(got.map((e) => e.type), ['node_started', 'block_rejected', 'block_mined', 'reorg', 'peer_connected', 'peer_disconnected', 'tx_dropped', 'entropy_status', 'node_stopping'])
  t.ok(got.every((e) => e.at === 42))
  t.equal((got[1] as { reason: string }).reason.length, 512, 'a reason is capped')
  t.match(got[2], { height: 3, hash: 'cd', tx_count: 2, difficulty: 2 })
  t.match(got[3], { from: { height: 5, hash: 'f' }, to: { height: 6, hash: 't' }, fork_point: { height: 4, hash: 'k' }, disconnected: 1, connected: 2 })
  t.match(got[4], { peer_id: 'p', address: '1.2.3.4:5' })
  t.match(got[6], { tx_id: 'tx1', sender: 'aa', reason: 'evicted' })
  t.match(got[7], { reachable: false, source: null, reason: 'down', evidence: null })
})

t.test('an entropy status says what backs the bytes served', async (t) => {
  const hooks = createHooks()
  const got: NodeEventDraft[] = []
  tapNodeEvents(hooks, 'test', (e) => { got.push(e) }, () => 42)
  hooks.entropyStatus.call({ reachable: true, source: 'aggregator:self-hosted', reason: null })
  hooks.entropyStatus.call({ reachable: true, source: 'aggregator:beacon-default+self-hosted', reason: null })
  t.match(got, [{ evidence: 'no-evidence' }, { evidence: 'beacon-verified' }])
})

t.test('the log keeps the newest events and reads after an id', async (t) => {
  const log = new NodeEventLog(3, 100)
  for (let i = 0; i < 5; i++) log.push({ type: 'node_started', at: i })
  t.same(log.after(0, 10).map((e) => e.id), [102, 103, 104], 'the oldest fell out')
  t.same(log.after(102, 10).map((e) => e.id), [103, 104])
  t.same(log.after(0, 1).map((e) => e.id), [104], 'limit keeps the newest')
  t.equal(log.lastId, 104)
})
