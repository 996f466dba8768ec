// miningTemplate (issue 16 item 1): the real miner mines what a tap returns when it only
// reorders the offered transactions or leaves some out (each sender keeping a prefix of its
// own), and mines the untapped offer when the tap returns anything else, so no plugin can make
// it mine a block the chain refuses. blockMined reaches the tap for each block it mined.
import t from 'tap'
import path from 'node:path'
import { startTestNode } from '../../helpers/node.ts'
import { waitFor } from '../../helpers/wait.ts'
import { devWallet, generateWallet, testParams, transfer } from '../../helpers/chain.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'
import { acceptTappedTransactions } from '../../../plugins/miner/template-tap.ts'
import { templateTap } from './fixtures/template-tap-plugin.ts'

const TAP_PLUGIN = { path: path.join(import.meta.dirname, 'fixtures', 'template-tap-plugin.ts') }
const ids = (txs: readonly Transaction[]): string[] => txs.map((tx) => tx.transaction_id)

t.test('acceptTappedTransactions: reorder across senders and per-sender prefixes only', async (t) => {
  const params = testParams()
  const a = devWallet()
  const b = generateWallet()
  const [a0, a1, a2] = [0, 1, 2].map((n) => transfer(params, a, b.address, 1, n)) as [Transaction, Transaction, Transaction]
  const [b0, b1] = [0, 1].map((n) => transfer(params, b, a.address, 1, n)) as [Transaction, Transaction]
  const offered = [a0, b0, a1, b1, a2]
  const ok = (returned: unknown): string[] => {
    const r = acceptTappedTransactions(offered, returned)
    if (!r.ok) throw new Error(r.reason)
    return ids(r.transactions)
  }
  const refused = (returned: unknown, why: RegExp): void => {
    const r = acceptTappedTransactions(offered, returned)
    t.notOk(r.ok, `refused: ${String(why)}`)
    if (!r.ok) t.match(r.reason, why)
  }
  t.same(ok([b0, b1, a0, a1, a2]), ids([b0, b1, a0, a1, a2]), 'senders reordered')
  t.same(ok([a0, a1]), ids([a0, a1]), 'a sender dropped, another cut after a prefix')
  t.same(ok([]), [], 'everything dropped')
  const copy = { ...a0, amount: 1000 }
  const r = acceptTappedTransactions(offered, [copy])
  t.ok(r.ok && r.transactions[0] === a0, 'a changed copy is matched by id and the offered transaction is mined')
  refused([a1, a0], /nonce order of sender/)
  refused([a0, a2], /nonce order of sender/)
  refused([a0, a0], /twice/)
  refused([transfer(params, b, a.address, 1, 2)], /did not offer/)
  refused([null], /did not offer/)
  refused({ transactions: offered }, /list of transactions/)
  refused(undefined, /list of transactions/)
})

t.test('the real miner honours a reordering tap and refuses a broken one', async (t) => {
  const params = testParams()
  const node = await startTestNode({ plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner', TAP_PLUGIN], config: { miner: { threads: 1 } }, params, start: false })
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  const mempool = node.resolve('mempool')
  const dev = devWallet()
  const other = generateWallet()
  const minedWith = async (tx: Transaction): Promise<Block> => {
    await waitFor(`a mined block with ${tx.transaction_id.slice(0, 8)}`, () => templateTap.mined.some((b) => b.transactions.some((x) => x.transaction_id === tx.transaction_id)), 60_000)
    return templateTap.mined.find((b) => b.transactions.some((x) => x.transaction_id === tx.transaction_id)) as Block
  }

  const fund = transfer(params, dev, other.address, 50, 0)
  mempool.add(fund)
  await node.kernel.start()
  const first = await minedWith(fund)
  t.equal(chain.getBlockMeta(first.hash)?.status, 'main', 'blockMined names a block on the main chain')
  t.same(templateTap.offered.find((o) => o.context.height === first.height)?.context.previousHash, first.previous_hash, 'the tap saw the template\'s header as context')

  await t.test('moving the other sender first is mined as the tap ordered it', async (t) => {
    templateTap.transform = (txs) => [...txs.filter((tx) => tx.sender === other.address), ...txs.filter((tx) => tx.sender !== other.address)]
    const d1 = transfer(params, dev, other.address, 1, 1, { fee: 0.003 })
    const d2 = transfer(params, dev, other.address, 1, 2, { fee: 0.003 })
    const o0 = transfer(params, other, dev.address, 1, 0, { fee: 0.001 })
    for (const tx of [d1, d2, o0]) mempool.add(tx)
    const block = await minedWith(o0)
    t.same(ids(block.transactions.slice(1)), ids([o0, d1, d2]), 'coinbase, then the tap\'s order (the mempool offered the higher fees first)')
  })

  await t.test('a tap that breaks a sender\'s nonce order is ignored: the offer is mined', async (t) => {
    templateTap.transform = (txs) => [...txs].reverse()
    const d3 = transfer(params, dev, other.address, 1, 3)
    const d4 = transfer(params, dev, other.address, 1, 4)
    for (const tx of [d3, d4]) mempool.add(tx)
    const block = await minedWith(d4)
    t.same(ids(block.transactions.slice(1)), ids([d3, d4]))
    t.equal(chain.getBlockMeta(block.hash)?.status, 'main')
  })

  await t.test('a tap that edits a transaction in place changes neither the block nor the mempool', async (t) => {
    templateTap.transform = (txs) => { for (const tx of txs) tx.amount = 1_000_000; return txs }
    const d = transfer(params, dev, other.address, 1, 5)
    mempool.add(d)
    const block = await minedWith(d)
    t.equal(block.transactions.find((x) => x.transaction_id === d.transaction_id)?.amount, 1)
    t.equal(chain.getBlockMeta(block.hash)?.status, 'main')
    t.equal(d.amount, 1)
  })

  await t.test('a tap that returns a forged or foreign transaction is ignored', async (t) => {
    templateTap.transform = () => [transfer(params, other, dev.address, 1_000_000, 9)]
    const d5 = transfer(params, dev, other.address, 1, 6)
    mempool.add(d5)
    const block = await minedWith(d5)
    t.same(ids(block.transactions.slice(1)), ids([d5]))
  })

  await t.test('a tap that leaves a transaction out keeps it out until it lets it in', async (t) => {
    const d6 = transfer(params, dev, other.address, 1, 7)
    templateTap.transform = (txs) => txs.filter((tx) => tx.transaction_id !== d6.transaction_id)
    const from = templateTap.mined.length
    mempool.add(d6)
    await waitFor('a block mined from a template that offered d6', () => templateTap.mined.slice(from).some((b) =>
      templateTap.offered.filter((o) => o.context.height === b.height).at(-1)?.ids.includes(d6.transaction_id) === true), 60_000)
    t.notOk(templateTap.mined.some((b) => b.transactions.some((x) => x.transaction_id === d6.transaction_id)), 'not mined while the tap drops it')
    t.ok(mempool.has(d6.transaction_id), 'still pending')
    templateTap.transform = (txs) => txs
    await minedWith(d6)
  })
})
