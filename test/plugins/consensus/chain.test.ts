import t from 'tap'
import { openTestChain, mineBlock, transfer, devWallet, generateWallet, cleanup } from '../../helpers/chain.ts'
import { coinToBohm } from '../../../core/chain/money.ts'

t.test('genesis, connect, balances', async (t) => {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const dev = devWallet()
  t.equal(tc.chain.tip().height, 0)
  t.equal(tc.chain.getAccount(dev.address).balance, coinToBohm(1_000_000))
  const bob = generateWallet()
  const tx = transfer(tc.params, dev, bob.address, 10, 0)
  tc.mempool.add(tx)
  const b1 = mineBlock(tc.params, tc.tipRef(), { txs: tc.mempool.select(100), miner: bob.address })
  const r = await tc.chain.processBlock(b1, 'test')
  t.equal(r.status, 'connected')
  t.equal(tc.mempool.size, 0)
  t.equal(tc.chain.getAccount(bob.address).balance, coinToBohm(10) + coinToBohm(5) + coinToBohm(0.001))
  t.equal(tc.chain.getAccount(dev.address).nonce, 1)
  const found = await tc.chain.getTransaction(tx.transaction_id)
  t.equal(found?.location.height, 1)
  const hist = await tc.chain.addressHistory(bob.address, 0, 10)
  t.equal(hist.total, 2)
})

t.test('blocks handed in concurrently are processed one at a time, in order', async (t) => {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const dev = devWallet()
  const blocks = []
  let parent = tc.tipRef()
  for (let nonce = 0; nonce < 4; nonce++) {
    const b = mineBlock(tc.params, parent, { txs: [transfer(tc.params, dev, generateWallet().address, 1, nonce)] })
    blocks.push(b)
    parent = { hash: b.hash, height: b.height, timestamp: b.timestamp }
  }
  const results = await Promise.all(blocks.map((b) => tc.chain.processBlock(b, 'test')))
  t.same(results.map((r) => r.status), ['connected', 'connected', 'connected', 'connected'])
  t.equal(tc.chain.tip().height, 4)
  t.equal(tc.chain.getAccount(dev.address).nonce, 4)
})

t.test('a transfer to oneself costs only the fee and is indexed once', async (t) => {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const dev = devWallet()
  const miner = generateWallet()
  const before = tc.chain.getAccount(dev.address).balance
  const historyBefore = (await tc.chain.addressHistory(dev.address, 0, 10)).total
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: [transfer(tc.params, dev, dev.address, 100, 0)], miner: miner.address }), 'test')
  t.equal(tc.chain.getAccount(dev.address).balance, before - coinToBohm(0.001))
  t.equal((await tc.chain.addressHistory(dev.address, 0, 10)).total, historyBefore + 1)
  t.equal(tc.chain.totalSupply(), coinToBohm(2_000_005), 'supply grows by the subsidy only: fees move, they are not minted')
})

t.test('a transfer to a wallet\'s VM address credits that wallet; an unknown VM address holds its own balance', async (t) => {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const dev = devWallet()
  const bob = generateWallet()
  const stranger = generateWallet()
  // bob becomes known to the chain (his VM address maps to his wallet) by receiving coin
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: [transfer(tc.params, dev, bob.address, 1, 0)] }), 'test')
  t.equal(tc.chain.walletOfVm(bob.vmAddress), bob.address)
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), {
    txs: [transfer(tc.params, dev, bob.vmAddress, 2, 1), transfer(tc.params, dev, stranger.vmAddress, 3, 2)]
  }), 'test')
  t.equal(tc.chain.getAccount(bob.address).balance, coinToBohm(3), 'both payments in bob\'s wallet account')
  t.equal(tc.chain.getAccount(bob.vmAddress).balance, 0n, 'nothing stranded under his VM address')
  t.equal((await tc.chain.addressHistory(bob.address, 0, 10)).total, 2, 'both in his history')
  t.equal(tc.chain.getAccount(stranger.vmAddress).balance, coinToBohm(3), 'an address the chain has never seen keeps its coin under the VM address')
})

t.test('a stored block reads back whole, from the cache the second time, and its binary form is served from the stored bytes', async (t) => {
  const { encodeBlock } = await import('../../../core/chain/tx-codec.ts')
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const dev = devWallet()
  const tx = transfer(tc.params, dev, generateWallet().address, 1, 0, { data: { memo: 'cached ✓' } })
  const b1 = mineBlock(tc.params, tc.tipRef(), { txs: [tx] })
  await tc.chain.processBlock(b1, 'test')
  const first = await tc.chain.getBlockByHash(b1.hash)
  t.same(first, b1, 'the block as it was connected')
  t.equal(await tc.chain.getBlockByHash(b1.hash), first, 'the same decoded object the second time')
  t.same(Buffer.from((await tc.chain.getBlockBinary(b1.hash))!), encodeBlock(b1), 'the wire form, assembled from the stored bytes')
  const found = await tc.chain.getTransaction(tx.transaction_id)
  t.same(found?.tx, tx)
  t.equal((await tc.chain.getTransaction(tx.transaction_id))?.tx, found?.tx, 'a transaction too')
  t.equal(await tc.chain.getBlockBinary('ab'.repeat(64)), undefined, 'an unknown block')
})
