// Issue 12 item 9: a page of an address's history costs what the page holds. The ordinal
// index makes any offset one range read of `limit` entries; an offset past the end, even
// 2^53 - 1, reads none. It is the only address index a block writes.
import t from 'tap'
import { openTestChain, mineBlock, transfer, devWallet, generateWallet, cleanup } from '../../helpers/chain.ts'
import type { KvRange } from '../../../core/kernel/kv.ts'

t.test('address history pages by ordinal', async (t) => {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const dev = devWallet()
  const bob = generateWallet()
  // 150 payments to bob over two blocks (at most 100 transactions a block)
  const sent: string[] = []
  for (const [from, to] of [[0, 100], [100, 150]]) {
    const txs = []
    for (let n = from as number; n < (to as number); n++) txs.push(transfer(tc.params, dev, bob.address, 1, n))
    await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs, miner: dev.address }), 'test')
    sent.push(...txs.map((x) => x.transaction_id))
  }
  const newestFirst = [...sent].reverse()

  // count what the store hands out
  let read = 0
  const entries = tc.db.entries.bind(tc.db)
  tc.db.entries = (range: KvRange) => {
    const inner = entries(range)
    return (async function * () { for await (const e of inner) { read++; yield e } })()
  }
  const page = async (offset: number, limit: number) => {
    read = 0
    const h = await tc.chain.addressHistory(bob.address, offset, limit)
    return { ...h, read }
  }

  t.same(await page(0, 25), { total: 150, txIds: newestFirst.slice(0, 25), read: 25 })
  t.same(await page(60, 10), { total: 150, txIds: newestFirst.slice(60, 70), read: 10 }, 'a middle page reads 10 entries, not 70')
  t.same(await page(149, 100), { total: 150, txIds: newestFirst.slice(149), read: 1 }, 'the last entry alone')
  t.same(await page(150, 100), { total: 150, txIds: [], read: 0 })
  t.same(await page(Number.MAX_SAFE_INTEGER, 100), { total: 150, txIds: [], read: 0 }, 'offset 2^53 - 1 reads nothing')

  const heightIndex: string[] = []
  for await (const k of tc.db.keys({ gte: 'ah:', lt: 'ah:\xff' })) heightIndex.push(k)
  t.same(heightIndex, [], 'no height-ordered address index (ah:) is written: the ordinal one serves every page')
})
