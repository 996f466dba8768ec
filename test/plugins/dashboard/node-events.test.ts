// The dashboard's recent-events feed (GET /api/events, issue 16 item 1): node events recorded
// from the hooks in real flows on an in-process node: the node's start, a refused block with
// its code and reason, a reorg, a pending transaction a block made invalid. Mined blocks and
// peers are covered where they happen (test/plugins/miner, test/plugins/p2p).
import t from 'tap'
import { startDashboardNode } from './fixtures/dashboard-node.ts'
import { generateWallet, mineBlock, transfer } from '../../helpers/chain.ts'
import { BlockErrorCode } from '../../../core/chain/errors.ts'
import type { NodeEvent } from '../../../core/views/node-events.ts'

t.test('node events in the dashboard feed', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  const mempool = node.resolve('mempool')
  const events = async (query = ''): Promise<{ events: NodeEvent[]; last_id: number }> => {
    const res = await node.get(`/api/events${query}`)
    t.equal(res.statusCode, 200, `GET /api/events${query}`)
    return res.json()
  }
  const ofType = async (type: string): Promise<NodeEvent[]> => (await events()).events.filter((e) => e.type === type)

  await t.test('the node\'s start', async (t) => {
    const [started] = await ofType('node_started')
    t.ok(started !== undefined && Math.abs(started.at - Date.now() / 1000) < 600, 'node_started with a Unix time')
  })

  await t.test('a refused block: hash, code, reason and origin', async (t) => {
    const tip = chain.tip()
    const bad = mineBlock(node.params, { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }, { difficulty: 3 })
    await t.rejects(chain.processBlock(bad, 'test'))
    const [rejected] = await ofType('block_rejected')
    t.match(rejected, { type: 'block_rejected', hash: bad.hash, code: BlockErrorCode.BAD_DIFFICULTY, reason: /outside the network's bounds/, origin: 'test' })
  })

  await t.test('a reorg: from, to, fork point and counts', async (t) => {
    const genesis = await chain.getBlockByHeight(0)
    if (genesis === undefined) throw new Error('no genesis')
    const main = await node.mine([])
    const other = generateWallet().address
    const ts = Math.floor(Date.now() / 1000) - 20
    const s1 = mineBlock(node.params, { hash: genesis.hash, height: 0, timestamp: genesis.timestamp }, { miner: other, timestamp: ts })
    const s2 = mineBlock(node.params, { hash: s1.hash, height: 1, timestamp: s1.timestamp }, { miner: other, timestamp: ts + 1 })
    t.equal((await chain.processBlock(s1, 'test')).status, 'side')
    t.equal((await chain.processBlock(s2, 'test')).status, 'reorg')
    const [reorg] = await ofType('reorg')
    t.match(reorg, { from: { height: 1, hash: main.hash }, to: { height: 2, hash: s2.hash }, fork_point: { height: 0, hash: genesis.hash }, disconnected: 1, connected: 2 })
  })

  await t.test('a pending transaction a block made invalid', async (t) => {
    const pending = node.send(node.dev, generateWallet().address, 1)
    mempool.add(pending)
    const rival = transfer(node.params, node.dev, generateWallet().address, 2, pending.nonce, { withKey: chain.getAccount(node.dev.address).publicKey === null })
    await node.mine([rival])
    const dropped = await ofType('tx_dropped')
    t.match(dropped, [{ tx_id: pending.transaction_id, sender: node.dev.address, reason: 'invalidated' }])
    t.notOk((await events()).events.some((e) => e.type === 'tx_dropped' && e.tx_id === rival.transaction_id), 'a confirmed transaction is not an event')
  })

  await t.test('after= reads only newer events, limit= the newest ones, oldest first', async (t) => {
    const all = (await events()).events
    t.ok(all.length >= 4)
    t.same(all.map((e) => e.id), [...all.map((e) => e.id)].sort((a, b) => a - b), 'ascending ids')
    const second = all[1] as NodeEvent
    t.same((await events(`?after=${second.id}`)).events, all.slice(2))
    t.same((await events('?limit=2')).events, all.slice(-2))
    const { events: none, last_id: lastId } = await events(`?after=${(all.at(-1) as NodeEvent).id}`)
    t.same(none, [])
    t.equal(lastId, (all.at(-1) as NodeEvent).id)
    t.equal((await node.get('/api/events?limit=0')).statusCode, 400)
    t.equal((await node.get('/api/events?after=x')).statusCode, 400)
  })
})

t.test('with requireAuth the feed needs the API key', async (t) => {
  const node = await startDashboardNode({ config: { dashboard: { requireAuth: true } } })
  t.teardown(() => node.stop())
  t.equal((await node.call('GET', '/api/events', { key: null })).statusCode, 401)
  t.equal((await node.call('GET', '/api/events')).statusCode, 200)
})
