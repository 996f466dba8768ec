// Transaction decoding (SPEC 2.4): the kind table and the extra fields of deploys and calls.
import t from 'tap'
import type { Transaction } from '../../../core/chain/types.ts'
import { callFields, codeSize, decodeTx, txKind } from '../../../core/views/tx-view.ts'
import { nameLookup } from '../../../core/views/names.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'

const A = '11'.repeat(16)
const B = '22'.repeat(16)
const FOUNDATION = '34378b1ba5be9d0999acd60be3a8a1f1'

function tx (over: Partial<Transaction>): Transaction {
  return { sender: A, recipient: B, amount: 1, timestamp: 100.5, transaction_id: 'f'.repeat(64), signature: 'aa', fee: 0.001, data: {}, nonce: 0, ...over }
}

t.test('kind table, first match wins', async (t) => {
  t.equal(txKind(tx({ sender: 'mining_reward' })), 'coinbase')
  t.equal(txKind(tx({ sender: 'genesis' })), 'genesis')
  t.equal(txKind(tx({ recipient: 'contract', data: { type: 'deploy', code: '6001' } })), 'deploy')
  t.equal(txKind(tx({ recipient: 'contract', data: { type: 'call', to: 'ab'.repeat(20) } })), 'call')
  t.equal(txKind(tx({ data: { memo: 'hi' } })), 'message')
  t.equal(txKind(tx({ data: { memo: '' } })), 'message', 'an empty memo is still a memo field')
  t.equal(txKind(tx({})), 'transfer')
  t.equal(txKind(tx({ recipient: 'contract', data: { memo: 'x' } })), 'message', 'contract recipient without a type falls through')
  t.equal(txKind(tx({ sender: 'mining_reward', data: { memo: 'x' } })), 'coinbase')
})

t.test('deploy adds code_size', async (t) => {
  const d = decodeTx(tx({ recipient: 'contract', data: { type: 'deploy', code: '0x' + 'ab'.repeat(37), calldata: '', gas_limit: 1000 } }), () => null)
  t.equal(d.kind, 'deploy')
  t.equal(d.code_size, 37)
  t.notOk('to' in d || 'selector' in d)
  t.equal(codeSize(tx({ data: {} })), 0)
})

t.test('call adds to (0x), selector and arg_count', async (t) => {
  const to = 'AB'.repeat(20)
  const d = decodeTx(tx({ recipient: 'contract', data: { type: 'call', to, calldata: '03' + '00'.repeat(64), gas_limit: 1000 } }), () => null)
  t.equal(d.kind, 'call')
  t.equal(d.to, `0x${to.toLowerCase()}`)
  t.equal(d.selector, 3)
  t.equal(d.arg_count, 2)
  t.notOk('code_size' in d)
  t.same(callFields(tx({ data: { type: 'call', to: `0x${'cd'.repeat(20)}`, calldata: '0x7f' } })), { to: `0x${'cd'.repeat(20)}`, selector: 0x7f, arg_count: 0 })
  t.same(callFields(tx({ data: { type: 'call' } })), { to: null, selector: null, arg_count: 0 }, 'no calldata: no selector')
})

t.test('names: directory for users, "foundation" always, null for special senders', async (t) => {
  const nameOf = nameLookup(() => ({ nameOf: (a: string) => (a === A ? 'alice' : null) }), FOUNDATION)
  const d = decodeTx(tx({ recipient: FOUNDATION }), nameOf)
  t.equal(d.sender_name, 'alice')
  t.equal(d.recipient_name, 'foundation')
  t.equal(nameOf(vmAddressOf(FOUNDATION).toUpperCase()), 'foundation', 'either form, any case')
  t.equal(nameOf('mining_reward'), null)
  t.equal(nameOf('contract'), null)
  const bare = nameLookup(() => undefined, FOUNDATION)
  t.equal(bare(A), null, 'no directory: nobody else is named')
  t.equal(bare(FOUNDATION), 'foundation')
  const msg = decodeTx(tx({ data: { memo: 'hello' } }), bare)
  t.same(msg, { tx_id: 'f'.repeat(64), sender: A, sender_name: null, recipient: B, recipient_name: null, amount: 1, fee: 0.001, timestamp: 100.5, kind: 'message', memo: 'hello' })
})
