// Every explorer endpoint's fields and types (SPEC 2.4, 4.2) on a chain with transfers,
// chat messages, a pending transaction, several blocks and a named user.
import t from 'tap'
import path from 'node:path'
import { generateWallet } from '../../helpers/chain.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'
import { FOUNDATION_ADDRESS } from '../../../config/networks.ts'
import { decodeBits, difficultyOfBits } from '../../../core/chain/target.ts'
import { startExplorerNode } from './fixtures/explorer-node.ts'
import { NAMED } from './fixtures/names-plugin.ts'
import { idPrefix } from '../../helpers/id-prefix.ts'
import {
  ADDRESS_DETAIL, ADDRESS_TX, BLOCK_DETAIL, BLOCK_SUMMARY, DECODED_TX, PAGINATION, STATS, checkShape
} from './fixtures/shape.ts'

const NAMES_PLUGIN = { path: path.join(import.meta.dirname, 'fixtures', 'names-plugin.ts') }

t.test('explorer API on a small chain', async (t) => {
  const node = await startExplorerNode({ plugins: ['storage', 'consensus', 'http', NAMES_PLUGIN, 'explorer'] })
  t.teardown(() => node.stop())
  const alice = generateWallet()
  NAMED[alice.address] = 'alice'
  const mempool = node.resolve('mempool')

  const pay = node.send(node.dev, alice.address, 12.5)
  const b1 = await node.mine([pay])
  const memo = node.send(alice, alice.address, 0, { memo: 'hello chain', fee: 0.01 })
  const b2 = await node.mine([memo])
  for (let i = 0; i < 3; i++) await node.mine([])
  const pending = node.send(node.dev, alice.address, 1)
  mempool.add(pending)
  const tipHeight = 5

  t.test('stats', async (t) => {
    const res = await node.get('/api/explorer/stats')
    t.equal(res.statusCode, 200)
    const s = res.json()
    checkShape(t, s, STATS, 'stats')
    t.equal(s.height, tipHeight)
    t.equal(s.tip_hash, node.resolve('chain').tip().hash)
    t.equal(s.max_supply, 21_000_000)
    t.equal(s.mempool_size, 1)
    t.equal(s.testnet, true)
    t.equal(s.network, 'devnet', 'the real network, not just testnet true')
    t.equal(s.block_time_target, node.params.blockTimeTarget)
    // genesis premines (foundation + dev account) plus 5 coin per block mined
    t.equal(s.total_supply, 2_000_000 + 5 * tipHeight)
  })

  t.test('blocks: newest first, default page 25, clamped to 100, paging', async (t) => {
    const res = await node.get('/api/explorer/blocks')
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.same(body.blocks.map((b: { height: number }) => b.height), [5, 4, 3, 2, 1, 0])
    for (const b of body.blocks) checkShape(t, b, BLOCK_SUMMARY, `block ${b.height}`)
    checkShape(t, body.pagination, PAGINATION, 'pagination')
    t.same(body.pagination, { offset: 0, limit: 25, total: 6, has_more: false })
    t.equal(body.blocks[5].quantum_verified, false, 'genesis carries no attestation')
    t.equal(body.blocks[0].quantum_verified, true)
    t.equal(body.blocks.find((b: { height: number }) => b.height === 1).tx_count, 2)

    const page = (await node.get('/api/explorer/blocks?offset=2&limit=2')).json()
    t.same(page.blocks.map((b: { height: number }) => b.height), [3, 2])
    t.same(page.pagination, { offset: 2, limit: 2, total: 6, has_more: true })
    const last = (await node.get('/api/explorer/blocks?offset=4&limit=2')).json()
    t.same(last.blocks.map((b: { height: number }) => b.height), [1, 0])
    t.equal(last.pagination.has_more, false)
    const past = (await node.get('/api/explorer/blocks?offset=50')).json()
    t.same(past.blocks, [])
    t.equal((await node.get('/api/explorer/blocks?limit=1000')).json().pagination.limit, 100, 'limit clamped to 100')
  })

  t.test('raw blocks, trusted beacons and the verifier modules the page loads', async (t) => {
    const raw = await node.get('/api/explorer/block/1/raw')
    t.equal(raw.statusCode, 200)
    t.same(raw.json(), JSON.parse(JSON.stringify(b1)), 'the block exactly as stored and gossiped')
    t.equal((await node.get('/api/explorer/block/999/raw')).statusCode, 404)
    t.equal((await node.get('/api/explorer/block/x/raw')).statusCode, 400)
    const beacons = (await node.get('/api/explorer/beacons')).json().beacons as Array<{ id: string; public_key: string }>
    t.same(beacons.map((b) => b.id), ['beacon-default', 'beacon-devnet', 'beacon-fastnet'])
    const mod = await node.get('/explorer/vendor/noble-curves/bls12-381.js')
    t.equal(mod.statusCode, 200)
    t.match(mod.headers['content-type'], /^text\/javascript/)
    t.match(mod.body, /from '\/explorer\/vendor\/noble-hashes\/sha2\.js'/, 'bare @noble/hashes specifiers point at the served copy')
    t.notMatch(mod.body, /from '@noble\/hashes\//)
    for (const bad of ['/explorer/vendor/noble-curves/../package.json', '/explorer/vendor/noble-curves/%2e%2e/%2e%2e/package.json', '/explorer/vendor/left-pad/index.js', '/explorer/vendor/noble-curves/nope.js', '/explorer/vendor/noble-curves/package.json']) {
      t.equal((await node.get(bad)).statusCode, 404, bad)
    }
  })

  t.test('block detail with decoded transactions', async (t) => {
    const res = await node.get('/api/explorer/block/1')
    t.equal(res.statusCode, 200)
    const b = res.json()
    checkShape(t, b, BLOCK_DETAIL, 'block detail')
    t.equal(b.hash, b1.hash)
    t.equal(b.merkle_root, b1.merkle_root)
    t.equal(b.nonce, b1.nonce)
    t.equal(b.bits, b1.bits, 'the compact target the header carries')
    t.match(b.target, /^[0-9a-f]{128}$/)
    t.equal(BigInt('0x' + b.target), decodeBits(b1.bits), 'and the target it stands for')
    t.ok(BigInt('0x' + b.hash) <= BigInt('0x' + b.target), 'the hash meets it')
    t.equal(b.difficulty, difficultyOfBits(b1.bits), 'difficulty: the target\'s leading zero hex digits')
    t.equal(b.qrng_attestation_present, true)
    t.same(b.quantum_signature, b1.quantum_signature, 'the whole envelope, as hashed into the header')
    t.equal(b.entropy_verifiable, true)
    t.same(b.beacon_rounds, b1.quantum_signature!.qrng_attestation.beacons.map((e) => ({ source: e.source, round: e.round })))
    t.equal(b.beacon_rounds[0].source, 'beacon-devnet')
    t.equal(b.transactions.length, 2)
    for (const tx of b.transactions) checkShape(t, tx, DECODED_TX, `tx ${tx.kind}`)
    const [coinbase, transfer] = b.transactions
    t.equal(coinbase.kind, 'coinbase')
    t.equal(coinbase.sender, 'mining_reward')
    t.equal(coinbase.sender_name, null)
    t.equal(transfer.kind, 'transfer')
    t.equal(transfer.tx_id, pay.transaction_id)
    t.equal(transfer.recipient_name, 'alice', 'names come from the names service')
    t.equal(transfer.amount, 12.5)
    t.equal(transfer.fee, 0.001)

    const msg = (await node.get('/api/explorer/block/2')).json().transactions[1]
    t.equal(msg.kind, 'message')
    t.equal(msg.sender_name, 'alice')
    t.equal(msg.memo, 'hello chain')
    t.equal((await node.get('/api/explorer/block/2')).json().hash, b2.hash)

    const genesis = (await node.get('/api/explorer/block/0')).json()
    t.equal(genesis.qrng_attestation_present, false)
    t.equal(genesis.quantum_signature, null)
    t.equal(genesis.entropy_verifiable, false)
    t.same(genesis.beacon_rounds, [])
    const kinds = genesis.transactions.map((x: { kind: string }) => x.kind)
    t.same(new Set(kinds), new Set(['genesis']))
    const premine = genesis.transactions.find((x: { recipient: string }) => x.recipient === FOUNDATION_ADDRESS)
    t.equal(premine.recipient_name, 'foundation')
    t.equal(premine.sender, 'genesis')
  })

  t.test('transaction lookup: confirmed, pending', async (t) => {
    const res = await node.get(`/api/explorer/tx/${pay.transaction_id}`)
    t.equal(res.statusCode, 200)
    const tx = res.json()
    checkShape(t, tx, { ...DECODED_TX, block_height: 'int', block_hash: 'string', status: 'string', confirmations: 'int' }, 'confirmed tx')
    t.equal(tx.status, 'confirmed')
    t.equal(tx.block_height, 1)
    t.equal(tx.block_hash, b1.hash)
    t.equal(tx.confirmations, tipHeight - 1 + 1)
    t.notOk('receipt' in tx, 'a transfer has no receipt')

    const upper = await node.get(`/api/explorer/tx/0x${pay.transaction_id.toUpperCase()}`)
    t.equal(upper.json().tx_id, pay.transaction_id, 'any case, with 0x')

    const p = (await node.get(`/api/explorer/tx/${pending.transaction_id}`)).json()
    checkShape(t, p, { ...DECODED_TX, status: 'string', confirmations: 'int' }, 'pending tx')
    t.equal(p.status, 'pending')
    t.equal(p.confirmations, 0)
    t.notOk('block_height' in p || 'block_hash' in p, 'pending carries no block fields')
  })

  t.test('address detail: both forms, any case, with or without 0x', async (t) => {
    const vm = vmAddressOf(alice.address)
    const forms = [alice.address, alice.address.toUpperCase(), `0x${alice.address}`, vm, `0X${vm.toUpperCase()}`]
    const bodies = []
    for (const form of forms) {
      const res = await node.get(`/api/explorer/address/${form}`)
      t.equal(res.statusCode, 200, form)
      bodies.push(res.json())
    }
    const a = bodies[0]
    for (const other of bodies.slice(1)) t.same(other, a, 'every form answers the same')
    checkShape(t, a, ADDRESS_DETAIL, 'address')
    checkShape(t, a.pagination, PAGINATION, 'address pagination')
    t.equal(a.address, vm, 'canonical 40-hex form')
    t.equal(a.name, 'alice')
    t.equal(a.is_foundation, false)
    t.equal(a.balance, 12.5 - 0.01)
    t.equal(a.tx_count, 2)
    for (const x of a.transactions) checkShape(t, x, ADDRESS_TX, 'history entry')
    t.same(a.transactions.map((x: { tx_id: string; direction: string; kind: string }) => [x.tx_id, x.direction, x.kind]), [
      [memo.transaction_id, 'out', 'message'],
      [pay.transaction_id, 'in', 'transfer']
    ], 'newest first, direction from the address')
  })

  t.test('address paging and the dev account history', async (t) => {
    const dev = (await node.get(`/api/explorer/address/${node.dev.address}?limit=2`)).json()
    // genesis premine, 5 coinbases, 1 payment out
    t.equal(dev.tx_count, 7)
    t.equal(dev.transactions.length, 2)
    t.same(dev.pagination, { offset: 0, limit: 2, total: 7, has_more: true })
    const rest = (await node.get(`/api/explorer/address/${node.dev.address}?offset=2&limit=100`)).json()
    t.equal(rest.transactions.length, 5)
    t.equal(rest.pagination.has_more, false)
    const heights = [...dev.transactions, ...rest.transactions].map((x: { block_height: number }) => x.block_height)
    t.same(heights, [...heights].sort((a, b) => b - a), 'newest first across pages')
    t.equal(rest.transactions.at(-1).kind, 'genesis')
    const beyond = (await node.get(`/api/explorer/address/${node.dev.address}?offset=1000000`)).json()
    t.same(beyond.transactions, [])
    t.equal(beyond.tx_count, 7)
  })

  t.test('the foundation address', async (t) => {
    const f = (await node.get(`/api/explorer/address/${FOUNDATION_ADDRESS}`)).json()
    t.equal(f.is_foundation, true)
    t.equal(f.name, 'foundation')
    t.equal(f.balance, 1_000_000)
  })

  t.test('an address the chain never saw', async (t) => {
    const stranger = generateWallet().address
    const res = await node.get(`/api/explorer/address/${stranger}`)
    t.equal(res.statusCode, 200)
    t.match(res.json(), { address: vmAddressOf(stranger), balance: 0, tx_count: 0, transactions: [], name: null, is_foundation: false })
    const unknownVm = 'ab'.repeat(20)
    t.match((await node.get(`/api/explorer/address/${unknownVm}`)).json(), { address: unknownVm, wallet_address: null, balance: 0, tx_count: 0 })
  })

  t.test('search: where a query leads (issue 14 item 6)', async (t) => {
    const q = async (text: string) => await node.get(`/api/explorer/search?q=${encodeURIComponent(text)}`)
    t.same((await q('2')).json(), { type: 'block', height: 2 })
    t.same((await q(b1.hash)).json(), { type: 'block', height: 1 })
    t.same((await q(idPrefix(memo.transaction_id, 16))).json(), { type: 'tx', tx_id: memo.transaction_id }, 'the chat\'s 16-char id')
    t.same((await q(idPrefix(pending.transaction_id, 8).toUpperCase())).json(), { type: 'tx', tx_id: pending.transaction_id })
    t.same((await q('Alice')).json(), { type: 'address', address: alice.address, name: 'Alice' })
    t.same((await q(`0x${vmAddressOf(alice.address)}`)).json(), { type: 'address', address: vmAddressOf(alice.address) })
    const miss = await q('nobody')
    t.equal(miss.statusCode, 404)
    t.same(miss.json(), { error: 'no user named nobody' })
    t.equal((await q('9')).statusCode, 404)
    t.equal((await q('hello world')).statusCode, 400)
    t.equal((await node.get('/api/explorer/search')).statusCode, 400)
  })

  t.test('mempool: the pending transactions, paged (issue 14 item 8)', async (t) => {
    const m = (await node.get('/api/explorer/mempool')).json()
    t.equal(m.pending_count, 1)
    t.match(m.transactions, [{ tx_id: pending.transaction_id, sender: node.dev.address, recipient: alice.address, recipient_name: 'alice', amount: 1, kind: 'transfer' }])
    t.same(m.pagination, { offset: 0, limit: 25, total: 1, has_more: false })
    t.same((await node.get('/api/explorer/mempool?offset=1')).json().transactions, [])
    t.equal((await node.get('/api/explorer/mempool?limit=0')).statusCode, 400)
  })

  t.test('contract ABIs: 404 without a directory that knows the contract', async (t) => {
    const res = await node.get(`/api/explorer/abi/${'ab'.repeat(20)}`)
    t.equal(res.statusCode, 404)
    t.same(res.json(), { error: 'no ABI known for this contract' })
  })

  t.test('API root links the web page; the page and its assets are served', async (t) => {
    const root = (await node.get('/api/explorer')).json()
    t.equal(root.page, '/explorer')
    const page = await node.get(root.page)
    t.equal(page.statusCode, 200)
    t.match(page.headers['content-type'], /text\/html/)
    t.match(page.body, /explorer\.js/)
    for (const asset of ['explorer.js', 'views.js', 'dom.js', 'explorer.css']) {
      t.equal((await node.get(`/explorer/assets/${asset}`)).statusCode, 200, asset)
    }
  })

  t.test('published in OpenAPI', async (t) => {
    const doc = (await node.get('/docs/json')).json()
    for (const p of ['/api/explorer/stats', '/api/explorer/blocks', '/api/explorer/block/{height}', '/api/explorer/tx/{tx_id}', '/api/explorer/address/{address}', '/api/receipt/{tx_id}', '/api/receipts/block/{idx}', '/api/explorer/search', '/api/explorer/mempool', '/api/explorer/abi/{address}']) {
      t.ok(doc.paths[p], p)
    }
  })
})

t.test('without a names service only the foundation is named', async (t) => {
  const node = await startExplorerNode()
  t.teardown(() => node.stop())
  const genesis = (await node.get('/api/explorer/block/0')).json()
  const names = genesis.transactions.map((x: { recipient: string; recipient_name: string | null }) => [x.recipient, x.recipient_name])
  t.same(names.filter(([, n]: [string, string | null]) => n !== null), [[FOUNDATION_ADDRESS, 'foundation']])
  t.equal((await node.get(`/api/explorer/address/${vmAddressOf(FOUNDATION_ADDRESS)}`)).json().name, 'foundation')
})
