// The real miner fills its template by bytes as well as by count (issue 12 item 1): with a
// backlog larger than one block, its first block is as full as maxBlockBytes allows and no
// fuller, and the rest follow in the next blocks.
import { waitFor } from '../../helpers/wait.ts'
import t from 'tap'
import { startTestNode } from '../../helpers/node.ts'
import { devWallet, generateWallet, testParams, transfer } from '../../helpers/chain.ts'
import { blockSize, inBlockBytes, txSize } from '../../../core/chain/block-size.ts'
import type { Block } from '../../../core/chain/types.ts'

const until = (what: string, check: () => boolean, ms = 60_000): Promise<void> => waitFor(what, check, ms)

t.test('the miner fills a block to the byte limit, then carries the rest', async (t) => {
  const params = testParams({ maxBlockBytes: 32 * 1024 })
  const node = await startTestNode({ plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner'], config: { miner: { threads: 1 } }, params, start: false })
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  const mempool = node.resolve('mempool')
  const dev = devWallet()
  const txs = Array.from({ length: 12 }, (_, n) => transfer(params, dev, generateWallet().address, 1, n, { data: { memo: 'w'.repeat(500) } }))
  for (const tx of txs) mempool.add(tx)
  const backlog = txs.reduce((sum, tx) => sum + inBlockBytes(txSize(tx)), 0)
  t.ok(backlog > params.maxBlockBytes, `the backlog (${backlog} bytes) needs more than one block`)

  await node.kernel.start()
  await until('every transaction mined', () => mempool.size === 0)
  const blocks: Block[] = []
  for (let h = 1; h <= chain.tip().height; h++) blocks.push(await chain.getBlockByHeight(h) as Block)
  const withTxs = blocks.filter((b) => b.transactions.length > 1)
  t.ok(withTxs.length >= 3, `${withTxs.length} blocks carry the backlog`)
  for (const b of withTxs) t.ok(blockSize(b) <= params.maxBlockBytes, `block ${b.height}: ${blockSize(b)} bytes, ${b.transactions.length - 1} transactions`)
  const first = withTxs[0] as Block
  const next = txs[first.transactions.length - 1]
  t.ok(next !== undefined && blockSize(first) + inBlockBytes(txSize(next)) > params.maxBlockBytes, 'the first block is full: the next transaction would not have fitted')
  t.equal(withTxs.reduce((n, b) => n + b.transactions.length - 1, 0), txs.length, 'each transaction mined once')
})
