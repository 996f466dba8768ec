// GET /metrics (SPEC 2.2): the nine ledger_* gauges with their current values, process
// metrics, Prometheus text format, on the dashboard's own registry.
import t from 'tap'
import { register as globalRegistry } from 'prom-client'
import { startDashboardNode } from './fixtures/dashboard-node.ts'
import { fake } from './fixtures/node-services-plugin.ts'
import { generateWallet, mineBlock } from '../../helpers/chain.ts'
import { OPERATOR_METRICS } from '../../../plugins/dashboard/operator-metrics.ts'

const GAUGES = ['ledger_chain_height', 'ledger_tip_timestamp', 'ledger_total_supply', 'ledger_difficulty', 'ledger_mempool_size', 'ledger_peer_count', 'ledger_mining_active', 'ledger_synced', 'ledger_uptime_seconds']

/** sample lines, keyed by name and labels as written: `ledger_peers{direction="inbound"}` */
function values (text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    const m = /^([a-z0-9_]+(?:\{[^}]*\})?) (\S+)$/.exec(line)
    if (m !== null) out.set(m[1] as string, Number(m[2]))
  }
  return out
}

t.test('the nine gauges track the node', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  const block = await node.mine([node.send(node.dev, '44'.repeat(16), 1)])
  node.resolve('mempool').add(node.send(node.dev, '44'.repeat(16), 1))

  const res = await node.get('/metrics')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/)
  const v = values(res.body)
  for (const g of GAUGES) {
    t.match(res.body, new RegExp(`^# TYPE ${g} gauge$`, 'm'), `${g} is a gauge`)
    t.ok(v.has(g), `${g} has a value line`)
  }
  t.equal(v.get('ledger_chain_height'), 1)
  t.equal(v.get('ledger_tip_timestamp'), block.timestamp)
  t.equal(v.get('ledger_total_supply'), 2_000_005)
  t.equal(v.get('ledger_difficulty'), 1)
  t.equal(v.get('ledger_mempool_size'), 1)
  t.equal(v.get('ledger_peer_count'), 0)
  t.equal(v.get('ledger_mining_active'), 0)
  t.equal(v.get('ledger_synced'), 1, 'no peers, nothing to download')
  t.ok((v.get('ledger_uptime_seconds') as number) >= 0)
  t.ok(v.has('process_cpu_user_seconds_total'), 'process metrics')
  t.ok(v.has('nodejs_heap_size_used_bytes'))

  await node.mine()
  const after = values((await node.get('/metrics')).body)
  t.equal(after.get('ledger_chain_height'), 2, 'read at scrape time')
  t.equal(after.get('ledger_mempool_size'), 0)
  t.notOk((await globalRegistry.metrics()).includes('ledger_chain_height'), 'not on the global registry')
})

t.test('peers syncing, miner running', async (t) => {
  const node = await startDashboardNode({ withServices: true })
  t.teardown(() => node.stop())
  fake.sync = 'syncing'
  fake.miner = { ...fake.miner, running: true }
  const v = values((await node.get('/metrics')).body)
  t.equal(v.get('ledger_peer_count'), 2)
  t.equal(v.get('ledger_mining_active'), 1)
  t.equal(v.get('ledger_synced'), 0, 'initial block download still running')
  fake.sync = 'synced'
  t.equal(values((await node.get('/metrics')).body).get('ledger_synced'), 1)
})

t.test('two nodes in one process keep separate registries', async (t) => {
  const a = await startDashboardNode()
  const b = await startDashboardNode()
  t.teardown(async () => { await a.stop(); await b.stop() })
  await a.mine([])
  t.equal(values((await a.get('/metrics')).body).get('ledger_chain_height'), 1)
  t.equal(values((await b.get('/metrics')).body).get('ledger_chain_height'), 0)
})

t.test('the operator metrics: connects, reorgs, stale and rejected blocks, mempool bytes, pool, RocksDB', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  const genesis = await chain.getBlockByHeight(0)
  if (genesis === undefined) throw new Error('no genesis')
  const main = await node.mine([])
  // a heavier branch from genesis: one block disconnected, two connected
  const other = generateWallet().address
  const ts = Math.floor(Date.now() / 1000) - 20
  const s1 = mineBlock(node.params, { hash: genesis.hash, height: 0, timestamp: genesis.timestamp }, { miner: other, timestamp: ts })
  const s2 = mineBlock(node.params, { hash: s1.hash, height: 1, timestamp: s1.timestamp }, { miner: other, timestamp: ts + 1 })
  await chain.processBlock(s1, 'test')
  t.equal((await chain.processBlock(s2, 'test')).status, 'reorg')
  const bad = mineBlock(node.params, { hash: s2.hash, height: 2, timestamp: s2.timestamp }, { difficulty: 3 })
  await chain.processBlock(bad, 'test').catch(() => undefined)
  const tx = node.send(node.dev, '44'.repeat(16), 1)
  node.resolve('mempool').add(tx)

  const res = await node.get('/metrics')
  const text = res.body
  for (const name of OPERATOR_METRICS) t.match(text, new RegExp(`^# TYPE ${name} (gauge|counter|histogram)$`, 'm'), `${name} is exported`)
  const v = values(text)
  t.equal(v.get('ledger_block_connect_seconds_count'), 3, 'main, then s1 and s2 in the reorg')
  t.ok((v.get('ledger_block_connect_seconds_sum') as number) > 0)
  t.equal(v.get('ledger_reorgs_total'), 1)
  t.equal(v.get('ledger_reorg_depth_blocks_count'), 1)
  t.equal(v.get('ledger_reorg_depth_blocks_sum'), 1, 'one block disconnected')
  t.equal(v.get('ledger_stale_blocks_total'), 1, 'the first main block went stale')
  t.equal(v.get(`ledger_blocks_rejected_total{code="${'BLOCK_ERROR_BAD_DIFFICULTY'}"}`), 1)
  t.equal(v.get('ledger_blocks_connected_total{evidence="beacon-verified"}'), 3, 'devnet blocks quote the devnet beacon')
  t.ok(main.quantum_signature?.qrng_attestation.beacons.length)
  t.ok((v.get('ledger_mempool_bytes') as number) > 500, 'an ML-DSA transaction is kilobytes')
  t.equal(v.get('ledger_mempool_min_fee'), node.params.minFeeCoin)
  t.equal(v.get('ledger_mempool_capacity'), 5000)
  t.ok((v.get('ledger_verify_pool_threads') as number) >= 1, 'the consensus plugin\'s verify pool')
  t.equal(v.get('ledger_verify_pool_queue_length'), 0, 'idle')
  t.ok((v.get('ledger_db_size_bytes{db="chain",kind="memtables"}') as number) > 0, 'RocksDB reports its memtables')
  t.ok(v.has('ledger_db_size_bytes{db="chain",kind="live_sst"}'))
  t.ok(v.has('ledger_db_size_bytes{db="admin",kind="total_sst"}'))
  t.equal(v.get('ledger_peers{direction="unknown"}'), 0, 'no p2p plugin')
  t.equal(v.get('ledger_p2p_received_bytes_total'), 0)
  t.equal(v.get('ledger_p2p_protocol_sent_bytes_total{protocol="gossip/cmpctblock"}'), 0, 'every protocol label present, at 0')
  t.equal(v.get('ledger_miner_hashes_per_second'), 0)
})

t.test('peers by direction and p2p bytes from the peers service', async (t) => {
  const node = await startDashboardNode({ withServices: true })
  t.teardown(() => node.stop())
  const saved = fake.peers
  t.teardown(() => { fake.peers = saved })
  fake.peers = [{ ...saved[0]!, direction: 'inbound' }, { ...saved[1]!, direction: 'outbound' }, { ...saved[1]!, peer_id: 'x', direction: 'outbound' }]
  fake.traffic = { bytesIn: 12_345, bytesOut: 678 }
  fake.sent = { protocols: { txinv: 300, 'gossip/cmpctblock': 2200 }, blocks: {} }
  const v = values((await node.get('/metrics')).body)
  t.equal(v.get('ledger_peers{direction="inbound"}'), 1)
  t.equal(v.get('ledger_peers{direction="outbound"}'), 2)
  t.equal(v.get('ledger_peers{direction="unknown"}'), 0)
  t.equal(v.get('ledger_p2p_received_bytes_total'), 12_345)
  t.equal(v.get('ledger_p2p_sent_bytes_total'), 678)
  t.equal(v.get('ledger_p2p_protocol_sent_bytes_total{protocol="txinv"}'), 300)
  t.equal(v.get('ledger_p2p_protocol_sent_bytes_total{protocol="gossip/cmpctblock"}'), 2200)
  t.equal(v.get('ledger_p2p_protocol_sent_bytes_total{protocol="gettx"}'), 0)
  fake.traffic = { bytesIn: 20_000, bytesOut: 1000 }
  t.equal(values((await node.get('/metrics')).body).get('ledger_p2p_received_bytes_total'), 20_000, 'read at scrape time')
})

t.test('the mempool\'s rolling minimum fee rate rises when it evicts', async (t) => {
  const node = await startDashboardNode({ config: { consensus: { mempoolCapacity: 1 } } })
  t.teardown(() => node.stop())
  const rate = async (): Promise<number | undefined> => values((await node.get('/metrics')).body).get('ledger_mempool_min_fee_bohm_per_byte')
  t.equal(await rate(), 0, 'room in the pool: no rolling minimum')
  const mempool = node.resolve('mempool')
  // two senders (one per slot): the richer fee displaces the other
  const other = generateWallet()
  await node.mine([node.send(node.dev, other.address, 50)])
  mempool.add(node.send(node.dev, '44'.repeat(16), 1, { fee: 0.001 }))
  mempool.add(node.send(other, '55'.repeat(16), 1, { fee: 0.5 }))
  t.equal(mempool.size, 1)
  t.ok((await rate() as number) > 0, 'an eviction raised the fee per byte a newcomer must pay')
})

t.test('label values from fixed sets: a made-up rejection code counts as other', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  // the chain owns blockRejected; fired here as a stand-in for a code outside the set
  node.kernel.hooks.blockRejected.call({ hash: 'ab'.repeat(64), code: 'x'.repeat(300), reason: 'junk', origin: 'peer' })
  const text = (await node.get('/metrics')).body
  t.equal(values(text).get('ledger_blocks_rejected_total{code="other"}'), 1)
  t.notMatch(text, /x{300}/, 'the code never becomes a label value')
})
