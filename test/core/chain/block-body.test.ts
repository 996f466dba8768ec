import t from 'tap'
import { blockBodyOps, blockTxKeys, assembleStoredBlock } from '../../../core/chain/block-body.ts'
import type { StoredBlockHead } from '../../../core/chain/block-body.ts'
import { chainKey } from '../../../core/chain/keys.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { txLeaf } from '../../../core/chain/merkle.ts'
import { sha3_512 } from '../../../core/crypto/sha3.ts'
import { mineBlock, transfer, devWallet, generateWallet, testParams } from '../../helpers/chain.ts'

const params = testParams()
const dev = devWallet()
const to = generateWallet()
const parent = { hash: '0'.repeat(128), height: 0, timestamp: Date.now() / 1000 - 10 }

t.test('a block is stored as its head plus one value per transaction, and assembles back', async (t) => {
  const txs = [
    transfer(params, dev, to.address, 1, 0),
    transfer(params, dev, to.address, 2, 1, { data: { memo: 'héllo — ünïcode ✓ "quoted" \\ back \u2028' } })
  ]
  const block = mineBlock(params, parent, { txs })
  const ops = blockBodyOps(block)
  const byKey = new Map(ops.map((op) => [op.key, op.value as Uint8Array]))
  t.equal(ops.length, 1 + block.transactions.length, 'head + one per transaction')
  const head = JSON.parse(Buffer.from(byKey.get(chainKey.block(block.hash))!).toString('utf8')) as StoredBlockHead
  t.equal(head.tx_count, block.transactions.length)
  t.notOk('transactions' in head, 'the head holds no transactions')
  block.transactions.forEach((tx, i) => {
    const stored = byKey.get(chainKey.blockTx(block.hash, i))!
    t.same(Buffer.from(stored), encodeTx(tx), `transaction ${i} is stored in its binary form`)
    t.same(sha3_512(stored), txLeaf(tx), `transaction ${i}: its merkle leaf hashes the stored bytes`)
  })
  const keys = blockTxKeys(block.hash, head)
  t.same(keys, block.transactions.map((_, i) => chainKey.blockTx(block.hash, i)))
  t.same(assembleStoredBlock(head, keys.map((k) => { const v = byKey.get(k); return v === undefined ? undefined : Buffer.from(v) })), block, 'the same block back')
  t.equal(assembleStoredBlock(head, [undefined, ...keys.slice(1).map((k) => Buffer.from(byKey.get(k)!))]), undefined, 'a missing transaction: no block')
  t.ok(chainKey.blockTx(block.hash, 2) < chainKey.blockTx(block.hash, 10), 'transaction keys sort in block order')
})
