// Playground transactions on the event stream (SPEC 6): once mined, a deploy and a call each
// produce a tx event and a receipt event, filtered by the contract's address.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import { startPlaygroundNode } from './fixtures/playground-node.ts'
import { openSse, payloads } from '../stream/fixtures/sse-client.ts'
import { getExample } from '../../../core/contracts/index.ts'
import { contractAddress } from '../../../core/vm/index.ts'

t.test('receipts of playground transactions reach the event stream', async (t) => {
  const node = await startPlaygroundNode()
  t.teardown(() => node.stop())
  await node.fundFaucet()
  const alice = await node.join('alice')
  await node.mine()
  const at = contractAddress(alice.vm_address, 0n)
  const port = (node.app.server.address() as AddressInfo).port
  const sse = await openSse(port, { cookie: alice.cookie, query: `?types=tx,receipt&address=0x${at.toUpperCase()}` })
  t.teardown(() => sse.close())
  t.equal(sse.status, 200)

  const counter = await node.deploy(alice, getExample('counter')?.source ?? '')
  t.equal(counter.address, `0x${at}`)
  const inc = await node.call(alice, counter, 'increment', [4])
  await sse.waitFor('two tx and two receipt events', () => sse.frames.length >= 4)
  const txs = payloads(sse, 'tx')
  t.match(txs, [{ tx_id: counter.txId, kind: 'deploy' }, { tx_id: inc.tx_id, kind: 'call', to: counter.address, selector: 1, arg_count: 1 }])
  const receipts = payloads(sse, 'receipt')
  t.match(receipts, [
    { tx_id: counter.txId, type: 'deploy', contract: at, success: true, error: null },
    { tx_id: inc.tx_id, type: 'call', to: at, success: true, return_data: (4).toString(16).padStart(64, '0'), error: null }
  ])
  t.equal((receipts[1]?.logs as unknown[]).length, 1, 'the Incremented log rides along')
})
