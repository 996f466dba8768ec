// blockSize and txSize measure the binary form peers exchange and nodes store; a block's size
// is its overhead plus inBlockBytes of each transaction, which is how templates are filled.
import t from 'tap'
import fc from 'fast-check'
import { blockSize, blockSizeOfEncoded, inBlockBytes, txSize } from '../../../core/chain/block-size.ts'
import { encodeBlock, encodeTx } from '../../../core/chain/tx-codec.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'
import { mineBlock, testParams, transfer, devWallet, generateWallet } from '../../helpers/chain.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'

t.test('a block and its transactions: the wire form, and the sum of its parts', async (t) => {
  const p = testParams()
  const g = genesisBlock(p)
  const txs = [0, 1, 2].map((n) => transfer(p, devWallet(), generateWallet().address, 1.25, n, { data: { memo: `ünïcødé ✓ "quoted" \\ ${n}` } }))
  const block = mineBlock(p, { hash: g.hash, height: 0, timestamp: g.timestamp }, { txs })
  t.equal(blockSize(block), encodeBlock(block).length)
  for (const tx of block.transactions) t.equal(txSize(tx), encodeTx(tx).length)
  const empty = blockSize({ ...block, transactions: [] })
  t.equal(blockSize(block), empty + block.transactions.reduce((n, tx) => n + inBlockBytes(txSize(tx)), 0))
  t.equal(blockSize(g), encodeBlock(g).length, 'genesis (no envelope)')
})

t.test('any JSON data: a block is its overhead plus inBlockBytes of each transaction', async (t) => {
  fc.assert(fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 20 }), (values) => {
    const txs = JSON.parse(JSON.stringify(values.map((v, i) => ({ nonce: i, data: { memo: v } })))) as Transaction[]
    const block = { height: 1, transactions: txs } as unknown as Block
    const parts = blockSize({ ...block, transactions: [] }) + txs.reduce((n, tx) => n + inBlockBytes(txSize(tx)), 0)
    return blockSize(block) === parts
  }), { seed: 20261123, numRuns: 500 })
  t.pass('exact on 500 seeded blocks')
})

t.test('blockSizeOfEncoded counts what encodeBlock would make, across the list count\'s byte boundary', async (t) => {
  for (const count of [0, 1, 127, 128, 300]) {
    const txs = Array.from({ length: count }, (_, i) => ({ nonce: i, data: { memo: 'x'.repeat(i % 7) }, signature: 'ab'.repeat(i % 5) })) as unknown as Transaction[]
    const block = { height: 1, hash: 'cd'.repeat(64), transactions: txs } as unknown as Block
    t.equal(blockSizeOfEncoded(block, txs.map(encodeTx)), encodeBlock(block).length, `${count} transactions`)
  }
})
