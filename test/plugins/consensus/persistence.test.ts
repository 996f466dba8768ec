// Closing and reopening the chain database: same tip, state and indexes; work continues.
import t from 'tap'
import { openTestChain, mineBlock, transfer, devWallet, generateWallet, cleanup, testParams, tmpDir } from '../../helpers/chain.ts'
import { NETWORKS } from '../../../config/networks.ts'
import { RocksStore } from '../../../plugins/storage/rocks-store.ts'
import { Chain } from '../../../plugins/consensus/chain.ts'
import { createHooks } from '../../../core/kernel/hooks.ts'
import { silentLogger } from '../../helpers/chain.ts'
import path from 'node:path'
import { refOf, stateDump } from './reorg-helpers.ts'
import { Cores } from '../../../core/cores/cores.ts'

t.test('close and reopen: same tip, balances and indexes; reorgs still undo old blocks', async (t) => {
  const params = testParams()
  const dir = tmpDir()
  t.teardown(() => { cleanup(dir) })
  const dev = devWallet()
  const [alice, bob] = [generateWallet(), generateWallet()]

  const first = await openTestChain(params, dir)
  const b1 = mineBlock(params, first.tipRef(), { txs: [transfer(params, dev, alice.address, 10, 0, { data: { memo: 'persist me' } })] })
  await first.chain.processBlock(b1, 'test')
  const b2 = mineBlock(params, first.tipRef(), { txs: [transfer(params, alice, bob.address, 1, 0)], miner: bob.address })
  await first.chain.processBlock(b2, 'test')
  const side = mineBlock(params, refOf(b1), { timestamp: b1.timestamp + 7 })
  t.equal((await first.chain.processBlock(side, 'test')).status, 'side')

  const snapshot = {
    tip: first.chain.tip(),
    supply: first.chain.totalSupply(),
    accounts: [dev, alice, bob].map((w) => first.chain.getAccount(w.address)),
    history: await first.chain.addressHistory(alice.address, 0, 10),
    messages: await first.chain.recentMessageTxs(10),
    tx: await first.chain.getTransaction(b2.transactions[1]?.transaction_id ?? ''),
    vm: first.chain.walletOfVm(alice.vmAddress),
    dump: await stateDump(first.db),
    nextDifficulty: first.chain.nextDifficulty()
  }
  await first.close()

  const again = await openTestChain(params, dir)
  t.teardown(() => again.close())
  t.same(again.chain.tip(), snapshot.tip)
  t.equal(again.chain.genesisHash(), first.chain.genesisHash())
  t.equal(again.chain.totalSupply(), snapshot.supply)
  t.same([dev, alice, bob].map((w) => again.chain.getAccount(w.address)), snapshot.accounts)
  t.same(await again.chain.addressHistory(alice.address, 0, 10), snapshot.history)
  t.same(await again.chain.recentMessageTxs(10), snapshot.messages)
  t.same(await again.chain.getTransaction(b2.transactions[1]?.transaction_id ?? ''), snapshot.tx)
  t.ok(snapshot.tx !== undefined)
  t.equal(again.chain.walletOfVm(alice.vmAddress), alice.address)
  t.equal(snapshot.vm, alice.address)
  t.same(await again.chain.getBlockByHash(b2.hash), b2, 'stored block reads back unchanged')
  t.same(await stateDump(again.db), snapshot.dump)
  t.equal(again.chain.nextDifficulty(), snapshot.nextDifficulty)
  t.equal((await again.chain.processBlock(b2, 'test')).status, 'known')
  t.equal((await again.chain.processBlock(side, 'test')).status, 'known', 'side blocks are remembered')

  // The side branch outgrows the main one after the restart: undo records written before it are used.
  const side2 = mineBlock(params, refOf(side))
  t.equal((await again.chain.processBlock(side2, 'test')).status, 'reorg')
  t.equal(again.chain.tip().hash, side2.hash)
  t.equal(again.chain.getAccount(bob.address).balance, 0n, 'block 2 undone')
  t.equal(again.chain.getAccount(alice.address).balance, 10n * 10n ** 18n)
  t.equal(await again.chain.getTransaction(b2.transactions[1]?.transaction_id ?? ''), undefined)
})

t.test('a database of another network is refused', async (t) => {
  const dir = tmpDir()
  t.teardown(() => { cleanup(dir) })
  const tc = await openTestChain(testParams(), dir)
  await tc.close()
  const db = await RocksStore.open(path.join(dir, 'chain'))
  t.teardown(() => db.close())
  const chain = new Chain({ db, params: NETWORKS.testnet, hooks: createHooks(), logger: silentLogger, executor: null, cores: new Cores({ pow: 'js' }) })
  await t.rejects(chain.init(), /another network's chain/)
})
