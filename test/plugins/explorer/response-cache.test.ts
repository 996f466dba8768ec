// Ready-to-send explorer answers (plugins/explorer/response-cache.ts, issue 15): a cached
// answer is byte for byte the answer built afresh, names and confirmations of the moment
// included; a reorg never leaves a stale one behind; the cache stays within its byte bound.
import t from 'tap'
import path from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { generateWallet, mineBlock } from '../../helpers/chain.ts'
import { silentLogger } from '../../helpers/chain.ts'
import { startExplorerNode } from './fixtures/explorer-node.ts'
import type { ExplorerNode } from './fixtures/explorer-node.ts'
import { NAMED } from './fixtures/names-plugin.ts'
import { registerExplorerRoutes } from '../../../plugins/explorer/routes.ts'
import { chainViewsHttp } from '../../../plugins/http/chain-views/index.ts'
import { ExplorerCache, cutTemplate, nameMark } from '../../../plugins/explorer/response-cache.ts'
import { BoundedCache } from '../../../core/kernel/bounded-cache.ts'
import { addressLookup, nameLookup } from '../../../core/views/names.ts'
import type { ViewContext } from '../../../core/views/context.ts'
import type { Block } from '../../../core/chain/types.ts'

const NAMES_PLUGIN = { path: path.join(import.meta.dirname, 'fixtures', 'names-plugin.ts') }

/** an explorer server on the node's chain: with `cache`, one following the node's hooks */
async function explorerApp (node: ExplorerNode, cache?: ExplorerCache): Promise<FastifyInstance> {
  const view: ViewContext = {
    chain: node.resolve('chain'),
    mempool: node.resolve('mempool'),
    params: node.params,
    nameOf: nameLookup(() => node.resolve('names'), node.params.foundationAddress),
    addressOfName: addressLookup(() => node.resolve('names'), node.params.foundationAddress)
  }
  const app = node.resolve('http').createServer({ logger: silentLogger, name: 'test' })
  cache?.follow(node.kernel.hooks)
  registerExplorerRoutes(app, chainViewsHttp, view, () => undefined, cache)
  await app.ready()
  return app
}

/** status, content type and body bytes: what must not differ between a hit and a miss */
const wire = (res: LightMyRequestResponse): { status: number; type: unknown; length: unknown; body: string } =>
  ({ status: res.statusCode, type: res.headers['content-type'], length: res.headers['content-length'], body: res.body })

t.test('cached answers are the fresh answers, byte for byte', async (t) => {
  const node = await startExplorerNode({ plugins: ['storage', 'consensus', 'http', NAMES_PLUGIN, 'explorer'] })
  t.teardown(() => node.stop())
  const cache = new ExplorerCache()
  const cached = await explorerApp(node, cache)
  const fresh = await explorerApp(node)
  t.teardown(async () => { await cached.close(); await fresh.close() })
  const alice = generateWallet()
  const bob = generateWallet()
  NAMED[alice.address] = 'alice'
  const pay = node.send(node.dev, alice.address, 10)
  await node.mine([pay])
  const memo = node.send(alice, bob.address, 1, { memo: 'with "quotes", \\ and ünïcödé \u2028', fee: 0.01 })
  await node.mine([memo])
  await node.mine([])

  const same = async (url: string, what: string): Promise<void> => {
    const expected = wire(await fresh.inject({ method: 'GET', url }))
    t.same(wire(await cached.inject({ method: 'GET', url })), expected, `${what}: first request`)
    t.same(wire(await cached.inject({ method: 'GET', url })), expected, `${what}: from the cache`)
    t.same(wire(await node.get(url)), expected, `${what}: the node's own explorer`)
  }
  for (let h = 0; h <= 3; h++) await same(`/api/explorer/block/${h}`, `block ${h}`)
  await same(`/api/explorer/tx/${pay.transaction_id}`, 'transfer')
  await same(`/api/explorer/tx/0x${memo.transaction_id.toUpperCase()}`, 'message, id in another spelling')
  t.equal(cache.blocks.entries, 4, 'every block answer kept')
  t.equal(cache.txs.entries, 2, 'both transactions kept')

  // what a cached answer must still follow: the names of the moment and the tip
  // a name is filled in as JSON.stringify writes it: held to the serializer's bytes
  NAMED[bob.address] = 'bob'
  NAMED[alice.address] = 'ä "li\\ce" \u2028 €'
  await same('/api/explorer/block/2', 'block 2 with a name to escape')
  delete NAMED[alice.address]
  await node.mine([])
  await same('/api/explorer/block/2', 'block 2 after a rename')
  await same(`/api/explorer/tx/${memo.transaction_id}`, 'message after a rename and a new block')
  t.equal(JSON.parse((await cached.inject({ method: 'GET', url: `/api/explorer/tx/${memo.transaction_id}` })).body).confirmations, 3)
  t.equal(JSON.parse((await cached.inject({ method: 'GET', url: '/api/explorer/block/2' })).body).transactions[1].recipient_name, 'bob')

  // not kept: unknown, pending, malformed
  const pending = node.send(node.dev, bob.address, 1)
  node.resolve('mempool').add(pending)
  await same(`/api/explorer/tx/${pending.transaction_id}`, 'pending')
  await same(`/api/explorer/tx/${'ab'.repeat(32)}`, 'unknown')
  await same('/api/explorer/tx/xyz', 'malformed')
  await same('/api/explorer/block/99', 'above the tip')
  t.equal(cache.txs.entries, 2, 'no pending or missing transaction kept')
  await node.mine([pending])
  await same(`/api/explorer/tx/${pending.transaction_id}`, 'confirmed since')
  await same('/api/explorer/stats', 'stats')
})

t.test('a reorg never leaves a stale answer', async (t) => {
  const node = await startExplorerNode({ plugins: ['storage', 'consensus', 'http', NAMES_PLUGIN, 'explorer'] })
  t.teardown(() => node.stop())
  const cache = new ExplorerCache()
  const cached = await explorerApp(node, cache)
  const fresh = await explorerApp(node)
  t.teardown(async () => { await cached.close(); await fresh.close() })
  const chain = node.resolve('chain')
  const carol = generateWallet()
  const b1 = await node.mine([])
  const moved = node.send(node.dev, carol.address, 3)
  const a2 = await node.mine([moved])
  await node.mine([])
  const urls = ['/api/explorer/block/1', '/api/explorer/block/2', '/api/explorer/block/3', `/api/explorer/tx/${moved.transaction_id}`, '/api/explorer/stats']
  for (const url of urls) await cached.inject({ method: 'GET', url })
  t.equal(cache.blocks.entries, 3)
  t.equal(cache.txs.entries, 1)

  // a heavier branch from block 1: the transfer lands one block later, heights 2 and 3 re-point
  let parent: Block = b1
  const branch: Block[] = []
  for (let i = 0; i < 3; i++) {
    parent = mineBlock(node.params, parent, { txs: i === 1 ? [moved] : [], timestamp: parent.timestamp + 2, miner: carol.address })
    branch.push(parent)
  }
  for (const b of branch) await chain.processBlock(b, 'test')
  t.equal(chain.tip().hash, branch[2]!.hash, 'the branch won')
  t.not(chain.hashAtHeight(2), a2.hash)
  for (const url of [...urls, '/api/explorer/block/4']) {
    t.same(wire(await cached.inject({ method: 'GET', url })), wire(await fresh.inject({ method: 'GET', url })), `${url} after the reorg`)
    t.same(wire(await node.get(url)), wire(await fresh.inject({ method: 'GET', url })), `${url} on the node's own explorer`)
  }
  const tx = JSON.parse((await cached.inject({ method: 'GET', url: `/api/explorer/tx/${moved.transaction_id}` })).body)
  t.equal(tx.block_height, 3, 'the transfer where the new branch has it')
  t.equal(JSON.parse((await cached.inject({ method: 'GET', url: '/api/explorer/block/2' })).body).hash, branch[0]!.hash)
})

t.test('a request whose reads straddle a disconnect does not store what it read', async (t) => {
  const node = await startExplorerNode({ plugins: ['storage', 'consensus', 'http', NAMES_PLUGIN, 'explorer'] })
  t.teardown(() => node.stop())
  const tx = node.send(node.dev, generateWallet().address, 1)
  await node.mine([tx])
  const cache = new ExplorerCache()
  const real = node.resolve('chain')
  // the chain as a request sees it when a reorg disconnects blocks while it awaits a read
  const straddling: Partial<typeof real> = {
    getBlockByHeight: async (height) => { const b = await real.getBlockByHeight(height); cache.invalidate(); return b },
    getTransaction: async (id) => { const c = await real.getTransaction(id); cache.invalidate(); return c }
  }
  const chain = new Proxy(real, {
    get: (target, key) => {
      const own = straddling[key as keyof typeof straddling] ?? Reflect.get(target, key)
      return typeof own === 'function' && !(key in straddling) ? own.bind(target) : own
    }
  })
  const nameOf = nameLookup(() => node.resolve('names'), node.params.foundationAddress)
  const app = node.resolve('http').createServer({ logger: silentLogger, name: 'test' })
  registerExplorerRoutes(app, chainViewsHttp, { chain, mempool: node.resolve('mempool'), params: node.params, nameOf }, () => undefined, cache)
  t.teardown(() => app.close())
  t.equal((await app.inject({ method: 'GET', url: '/api/explorer/block/1' })).statusCode, 200, 'answered')
  t.equal(cache.blocks.entries, 0, 'the block read across the disconnect is not kept')
  t.equal((await app.inject({ method: 'GET', url: `/api/explorer/tx/${tx.transaction_id}` })).statusCode, 200, 'answered')
  t.equal(cache.txs.entries, 0, 'nor the transaction')
})

t.test('the cache stays within its byte bound, least recently used out first', async (t) => {
  const lru = new BoundedCache<number, string>({ maxSize: 1000, maxEntries: 100 })
  for (let i = 0; i < 50; i++) {
    lru.set(i, 'x'.repeat(90), 100)
    t.ok(lru.size <= 1000, `within bound after ${i + 1} inserts`)
    if (i === 20) {
      t.ok(lru.get(11), 'the oldest of 11..20')
      lru.set(21, 'x'.repeat(90), 100)
      t.equal(lru.get(12), undefined, 'the least recently used went, not the one just read')
      t.ok(lru.get(11))
      i++
    }
  }
  t.equal(lru.entries, 10)
  t.equal(lru.size, 1000)
  t.equal(lru.get(49), 'x'.repeat(90))
  t.equal(lru.get(39), undefined, 'evicted')
  lru.set(99, 'too big', 1001)
  t.equal(lru.get(99), undefined, 'a value over the whole budget is not kept')
  t.ok(lru.size <= 1000)
  const counted = new BoundedCache<number, string>({ maxSize: 1 << 20, maxEntries: 3 })
  for (let i = 0; i < 5; i++) counted.set(i, 'v', 1)
  t.equal(counted.entries, 3, 'and within its entry count')
  const none = new BoundedCache<number, string>({ maxSize: 0, maxEntries: 0 })
  none.set(1, 'v', 0)
  t.equal(none.entries, 0, 'a zero budget keeps nothing')
  t.equal(none.keeps, false, 'and says so, so the routes prepare nothing')
  t.equal(lru.keeps, true)

  // the real answers through a small cache
  const node = await startExplorerNode({ plugins: ['storage', 'consensus', 'http', NAMES_PLUGIN, 'explorer'] })
  t.teardown(() => node.stop())
  const cache = new ExplorerCache({ blockBytes: 8 * 1024, txBytes: 2 * 1024 })
  const cached = await explorerApp(node, cache)
  const fresh = await explorerApp(node)
  t.teardown(async () => { await cached.close(); await fresh.close() })
  const ids: string[] = []
  for (let i = 0; i < 12; i++) {
    const tx = node.send(node.dev, generateWallet().address, 1)
    ids.push(tx.transaction_id)
    await node.mine([tx])
  }
  for (const url of [...Array.from({ length: 13 }, (_, h) => `/api/explorer/block/${h}`), ...ids.map((id) => `/api/explorer/tx/${id}`)]) {
    t.same(wire(await cached.inject({ method: 'GET', url })), wire(await fresh.inject({ method: 'GET', url })), url)
    t.ok(cache.blocks.size <= 8 * 1024 && cache.txs.size <= 2 * 1024, 'within both bounds')
  }
  t.ok(cache.blocks.entries > 0 && cache.blocks.entries < 13, `some blocks kept, not all (${cache.blocks.entries})`)
  t.ok(cache.txs.entries > 0 && cache.txs.entries < 12, `some transactions kept, not all (${cache.txs.entries})`)
})

t.test('marks that are not one per address, in order, give no template', async (t) => {
  const marked = `{"a":"${nameMark(0)}","b":"${nameMark(1)}"}`
  const template = cutTemplate(marked, ['aa', 'bb'])
  t.same(template?.holes, [{ address: 'aa' }, { address: 'bb' }], 'one hole per mark')
  t.equal(cutTemplate(marked, ['aa']), null, 'more marks than names')
  t.equal(cutTemplate(marked, ['aa', 'bb', 'cc']), null, 'fewer marks than names')
  t.equal(cutTemplate(`{"a":"${nameMark(1)}"}`, ['aa']), null, 'marks out of order')
  const narrow = cutTemplate('{"m":"ünïcödé"}', [])
  const wide = cutTemplate('{"m":"\u2028 €"}', [])
  const overhead = 64 * 2 // per template, no holes
  t.equal(narrow?.bytes, 15 + overhead, 'Latin-1 text: a byte a character (V8 one-byte string)')
  t.equal(wide?.bytes, 2 * 11 + overhead, 'text past Latin-1: two bytes a character')
})
