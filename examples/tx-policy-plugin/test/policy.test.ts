// The policy's rules, from this package alone.
import t from 'tap'
import type { Transaction } from 'ledger-node/plugin'
import { judge, txBytes } from '../policy.ts'

const tx = (over: Partial<Transaction> = {}): Transaction => ({
  transaction_id: 'ab'.repeat(32),
  sender: '11'.repeat(16),
  recipient: '22'.repeat(16),
  amount: 1,
  fee: 0.001,
  nonce: 0,
  timestamp: 1_700_000_000,
  data: {},
  signature: 'cd'.repeat(100),
  ...over
}) as Transaction

const open = { minFeePerByte: 0, memoPattern: null, blockedSenders: [] }

t.test('nothing set refuses nothing', async (t) => {
  t.equal(judge(tx(), open), undefined)
})

t.test('a blocked sender, a memo pattern, a fee per byte floor', async (t) => {
  t.same(judge(tx(), { ...open, blockedSenders: ['11'.repeat(16)] }), { code: 'POLICY_BLOCKED_SENDER', reason: `sender ${'11'.repeat(16)} is refused by this node's policy` })
  t.equal(judge(tx({ data: { memo: 'hello' } }), { ...open, memoPattern: 'casino' }), undefined)
  t.same(judge(tx({ data: { memo: 'win at the CASINO' } }), { ...open, memoPattern: 'CASINO' })?.code, 'POLICY_MEMO')
  const bytes = txBytes(tx())
  t.equal(judge(tx({ fee: bytes * 0.01 }), { ...open, minFeePerByte: 0.01 }), undefined, 'exactly at the floor passes')
  t.same(judge(tx({ fee: bytes * 0.005 }), { ...open, minFeePerByte: 0.01 })?.code, 'POLICY_FEE_PER_BYTE')
})
