import t from 'tap'
import { encodeBlockBody, transactionAt } from '../../../core/chain/block-body.ts'
import { mineBlock, transfer, devWallet, generateWallet, testParams } from '../../helpers/chain.ts'
import type { Block } from '../../../core/chain/types.ts'

const params = testParams()
const dev = devWallet()
const to = generateWallet()
const genesisRef = { hash: '0'.repeat(128), height: 0, timestamp: Date.now() / 1000 - 10 }

t.test('the stored body parses back to the block, and every span holds its transaction', async (t) => {
  const txs = [
    transfer(params, dev, to.address, 1, 0),
    transfer(params, dev, to.address, 2, 1, { data: { memo: 'héllo — ünïcode ✓ "quoted" \\ back' } }),
    transfer(params, dev, to.address, 3, 2, { data: { memo: '\u2028 line separators \u0000 and nul' } })
  ]
  const block = mineBlock(params, genesisRef, { txs })
  const { body, spans } = encodeBlockBody(block)
  t.same(JSON.parse(body.toString('utf8')) as Block, block, 'the body is the block')
  t.equal(spans.length, block.transactions.length)
  block.transactions.forEach((tx, i) => { t.same(transactionAt(body, spans[i]), tx, `transaction ${i} by its span`) })
  t.equal(transactionAt(body, spans[spans.length]), undefined, 'no span, no transaction')
  t.equal(transactionAt(body, [0, body.length + 1]), undefined, 'a span past the end')
  t.equal(transactionAt(body, [1, 5]), undefined, 'a span that is not a transaction')
})

t.test('a body read from a Buffer slice of a larger allocation', async (t) => {
  const block = mineBlock(params, genesisRef, { txs: [transfer(params, dev, to.address, 1, 0)] })
  const { body, spans } = encodeBlockBody(block)
  const pool = Buffer.alloc(body.length + 100)
  body.copy(pool, 37)
  const view = pool.subarray(37, 37 + body.length)
  t.same(transactionAt(view, spans[1]), block.transactions[1])
})
