import t from 'tap'
import { decodeBlock, decodeTx, encodeBlock, encodeBlockFromStored, encodeTx, txFormsOfDecodedBlock, BinaryJsonError, TX_FORMAT, BLOCK_FORMAT } from '../../../core/chain/tx-codec.ts'
import { blockBodyOps, blockTxKeys, headOfStored } from '../../../core/chain/block-body.ts'
import type { StoredBlockHead } from '../../../core/chain/block-body.ts'
import { canonicalJson } from '../../../core/chain/tx.ts'
import { chainKey } from '../../../core/chain/keys.ts'
import { mineBlock, transfer, devWallet, generateWallet, testParams } from '../../helpers/chain.ts'

const params = testParams()
const dev = devWallet()
const to = generateWallet()
const parent = { hash: '0'.repeat(128), height: 0, timestamp: Date.now() / 1000 - 10 }
const block = mineBlock(params, parent, { txs: [transfer(params, dev, to.address, 1, 0), transfer(params, dev, to.address, 2.5, 1, { data: { memo: 'hi ✓' } })] })

t.test('a transaction and a block round-trip through their binary forms', async (t) => {
  const tx = block.transactions[1]!
  const enc = encodeTx(tx)
  t.equal(enc[0], TX_FORMAT)
  t.same(decodeTx(enc), tx)
  t.ok(enc.length < Buffer.byteLength(canonicalJson(tx)) * 0.6, `binary ${enc.length} B vs JSON ${Buffer.byteLength(canonicalJson(tx))} B: hex travels as bytes`)
  const b = encodeBlock(block)
  t.equal(b[0], BLOCK_FORMAT)
  t.same(decodeBlock(b), block)
})

t.test('a block from its stored bytes is byte for byte encodeBlock of the block', async (t) => {
  const ops = blockBodyOps(block)
  const byKey = new Map(ops.map((op) => [op.key, op.value as Uint8Array]))
  const head = JSON.parse(Buffer.from(byKey.get(chainKey.block(block.hash))!).toString('utf8')) as StoredBlockHead
  const txs = blockTxKeys(block.hash, head).map((k) => byKey.get(k)!)
  t.same(encodeBlockFromStored(headOfStored(head), txs), encodeBlock(block))
})

t.test('a decoded block\'s transaction forms, cut from its bytes, are encodeTx of each transaction', async (t) => {
  const bytes = encodeBlock(block)
  const decoded = decodeBlock(bytes) as typeof block
  const forms = txFormsOfDecodedBlock(bytes)!
  t.equal(forms.length, block.transactions.length)
  t.same(forms, decoded.transactions.map(encodeTx), 'byte for byte, format byte included (the memo holds a multi-byte character)')
  t.same(forms.map((f) => decodeTx(f)), block.transactions)
  const before = forms.map((f) => Buffer.from(f))
  bytes.fill(0)
  t.same(forms, before, 'copies, not views: a form the store keeps does not hold the whole frame alive')
  const { transactions: _, ...noTxs } = block
  t.equal(txFormsOfDecodedBlock(encodeBlock(noTxs as typeof block)), undefined, 'no transactions array: no forms (checkBlockFormat refuses the block)')
})

t.test('new envelope keys survive the wire form', async (t) => {
  const qs = block.quantum_signature!
  const withV2 = { ...block, quantum_signature: { ...qs, qrng_attestation: { ...qs.qrng_attestation, version: 2, beacon: { round: 7, evidence: ['ab', 'cd'] } } } }
  t.same(decodeBlock(encodeBlock(withV2)), withV2)
})

t.test('the format byte is checked', async (t) => {
  t.throws(() => decodeTx(encodeBlock(block)), BinaryJsonError, 'a block is not a transaction')
  t.throws(() => decodeBlock(encodeTx(block.transactions[0]!)), BinaryJsonError, 'a transaction is not a block')
  t.throws(() => decodeBlock(new Uint8Array(0)), BinaryJsonError, 'empty')
  const trailing = Buffer.concat([encodeBlock(block), Buffer.from([0])])
  t.throws(() => decodeBlock(trailing), BinaryJsonError, 'trailing bytes')
  t.throws(() => encodeBlockFromStored(headOfStored({ ...block, tx_count: 1 }), [encodeBlock(block)]), BinaryJsonError, 'a stored value that is not a transaction')
})

t.test('a transaction without a binary form is malformed, for the mempool and in a block', async (t) => {
  const { checkTxFormat } = await import('../../../core/chain/tx-rules.ts')
  const { TxError } = await import('../../../core/chain/errors.ts')
  // RFC 8785 cannot sign it either, so it is built by hand: JSON.parse('"\\ud800"') makes one
  const lone = { ...block.transactions[1]!, data: { memo: JSON.parse('"a\\ud800b"') as string } }
  const err = (() => { try { checkTxFormat(params, lone) } catch (e) { return e } return undefined })()
  t.ok(err instanceof TxError, 'a TxError')
  t.match(err, { code: 'TX_ERROR_BAD_FORMAT', message: /binary form/ })
  const { merkleRoot } = await import('../../../core/chain/merkle.ts')
  t.throws(() => merkleRoot([lone]), BinaryJsonError, 'no merkle leaf either (validate.ts turns it into a BAD_FORMAT block)')
})
