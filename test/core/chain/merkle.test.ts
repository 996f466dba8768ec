import t from 'tap'
import crypto from 'node:crypto'
import { merkleRoot, txLeaf } from '../../../core/chain/merkle.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { systemTransaction } from '../../../core/chain/tx.ts'
import type { Transaction } from '../../../core/chain/types.ts'

const sha512 = (...parts: Uint8Array[]): Buffer => crypto.createHash('sha3-512').update(Buffer.concat(parts)).digest()

function tx (i: number): Transaction {
  return systemTransaction('test-chain', { sender: 'genesis', recipient: String(i).padStart(32, '0'), amount: i, fee: 0, timestamp: 1000 + i, nonce: i, data: {} })
}

const leaf = (x: Transaction): Buffer => sha512(encodeTx(x))

t.test('leaves are SHA3-512 of the binary transaction, signature included', async (t) => {
  const a = tx(1)
  t.same(Buffer.from(txLeaf(a)), leaf(a))
  t.equal(encodeTx(a)[0], 0x01, 'the transaction format byte comes first')
  t.not(merkleRoot([a]), merkleRoot([{ ...a, data: { memo: 'x' } }]), 'different data changes the root')
  t.not(merkleRoot([a]), merkleRoot([{ ...a, signature: 'ab' }]), 'a different signature changes the root')
})

t.test('roots for 0, 1, 2, 3 and 5 transactions', async (t) => {
  const [a, b, c, d, e] = [tx(1), tx(2), tx(3), tx(4), tx(5)]
  t.equal(merkleRoot([]), sha512(new Uint8Array(0)).toString('hex'), 'empty: SHA3-512 of nothing')
  t.equal(merkleRoot([a]), leaf(a).toString('hex'), 'one: the leaf itself')
  t.equal(merkleRoot([a, b]), sha512(leaf(a), leaf(b)).toString('hex'), 'two: hash of the raw digests')
  const ab = sha512(leaf(a), leaf(b))
  const cc = sha512(leaf(c), leaf(c))
  t.equal(merkleRoot([a, b, c]), sha512(ab, cc).toString('hex'), 'three: the odd last leaf is paired with itself')
  const cd = sha512(leaf(c), leaf(d))
  const ee = sha512(leaf(e), leaf(e))
  const eeee = sha512(ee, ee)
  t.equal(merkleRoot([a, b, c, d, e]), sha512(sha512(ab, cd), eeee).toString('hex'), 'five: duplication at every odd level')
})

t.test('order matters', async (t) => {
  const [a, b, c] = [tx(1), tx(2), tx(3)]
  t.not(merkleRoot([a, b]), merkleRoot([b, a]))
  t.not(merkleRoot([a, b, c]), merkleRoot([a, c, b]))
})
