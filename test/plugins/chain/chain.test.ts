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
