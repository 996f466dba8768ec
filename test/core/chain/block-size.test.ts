// blockSize and txSize are the length of the canonical (RFC 8785) JSON, computed the fast way:
// held to canonicalJson on valid objects and on seeded random JSON of every shape.
import t from 'tap'
import fc from 'fast-check'
import { blockSize, txSize } from '../../../core/chain/block-size.ts'
import { canonicalJson } from '../../../core/chain/tx.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'
import { mineBlock, testParams, transfer, devWallet, generateWallet } from '../../helpers/chain.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'

const canonicalBytes = (v: unknown): number => Buffer.byteLength(canonicalJson(v))

t.test('a block and its transactions', async (t) => {
  const p = testParams()
  const g = genesisBlock(p)
  const txs = [transfer(p, devWallet(), generateWallet().address, 1.25, 0, { data: { memo: 'ünïcødé ✓ "quoted" \\ \n' } })]
  const block = mineBlock(p, { hash: g.hash, height: 0, timestamp: g.timestamp }, { txs })
  t.equal(blockSize(block), canonicalBytes(block))
  t.equal(blockSize(g), canonicalBytes(g), 'genesis (no envelope)')
  for (const tx of block.transactions) t.equal(txSize(tx), canonicalBytes(tx))
})

t.test('any JSON value: the same length as its canonical form', async (t) => {
  fc.assert(fc.property(fc.jsonValue(), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), (value, list) => {
    // JSON-decoded, as everything measured is (fast-check's -0 becomes 0 on the wire)
    const tx = JSON.parse(JSON.stringify({ data: value })) as Transaction
    if (txSize(tx) !== canonicalBytes(tx)) return false
    const block = JSON.parse(JSON.stringify({ height: 1, quantum_signature: value, transactions: list })) as Block
    return blockSize(block) === canonicalBytes(block)
  }), { seed: 20261123, numRuns: 1000 })
  t.pass('equal on 1000 seeded values')
})
