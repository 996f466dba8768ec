// Transaction lookup (SPEC 2.4) over stub services: index first, then mempool; the receipt
// summary of contract transactions; never a chain walk.
import t from 'tap'
import type { Transaction } from '../../../core/chain/types.ts'
import type { ChainService, ConfirmedTx, StoredReceipt } from '../../../core/chain/chain-service.ts'
import type { MempoolService } from '../../../core/chain/mempool-service.ts'
import type { ViewContext } from '../../../core/views/context.ts'
import { lookupTx } from '../../../core/views/tx-lookup.ts'
import { receiptSummary } from '../../../core/views/receipt-view.ts'
import { testParams } from '../../helpers/chain.ts'

const CALL_ID = 'c'.repeat(64)
const DEPLOY_ID = 'd'.repeat(64)
const PENDING_ID = 'e'.repeat(64)
const CONTRACT = 'ab'.repeat(20)

function tx (id: string, data: Transaction['data']): Transaction {
  return { sender: '11'.repeat(16), recipient: 'contract', amount: 0, timestamp: 50, transaction_id: id, signature: 'aa', fee: 0.01, data, nonce: 1 }
}

const confirmed: Record<string, ConfirmedTx> = {
  [CALL_ID]: { tx: tx(CALL_ID, { type: 'call', to: CONTRACT, calldata: '01' + '00'.repeat(32), gas_limit: 100 }), location: { hash: 'h7', height: 7, index: 1 }, blockHash: 'h7' },
  [DEPLOY_ID]: { tx: tx(DEPLOY_ID, { type: 'deploy', code: '600160', gas_limit: 100 }), location: { hash: 'h3', height: 3, index: 2 }, blockHash: 'h3' }
}
const receipts: Record<string, StoredReceipt> = {
  [CALL_ID]: { tx_id: CALL_ID, block_height: 7, type: 'call', to: CONTRACT, success: true, gas_used: 2100, return_data: '00'.repeat(31) + '2a', logs: [], error: null },
  [DEPLOY_ID]: { tx_id: DEPLOY_ID, block_height: 3, type: 'deploy', contract: CONTRACT, success: false, gas_used: 100, logs: [], error: 'REVERT', revert_reason: 'nope' }
}

function context (calls: string[]): ViewContext {
  const chain = {
    tip: () => ({ height: 10 }),
    getTransaction: async (id: string) => { calls.push(`tx:${id}`); return confirmed[id] },
    getReceipt: async (id: string) => { calls.push(`rc:${id}`); return receipts[id] },
    getBlockByHeight: async () => { throw new Error('no chain walk') }
  } as unknown as ChainService
  const mempool = { get: (id: string) => (id === PENDING_ID ? tx(PENDING_ID, { type: 'call', to: CONTRACT, calldata: '02', gas_limit: 5 }) : undefined) } as unknown as MempoolService
  return { chain, mempool, params: testParams(), nameOf: () => null }
}

t.test('confirmed call with its receipt summary', async (t) => {
  const calls: string[] = []
  const v = await lookupTx(context(calls), CALL_ID)
  t.match(v, { status: 'confirmed', block_height: 7, block_hash: 'h7', confirmations: 4, kind: 'call', to: `0x${CONTRACT}`, selector: 1, arg_count: 1 })
  t.same(v?.receipt, { type: 'call', success: true, gas_used: 2100, contract_address: null, return_data: '00'.repeat(31) + '2a', revert_reason: null })
  t.same(calls, [`tx:${CALL_ID}`, `rc:${CALL_ID}`], 'index lookups only')
})

t.test('failed deploy: 0x contract address, the revert reason', async (t) => {
  const v = await lookupTx(context([]), DEPLOY_ID.toUpperCase())
  t.equal(v?.code_size, 3)
  t.same(v?.receipt, { type: 'deploy', success: false, gas_used: 100, contract_address: `0x${CONTRACT}`, return_data: null, revert_reason: 'nope' })
  t.equal(receiptSummary({ ...receipts[DEPLOY_ID] as StoredReceipt, revert_reason: undefined }).revert_reason, 'REVERT', 'the VM error when the contract gave no reason')
})

t.test('pending: from the mempool, no block fields, no receipt; raw form adds data', async (t) => {
  const v = await lookupTx(context([]), PENDING_ID, { raw: true })
  t.match(v, { status: 'pending', confirmations: 0, kind: 'call', data: { type: 'call', calldata: '02' }, nonce: 1, signature: 'aa' })
  t.notOk(v !== undefined && ('block_height' in v || 'receipt' in v))
  t.equal(await lookupTx(context([]), 'f'.repeat(64)), undefined)
  const calls: string[] = []
  t.equal(await lookupTx(context(calls), 'nope'), undefined)
  t.same(calls, [], 'a malformed id is not looked up')
})
