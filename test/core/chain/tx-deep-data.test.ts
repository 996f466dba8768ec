// Issue 31, "200,000-deep data → 500": the size check serialised `data` before anything looked
// at its shape, so a deep value overflowed the stack (a RangeError, HTTP 500, and from a peer
// a non-domain exception). Now it is a malformed transaction like any other.
import t from 'tap'
import { checkTxFormat } from '../../../core/chain/tx-rules.ts'
import { TxError, TxErrorCode } from '../../../core/chain/errors.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import { devWallet, testParams, transfer } from '../../helpers/chain.ts'

t.test('a 200,000-deep value under a data key is TX_ERROR_BAD_FORMAT, not a RangeError', async (t) => {
  const params = testParams()
  const tx = transfer(params, devWallet(), devWallet().address, 1, 0)
  const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)) as unknown
  const bad = { ...tx, data: { ...tx.data, memo: deep } } as unknown as Transaction
  const err = t.throws(() => checkTxFormat(params, bad)) as unknown
  t.type(err, TxError)
  t.match(err, { code: TxErrorCode.BAD_FORMAT, message: 'data nests too deep' })
  const unknownKey = { ...tx, data: { ...tx.data, padding: deep } } as unknown as Transaction
  t.throws(() => checkTxFormat(params, unknownKey), { code: TxErrorCode.BAD_FORMAT, message: /unknown key "padding"/ }, 'an unknown key is refused before anything serialises it')
})
