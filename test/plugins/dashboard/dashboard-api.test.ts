// Every dashboard endpoint's fields and types (SPEC 2.2, 4.1) — first with no miner, entropy
// or p2p plugin loaded (honest "absent" values), then with stand-ins for them.
import t from 'tap'
import { generateWallet } from '../../helpers/chain.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'
import { startDashboardNode } from './fixtures/dashboard-node.ts'
import { fake } from './fixtures/node-services-plugin.ts'
import { ADDRESS_DETAIL, BLOCK_DETAIL, BLOCK_SUMMARY, DECODED_TX, PAGINATION, checkShape } from '../explorer/fixtures/shape.ts'
import type { FieldType } from '../explorer/fixtures/shape.ts'
import { DEVNET_BEACON } from '../../../config/entropy-sources.ts'
import { idPrefix } from '../../helpers/id-prefix.ts'

const STATUS: Record<string, FieldType> = { node_running: 'bool', chain_height: 'int', peer_count: 'int', mining_active: 'bool', qrng_reachable: 'bool', simulate: 'bool', sync_state: 'string' }
const NODE: Record<string, FieldType> = { node_id: 'string', version: 'string', started_at: 'float', uptime_seconds: 'float', data_dir: 'string' }
const CHAIN: Record<string, FieldType> = { height: 'int', tip_hash: 'string', tip_timestamp: 'float', total_supply: 'float', difficulty: 'int', block_time_target: 'int', testnet: 'bool' }
const MINING: Record<string, FieldType> = { enabled: 'bool', running: 'bool', blocks_mined: 'int', miner_address: 'string', simulation_mode: 'bool', qrng_source: 'string' }
const QRNG: Record<string, FieldType> = { reachable: 'bool', host: 'string', port: 'int', last_fetch_at: 'float?', pool_available_bytes: 'int', beacons: 'array' }
const FEE: Record<string, FieldType> = { mempool_min: 'float', mempool_median: 'float', min_fee: 'float', low_fee: 'float', medium_fee: 'float', high_fee: 'float', mempool_fullness: 'float' }
const MEMPOOL_TX: Record<string, FieldType> = { tx_id: 'string', sender: 'string', recipient: 'string', amount: 'float', fee: 'float', data: 'object' }

t.test('dashboard endpoints on a node without miner, entropy or peers', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  const bob = generateWallet()
  const pay = node.send(node.dev, bob.address, 3)
  const b1 = await node.mine([pay])
  const chat = node.send(node.dev, node.dev.address, 0, { memo: 'note to self', fee: 0.002 })
  node.resolve('mempool').add(chat)

  t.test('status: absent services report their honest values', async (t) => {
    const s = (await node.get('/api/status')).json()
    checkShape(t, s, STATUS, 'status')
    t.same(s, { node_running: true, chain_height: 1, peer_count: 0, mining_active: false, qrng_reachable: false, simulate: false, sync_state: 'idle' })
  })

  t.test('node', async (t) => {
    const n = (await node.get('/api/node')).json()
    checkShape(t, n, NODE, 'node')
    t.equal(n.version, '2-devnet', 'protocol 2: the full-precision target')
    t.equal(n.data_dir, node.dataDir)
    t.equal(n.node_id, node.resolve('wallets').nodeWallet().address)
    t.equal(n.started_at, node.kernel.startedAt)
    t.ok(n.uptime_seconds >= 0 && n.uptime_seconds < 600)
  })

  t.test('chain summary', async (t) => {
    const c = (await node.get('/api/chain')).json()
    checkShape(t, c, CHAIN, 'chain')
    t.match(c, { height: 1, tip_hash: b1.hash, tip_timestamp: b1.timestamp, total_supply: 2_000_005, difficulty: 1, testnet: true })
  })

  t.test('blocks: the explorer shape', async (t) => {
    const res = (await node.get('/api/blocks?limit=1')).json()
    t.equal(res.blocks.length, 1)
    checkShape(t, res.blocks[0], BLOCK_SUMMARY, 'block summary')
    checkShape(t, res.pagination, PAGINATION, 'pagination')
    t.same(res.pagination, { offset: 0, limit: 1, total: 2, has_more: true })
    t.equal((await node.get('/api/blocks')).json().pagination.limit, 25)
  })

  t.test('block by height and by hash', async (t) => {
    const byHeight = (await node.get('/api/block/1')).json()
    checkShape(t, byHeight, BLOCK_DETAIL, 'block detail')
    for (const x of byHeight.transactions) checkShape(t, x, DECODED_TX, 'decoded tx')
    const byHash = await node.get(`/api/block/${b1.hash}`)
    t.equal(byHash.statusCode, 200, 'a 128-hex hash fits the route')
    t.same(byHash.json(), byHeight)
    t.same((await node.get(`/api/block/0x${b1.hash.toUpperCase()}`)).json(), byHeight)
    t.same((await node.get(`/api/block/${'0'.repeat(128)}`)).json(), { error: 'no such block' })
    t.equal((await node.get('/api/block/7')).statusCode, 404)
    const bad = await node.get('/api/block/xyz')
    t.equal(bad.statusCode, 400)
    t.same(bad.json(), { error: 'identifier must be a block height or a 128-hex block hash' })
  })

  t.test('tx with raw data', async (t) => {
    const c = (await node.get(`/api/tx/${pay.transaction_id}`)).json()
    checkShape(t, c, { ...DECODED_TX, status: 'string', confirmations: 'int', block_height: 'int', data: 'object', nonce: 'int', signature: 'string' }, 'confirmed tx')
    t.equal(c.data.public_key, pay.data.public_key, 'the raw data field, as signed')
    t.equal(c.signature, pay.signature)
    const p = (await node.get(`/api/tx/${chat.transaction_id}`)).json()
    t.match(p, { status: 'pending', confirmations: 0, kind: 'message', data: { memo: 'note to self' } })
    const missing = await node.get(`/api/tx/${'9'.repeat(64)}`)
    t.equal(missing.statusCode, 404)
    t.same(missing.json(), { error: 'tx not found' })
  })

  t.test('address', async (t) => {
    const a = (await node.get(`/api/address/${vmAddressOf(bob.address)}`)).json()
    checkShape(t, a, ADDRESS_DETAIL, 'address')
    t.match(a, { address: vmAddressOf(bob.address), balance: 3, tx_count: 1 })
    t.equal((await node.get('/api/address/not-an-address')).statusCode, 400)
  })

  t.test('mempool', async (t) => {
    const m = (await node.get('/api/mempool')).json()
    t.equal(m.pending_count, 1)
    checkShape(t, m.transactions[0], MEMPOOL_TX, 'mempool tx')
    t.match(m.transactions[0], { tx_id: chat.transaction_id, amount: 0, fee: 0.002, data: { memo: 'note to self' } })
  })

  t.test('mining, qrng, peers without their plugins', async (t) => {
    const m = (await node.get('/api/mining')).json()
    checkShape(t, m, MINING, 'mining')
    t.match(m, { enabled: false, running: false, blocks_mined: 0, simulation_mode: false })
    const q = (await node.get('/api/qrng')).json()
    checkShape(t, q, QRNG, 'qrng')
    t.match(q, { reachable: false, last_fetch_at: null, pool_available_bytes: 0, evidence: null })
    // the keys of every beacon the (devnet) chain trusts are published even without an entropy plugin
    t.same(q.beacons.map((b: { id: string }) => b.id), ['beacon-default', 'beacon-devnet', 'beacon-fastnet'])
    const devnet = q.beacons.find((b: { id: string }) => b.id === 'beacon-devnet')
    t.same(devnet, { id: 'beacon-devnet', scheme: DEVNET_BEACON.pin.scheme, public_key: DEVNET_BEACON.pin.publicKey, period: 3, genesis_time: DEVNET_BEACON.pin.genesisTime, chain_hash: DEVNET_BEACON.pin.chainHash })
    t.match(q.beacons.find((b: { id: string }) => b.id === 'beacon-default'), { scheme: 'pedersen-bls-chained', period: 30 })
    const random = await node.get('/api/qrng/random?n=8')
    t.equal(random.statusCode, 404)
    t.same(random.json(), { error: 'no entropy provider loaded' })
    t.same((await node.get('/api/peers')).json(), { peer_count: 0, sync_state: 'idle', peers: [] })
  })

  t.test('fee estimate', async (t) => {
    const f = (await node.get('/api/fee')).json()
    checkShape(t, f, FEE, 'fee')
    t.match(f, { mempool_min: 0.002, mempool_median: 0.002, min_fee: 0.0001, low_fee: 0.0001, medium_fee: 0.0001, high_fee: 0.0001, mempool_fullness: 1 / 5000 })
  })

  t.test('search: integer -> block, long hex or an 8+ hex prefix -> tx, address or name -> address', async (t) => {
    const block = await node.get('/api/search?q=1')
    t.equal(block.headers['x-result-type'], 'block')
    t.same(block.json(), (await node.get('/api/block/1')).json())
    const tx = await node.get(`/api/search?q=${pay.transaction_id}`)
    t.equal(tx.headers['x-result-type'], 'tx')
    t.same(tx.json(), (await node.get(`/api/tx/${pay.transaction_id}`)).json())
    const addr = await node.get(`/api/search?q=${bob.address}`)
    t.equal(addr.headers['x-result-type'], 'address')
    t.same(addr.json(), (await node.get(`/api/address/${bob.address}`)).json())
    const byHash = await node.get(`/api/search?q=${b1.hash}`)
    t.equal(byHash.headers['x-result-type'], 'block', 'a block hash is no tx id: tried as a block')
    t.equal(byHash.json().height, 1)
    t.equal((await node.get('/api/search?q=42')).statusCode, 404)
    t.same((await node.get(`/api/search?q=${'7'.repeat(64)}`)).json(), { error: 'tx not found' })
    const short = await node.get(`/api/search?q=${idPrefix(pay.transaction_id, 16)}`)
    t.equal(short.headers['x-result-type'], 'tx', 'the 16-char id of the chat finds the transaction')
    t.equal(short.json().tx_id, pay.transaction_id)
    t.equal((await node.get(`/api/search?q=${idPrefix(chat.transaction_id, 10)}`)).json().status, 'pending', 'a prefix of a pending id')
    const foundation = await node.get('/api/search?q=Foundation')
    t.equal(foundation.headers['x-result-type'], 'address', 'a name finds its address')
    t.equal(foundation.json().is_foundation, true)
    t.same((await node.get('/api/search?q=hello')).json(), { error: 'no user named hello' })
    t.equal((await node.get('/api/search?q=hello')).statusCode, 404)
    t.equal((await node.get('/api/search?q=hello%20world')).statusCode, 400)
    t.equal((await node.get('/api/search')).statusCode, 400)
    t.match((await node.get('/api/search')).json(), { error: /querystring\.q is required/ })
  })

  t.test('OpenAPI is published on the dashboard too', async (t) => {
    const doc = (await node.get('/docs/json')).json()
    for (const p of ['/api/status', '/api/node', '/api/chain', '/api/blocks', '/api/tx/{tx_id}', '/api/address/{address}', '/api/mempool', '/api/mining', '/api/qrng', '/api/qrng/random', '/api/peers', '/api/fee', '/api/search', '/api/tx/submit', '/metrics']) {
      t.ok(doc.paths[p], p)
    }
  })
})

t.test('with miner, entropy and peers services present', async (t) => {
  const node = await startDashboardNode({ withServices: true })
  t.teardown(() => node.stop())
  const s = (await node.get('/api/status')).json()
  t.same(s, { node_running: true, chain_height: 0, peer_count: 2, mining_active: true, qrng_reachable: true, simulate: false, sync_state: 'syncing' })
  const m = (await node.get('/api/mining')).json()
  checkShape(t, m, MINING, 'mining')
  t.match(m, { enabled: true, running: true, blocks_mined: 7, miner_address: fake.miner.miner_address, simulation_mode: false, qrng_source: fake.miner.qrng_source })
  const q = (await node.get('/api/qrng')).json()
  t.match(q, { reachable: true, host: '127.0.0.1', port: 8420, last_fetch_at: 1_700_000_000.25, pool_available_bytes: 4096 })
  t.ok(q.beacons.length > 0, 'beacons published beside the provider status')
  t.equal(q.evidence, 'no-evidence', 'self-hosted bytes: nothing backs them')
  const savedEntropy = fake.entropy
  t.teardown(() => { fake.entropy = savedEntropy })
  fake.entropy = { ...savedEntropy, source: 'aggregator:beacon-default+self-hosted' }
  t.equal((await node.get('/api/qrng')).json().evidence, 'beacon-verified', 'a beacon among the sources of the last fill')
  fake.entropy = { ...savedEntropy, reachable: false, reason: 'below quorum' }
  t.equal((await node.get('/api/qrng')).json().evidence, null, 'serving nothing')
  fake.entropy = savedEntropy
  const p = (await node.get('/api/peers')).json()
  t.equal(p.peer_count, 2)
  for (const peer of p.peers) checkShape(t, peer, { peer_id: 'string', address: 'string', version: 'string', best_height: 'int', connected_at: 'float' }, 'peer')
  t.same(p.peers, fake.peers)

  const r = await node.get('/api/qrng/random?n=5')
  t.equal(r.statusCode, 200)
  t.same(r.json(), { n: 5, hex: '0001020304', source: 'self-hosted' })
  t.equal((await node.get('/api/qrng/random')).json().hex.length, 64, 'default 32 bytes')
  t.equal((await node.get('/api/qrng/random?n=0')).statusCode, 400)
  t.equal((await node.get('/api/qrng/random?n=100000')).statusCode, 400)
  fake.entropyFails = true
  t.teardown(() => { fake.entropyFails = false })
  const down = await node.get('/api/qrng/random?n=5')
  t.equal(down.statusCode, 424)
  t.match(down.json(), { error: /entropy provider unavailable: every registered source is down/ })

  fake.sync = 'synced'
  fake.miner = { ...fake.miner, running: false }
  t.match((await node.get('/api/status')).json(), { sync_state: 'synced', mining_active: false })
})
