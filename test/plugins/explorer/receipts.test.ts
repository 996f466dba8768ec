// Receipt endpoints (SPEC 2.5, 4.2) over receipts written straight into the keys the chain
// uses (core/chain/keys.ts: rc:<txid>, rb:<height>:<idx>), so every shape (a failed call with
// logs, a missing field) can be set up exactly; contracts.test.ts covers receipts that real
// blocks produced.
import t from 'tap'
import { chainKey } from '../../../core/chain/keys.ts'
import { jsonValue } from '../../../core/kernel/kv.ts'
import type { StoredReceipt } from '../../../core/chain/chain-service.ts'
import { startExplorerNode } from './fixtures/explorer-node.ts'
import { RECEIPT, checkShape } from './fixtures/shape.ts'

const DEPLOY_ID = 'd'.repeat(64)
const CALL_ID = 'c'.repeat(64)
const CONTRACT = '1f'.repeat(20)

const deploy: StoredReceipt = { tx_id: DEPLOY_ID, block_height: 1, type: 'deploy', contract: CONTRACT, success: true, gas_used: 53_210, logs: [], error: null }
const call: StoredReceipt = {
  tx_id: CALL_ID,
  block_height: 1,
  type: 'call',
  to: CONTRACT,
  success: false,
  gas_used: 1_000_000,
  return_data: '',
  logs: [{ address: CONTRACT, topics: ['ab'.repeat(32)], data: '00'.repeat(32) }],
  error: 'out of gas'
}

t.test('receipts by transaction and by block', async (t) => {
  const node = await startExplorerNode()
  t.teardown(() => node.stop())
  await node.mine([])
  await node.resolve('chainDb').write([
    { type: 'put', key: chainKey.receipt(DEPLOY_ID), value: jsonValue(deploy) },
    { type: 'put', key: chainKey.receipt(CALL_ID), value: jsonValue(call) },
    { type: 'put', key: chainKey.blockReceipt(1, 1), value: Buffer.from(DEPLOY_ID) },
    { type: 'put', key: chainKey.blockReceipt(1, 2), value: Buffer.from(CALL_ID) }
  ])

  const d = await node.get(`/api/receipt/${DEPLOY_ID}`)
  t.equal(d.statusCode, 200)
  checkShape(t, d.json(), { ...RECEIPT, contract: 'string' }, 'deploy receipt')
  t.same(d.json(), { tx_id: DEPLOY_ID, block_height: 1, type: 'deploy', contract: CONTRACT, success: true, gas_used: 53_210, logs: [], error: null })
  t.notOk('to' in d.json() || 'return_data' in d.json(), 'deploy receipts carry neither to nor return_data')

  const c = await node.get(`/api/receipt/0x${CALL_ID.toUpperCase()}`)
  t.equal(c.statusCode, 200)
  checkShape(t, c.json(), { ...RECEIPT, to: 'string', return_data: 'string' }, 'call receipt')
  t.match(c.json(), { type: 'call', to: CONTRACT, success: false, return_data: '', error: 'out of gas' })
  t.notOk('contract' in c.json())
  t.same(c.json().logs, call.logs, 'logs in emission order with address, topics, data')

  const list = await node.get('/api/receipts/block/1')
  t.equal(list.statusCode, 200)
  t.same(list.json().map((r: { tx_id: string }) => r.tx_id), [DEPLOY_ID, CALL_ID], 'block order')

  t.same((await node.get('/api/receipts/block/0')).json(), [], 'a block without contract transactions has none')
})

t.test('receipt errors', async (t) => {
  const node = await startExplorerNode()
  t.teardown(() => node.stop())
  const transfer = node.send(node.dev, '12'.repeat(16), 1)
  await node.mine([transfer])

  const none = await node.get(`/api/receipt/${transfer.transaction_id}`)
  t.equal(none.statusCode, 404, 'transfers produce no receipts')
  t.same(none.json(), { error: 'receipt not found' })
  t.equal((await node.get(`/api/receipt/${'e'.repeat(64)}`)).statusCode, 404)
  t.equal((await node.get('/api/receipt/not-an-id')).statusCode, 404)

  t.equal((await node.get('/api/receipts/block/9')).statusCode, 404)
  t.same((await node.get('/api/receipts/block/9')).json(), { error: 'no such block' })
  t.equal((await node.get('/api/receipts/block/abc')).statusCode, 400)
  t.same((await node.get('/api/receipts/block/abc')).json(), { error: 'height must be integer' })
})
