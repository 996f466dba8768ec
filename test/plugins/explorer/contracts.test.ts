// Contract transactions as the explorer serves them once a real block executed them: receipts
// by transaction and by block (SPEC 2.5, 4.2), the deploy and call kinds with their extra
// fields in block detail and transaction lookup (SPEC 2.4), and the contract's address page.
import t from 'tap'
import { startExplorerNode } from './fixtures/explorer-node.ts'
import { RECEIPT, DECODED_TX, checkShape } from './fixtures/shape.ts'
import { compiled, deployTx, callTx, word } from '../../helpers/contracts.ts'
import { getExample } from '../../../core/contracts/index.ts'
import { contractAddress } from '../../../core/vm/index.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'

const counter = compiled(getExample('counter')?.source ?? '')

t.test('deploy and call receipts, kinds and fields, through mined blocks', async (t) => {
  const node = await startExplorerNode()
  t.teardown(() => node.stop())
  const mempool = node.resolve('mempool')
  const devVm = vmAddressOf(node.dev.address)
  const at = contractAddress(devVm, 0n)
  const topic = counter.abi.events.find((e) => e.name === 'Incremented')?.topic

  const deploy = deployTx(node.params, node.dev, 0, counter.bytecode_hex)
  mempool.add(deploy)
  t.equal((await node.get(`/api/explorer/tx/${deploy.transaction_id}`)).json().status, 'pending')
  t.equal((await node.get(`/api/receipt/${deploy.transaction_id}`)).statusCode, 404, 'no receipt while pending')
  await node.mine()

  const inc = callTx(node.params, node.dev, 1, at, counter.calldata('increment', 3), { value: 0.5, withKey: false })
  const reset = callTx(node.params, node.dev, 2, `0x${at}`, counter.calldata('reset'), { withKey: false, gasLimit: 50_000 })
  const zero = callTx(node.params, node.dev, 3, at, counter.calldata('increment', 0), { withKey: false })
  for (const tx of [inc, reset, zero]) mempool.add(tx)
  const b2 = await node.mine()
  t.equal(b2.transactions.length, 4)

  t.test('GET /api/receipt/{tx_id}', async (t) => {
    const d = await node.get(`/api/receipt/${deploy.transaction_id}`)
    t.equal(d.statusCode, 200)
    checkShape(t, d.json(), { ...RECEIPT, contract: 'string', tx_id: 'string', block_height: 'int' }, 'deploy receipt')
    t.match(d.json(), { tx_id: deploy.transaction_id, block_height: 1, type: 'deploy', contract: at, success: true, logs: [], error: null })
    t.notOk('to' in d.json() || 'return_data' in d.json(), 'a deploy receipt has no to and no return_data')

    const c = await node.get(`/api/receipt/${inc.transaction_id.toUpperCase()}`)
    checkShape(t, c.json(), { ...RECEIPT, to: 'string', return_data: 'string' }, 'call receipt')
    t.same(c.json(), {
      tx_id: inc.transaction_id,
      block_height: 2,
      type: 'call',
      to: at,
      success: true,
      gas_used: c.json().gas_used,
      return_data: word(3),
      logs: [{ address: at, topics: [topic, word(3)], data: word(3) }],
      error: null,
      revert_reason: null
    })
    t.match((await node.get(`/api/receipt/${reset.transaction_id}`)).json(), { type: 'call', success: true, return_data: '' }, 'reset() returns nothing: empty return_data')
    t.match((await node.get(`/api/receipt/${zero.transaction_id}`)).json(), { success: false, error: 'REVERT', revert_reason: 'increment must be positive', return_data: '', logs: [] })
  })

  t.test('GET /api/receipts/block/{idx}', async (t) => {
    const list = (await node.get('/api/receipts/block/2')).json()
    t.same(list.map((r: { tx_id: string }) => r.tx_id), [inc, reset, zero].map((x) => x.transaction_id), 'the block\'s receipts in block order')
    t.same((await node.get('/api/receipts/block/1')).json().map((r: { type: string }) => r.type), ['deploy'])
    t.same((await node.get('/api/receipts/block/0')).json(), [])
  })

  t.test('block detail: kind deploy with code_size, kind call with to, selector, arg_count', async (t) => {
    const b1 = (await node.get('/api/explorer/block/1')).json()
    const d = b1.transactions[1]
    checkShape(t, d, { ...DECODED_TX, code_size: 'int' }, 'deploy')
    t.match(d, { tx_id: deploy.transaction_id, kind: 'deploy', recipient: 'contract', code_size: counter.bytecode_size })
    const calls = (await node.get('/api/explorer/block/2')).json().transactions.slice(1)
    for (const c of calls) checkShape(t, c, { ...DECODED_TX, to: 'string', selector: 'int', arg_count: 'int' }, 'call')
    const incSelector = counter.abi.methods.find((m) => m.name === 'increment')?.selector
    const resetSelector = counter.abi.methods.find((m) => m.name === 'reset')?.selector
    t.match(calls[0], { kind: 'call', to: `0x${at}`, selector: incSelector, arg_count: 1, amount: 0.5 })
    t.match(calls[1], { kind: 'call', to: `0x${at}`, selector: resetSelector, arg_count: 0 })
  })

  t.test('transaction lookup carries the receipt summary', async (t) => {
    const d = (await node.get(`/api/explorer/tx/${deploy.transaction_id}`)).json()
    t.match(d, { kind: 'deploy', status: 'confirmed', block_height: 1, confirmations: 2 })
    t.same(d.receipt, { type: 'deploy', success: true, gas_used: d.receipt.gas_used, contract_address: `0x${at}`, return_data: null, revert_reason: null })
    const c = (await node.get(`/api/explorer/tx/${inc.transaction_id}`)).json()
    t.match(c, { kind: 'call', to: `0x${at}`, selector: 1, arg_count: 1 })
    t.match(c.receipt, { type: 'call', success: true, contract_address: null, return_data: word(3), revert_reason: null })
    t.match((await node.get(`/api/explorer/tx/${zero.transaction_id}`)).json().receipt, { success: false, revert_reason: 'increment must be positive' })
  })

  t.test('the contract\'s address page: its balance and the transactions that touched it', async (t) => {
    const a = (await node.get(`/api/explorer/address/0x${at.toUpperCase()}`)).json()
    t.match(a, { address: at, wallet_address: null, balance: 0.5, tx_count: 4 })
    t.same(a.transactions.map((x: { tx_id: string }) => x.tx_id), [zero, reset, inc, deploy].map((x) => x.transaction_id))
    t.same(a.transactions.map((x: { kind: string }) => x.kind), ['call', 'call', 'call', 'deploy'])
  })
})
