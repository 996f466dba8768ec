// GET /api/account/{address} and chain_id in /api/chain: what a wallet needs to sign (issue 13).
import t from 'tap'
import { generateWallet } from '../../helpers/chain.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'
import { startDashboardNode } from './fixtures/dashboard-node.ts'

t.test('account: balance, spendable, nonces, key known; either address form; 400 for junk', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  t.equal((await node.call('GET', '/api/chain')).json().chain_id, node.kernel.params.chainId)
  const fresh = generateWallet().address
  t.same((await node.call('GET', `/api/account/${fresh}`)).json(), { address: fresh, balance: 0, spendable: 0, nonce: 0, next_nonce: 0, pending_count: 0, public_key_known: false })

  const dev = node.dev.address
  const before = (await node.call('GET', `/api/account/${dev}`)).json()
  const tx = node.send(node.dev, fresh, 10, { fee: 0.5 })
  t.equal((await node.call('POST', '/api/tx/submit', { body: tx })).statusCode, 200)
  const pending = (await node.call('GET', `/api/account/${dev.toUpperCase()}`)).json()
  t.match(pending, { address: dev, balance: before.balance, spendable: before.balance - 10.5, nonce: before.nonce, next_nonce: before.nonce + 1, pending_count: 1 })
  await node.mine()
  const after = (await node.call('GET', `/api/account/0x${vmAddressOf(dev)}`)).json()
  t.match(after, { address: dev, nonce: before.nonce + 1, next_nonce: before.nonce + 1, pending_count: 0, public_key_known: true }, 'the VM form of a known wallet works')

  for (const bad of ['xyz', 'ab'.repeat(20), '12'.repeat(40)]) {
    const res = await node.call('GET', `/api/account/${bad}`)
    t.equal(res.statusCode, 400, bad)
    t.match(res.json(), { error: /address/ })
  }
})
