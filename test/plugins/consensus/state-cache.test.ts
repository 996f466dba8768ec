// The chain's read cache of committed state (core/chain/state-cache.ts) must never let a block
// see anything but the committed state: it follows every write, disconnects and reorgs included.
import t from 'tap'
import { StateCache } from '../../../core/chain/state-cache.ts'
import { mineBlock, transfer, devWallet, generateWallet, testParams } from '../../helpers/chain.ts'
import { startChainNode, refOf, stateDump, feed } from './reorg-helpers.ts'

t.test('StateCache: only read values of state keys, replaced by committed writes, dropped by deletions', async (t) => {
  const cache = new StateCache({ maxEntries: 100, maxBytes: 1 << 20 })
  cache.remember('acct:a', Buffer.from('1'))
  cache.remember('pk:a', Buffer.from('key'))
  cache.remember('acct:gone', undefined)
  cache.remember('tx:abc', Buffer.from('{"height":1}'))
  const { found, missing } = cache.split(['acct:a', 'pk:a', 'acct:gone', 'tx:abc', 'ac:b'])
  t.same([...found.keys()], ['acct:a', 'pk:a'], 'absent values and other keys are not kept')
  t.same(missing, ['acct:gone', 'tx:abc', 'ac:b'])
  const written = Buffer.from('2')
  cache.committed([
    { type: 'put', key: 'acct:a', value: written },
    { type: 'del', key: 'pk:a' },
    { type: 'put', key: 'acct:new', value: Buffer.from('3') }
  ])
  written[0] = 0x39 // the writer's buffer changing afterwards does not change the cache
  const after = cache.split(['acct:a', 'pk:a', 'acct:new'])
  t.equal(after.found.get('acct:a')?.toString(), '2')
  t.same(after.missing, ['pk:a', 'acct:new'], 'a deletion drops the key; a write does not add one never read')
})

t.test('StateCache: bounded by bytes', async (t) => {
  const cache = new StateCache({ maxEntries: 1000, maxBytes: 8 * 1024 })
  for (let i = 0; i < 20; i++) cache.remember(`pk:${i}`, Buffer.alloc(2592))
  t.ok(cache.bytes <= 8 * 1024)
  t.equal(cache.entries, 3, 'three keys of 2,592 bytes fit in 8 KiB')
  t.same(cache.split(['pk:19', 'pk:18', 'pk:0']).missing, ['pk:0'], 'the most recent kept')
})

t.test('a block read from the cache after a reorg sees exactly the state a fresh node has', async (t) => {
  const params = testParams()
  const dev = devWallet()
  const senders = Array.from({ length: 5 }, () => generateWallet())
  const payee = (): string => generateWallet().address
  const node = await startChainNode(params)
  t.teardown(() => node.stop())
  const fund = mineBlock(params, refOf(node.chain.tip()), { txs: senders.map((w, i) => transfer(params, dev, w.address, 10, i)) })
  // branch A: one block in which every sender pays (its accounts and keys read, then cached)
  const a1 = mineBlock(params, refOf(fund), { txs: senders.map((w) => transfer(params, w, payee(), 1, 0)) })
  // branch B, heavier: the same senders pay others twice
  const b1 = mineBlock(params, refOf(fund), { txs: senders.map((w) => transfer(params, w, payee(), 2, 0)), timestamp: fund.timestamp + 2 })
  const b2 = mineBlock(params, refOf(b1), { txs: senders.map((w) => transfer(params, w, payee(), 3, 1, { withKey: false })) })
  // on top of B: only valid against B's state (nonce 2, balances after 2 + 3)
  const c = mineBlock(params, refOf(b2), { txs: senders.map((w) => transfer(params, w, payee(), 4, 2, { withKey: false })) })
  await feed(node.chain, [fund, a1, b1])
  t.equal(node.chain.tip().hash, a1.hash)
  t.equal((await node.chain.processBlock(b2, 'test')).status, 'reorg')
  t.equal((await node.chain.processBlock(c, 'test')).status, 'connected', 'the cached senders have branch B\'s nonces')
  for (const w of senders) t.equal(node.chain.getAccount(w.address).nonce, 3)

  const fresh = await startChainNode(params)
  t.teardown(() => fresh.stop())
  await feed(fresh.chain, [fund, b1, b2, c])
  t.same(await stateDump(node.db), await stateDump(fresh.db), 'same state as a node that never saw branch A')
})
