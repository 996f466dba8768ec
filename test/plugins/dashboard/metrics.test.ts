// GET /metrics (SPEC 2.2): the nine ledger_* gauges with their current values, process
// metrics, Prometheus text format, on the dashboard's own registry.
import t from 'tap'
import { register as globalRegistry } from 'prom-client'
import { startDashboardNode } from './fixtures/dashboard-node.ts'
import { fake } from './fixtures/node-services-plugin.ts'

const GAUGES = ['ledger_chain_height', 'ledger_tip_timestamp', 'ledger_total_supply', 'ledger_difficulty', 'ledger_mempool_size', 'ledger_peer_count', 'ledger_mining_active', 'ledger_synced', 'ledger_uptime_seconds']

function values (text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+) (\S+)$/.exec(line)
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
