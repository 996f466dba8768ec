// The faucet queue (issue 13 item 3): drips the faucet wallet cannot pay wait durably and
// are paid in order as it can; the user sees its place in line, the admin the queue and a
// "pay again" action; a drip whose transaction leaves the mempool unconfirmed is paid again.
import { waitFor } from '../../helpers/wait.ts'
import t from 'tap'
import { startChatNode, sessionCookie, useAdminEnv } from './fixtures/chat-node.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'

useAdminEnv()

const until = (what: string, check: () => boolean, ms = 10_000): Promise<void> => waitFor(what, check, ms)

t.test('unpaid drips wait in line, are paid in order, and survive a restart', async (t) => {
  const dataDir = tmpDir('ledger-faucet-queue-')
  t.teardown(() => cleanup(dataDir))
  let node = await startChatNode({ dataDir, keepData: true })
  const invite = (await node.admin('POST', '/api/admin/invites/create', {})).json().code as string
  const cookies: string[] = []
  const addresses: string[] = []
  for (const name of ['ann', 'bob', 'cy']) {
    const res = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name, invite_code: invite } })
    t.equal(res.json().faucet_tx, null, `${name}: the faucet cannot pay yet`)
    cookies.push(sessionCookie(res))
    addresses.push(res.json().address as string)
  }
  const me = async (i: number) => (await node.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookies[i] as string } })).json()
  t.match(await me(2), { name: 'cy', balance: 0, faucet: { status: 'waiting', position: 3, waiting: 3, tx_id: null, amount: 100 } }, 'cy is #3 in line')

  const queue = (await node.admin('GET', '/api/admin/faucet')).json()
  t.equal(queue.drip_amount, 100)
  t.match(queue.wallet, { address: node.resolve('wallets').nodeWallet().address })
  t.same(queue.drips.map((d: { name: string; position: number; status: string }) => [d.name, d.position, d.status]), [['ann', 1, 'waiting'], ['bob', 2, 'waiting'], ['cy', 3, 'waiting']])
  t.match(queue.drips[0].last_error, /balance/i, 'the reason is shown to the admin')

  // restart before anything is paid: the line is on disk
  await node.stop()
  node = await startChatNode({ dataDir, keepData: true })
  t.teardown(() => node.stop())
  const me2 = async (i: number) => (await node.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookies[i] as string } })).json()
  t.match(await me2(1), { faucet: { status: 'waiting', position: 2 } }, 'bob still #2 after a restart')

  // 150 coin: enough for ann's drip only (fees aside); bob and cy keep waiting, in order
  await node.fundFaucet(150)
  await until('ann to be paid', () => node.resolve('faucet').stateOf(addresses[0] as string)?.status === 'sent')
  t.match(await me2(1), { faucet: { status: 'waiting', position: 1 } }, 'bob moves up to #1')
  t.match(await me2(2), { faucet: { status: 'waiting', position: 2 } })
  await node.mine()
  await until('ann\'s drip to be confirmed and forgotten', () => node.resolve('faucet').stateOf(addresses[0] as string) === null)
  t.match(await me2(0), { balance: 100, faucet: null })

  await node.fundFaucet(1000)
  await until('bob and cy to be paid', () => node.resolve('faucet').list().every((d) => d.status === 'sent'))
  const sent = node.resolve('faucet').list()
  t.same(sent.map((d) => d.name), ['bob', 'cy'])
  await node.mine()
  await until('the queue to empty', () => node.resolve('faucet').list().length === 0)
  t.match(await me2(1), { balance: 100, faucet: null })
  t.match(await me2(2), { balance: 100, faucet: null })
  t.same((await node.admin('GET', '/api/admin/faucet')).json().drips, [])
})

t.test('approval queues the drip; "pay again" tries at once, never pays twice; errors are 4xx', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  for (const name of ['dee', 'eve']) {
    await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name } })
    const res = await node.admin('POST', '/api/admin/approve', { name })
    t.match(res.json(), { status: 'approved', faucet_tx: null })
  }
  const again = await node.admin('POST', '/api/admin/faucet/pay', { name: 'eve' })
  t.equal(again.statusCode, 200)
  t.match(again.json(), { status: 'waiting', name: 'eve', position: 2, tx_id: null, reason: /balance/i }, 'still unpaid: says why')

  // fund without a block being mined by the queue's trigger: the admin pays eve out of order
  const dev = (await import('../../helpers/chain.ts')).devWallet()
  const { transfer } = await import('../../helpers/chain.ts')
  const chain = node.resolve('chain')
  const mempool = node.resolve('mempool')
  const nodeAddr = node.resolve('wallets').nodeWallet().address
  mempool.add(transfer(node.kernel.params, dev, nodeAddr, 150, mempool.nextNonce(dev.address), { withKey: chain.getAccount(dev.address).publicKey === null }))
  await node.mine()
  // the block's own trigger pays dee (first in line); then eve is paid on request
  await until('dee to be paid by the queue', () => node.resolve('faucet').list().find((d) => d.name === 'dee')?.status === 'sent')
  const paid = await node.admin('POST', '/api/admin/faucet/pay', { name: 'eve' })
  t.match(paid.json(), { status: 'waiting', reason: /balance/i }, 'one drip\'s worth only: eve waits')

  await node.fundFaucet(1000)
  await until('eve to be paid by the queue', () => node.resolve('faucet').list().every((d) => d.status === 'sent'))
  const eveTx = node.resolve('faucet').list().find((d) => d.name === 'eve')?.tx_id
  const twice = (await node.admin('POST', '/api/admin/faucet/pay', { name: 'eve' })).json()
  t.match(twice, { status: 'sent', tx_id: eveTx }, 'a drip on its way is not paid a second time')
  await node.mine()
  await until('both drips confirmed', () => node.resolve('faucet').list().length === 0)
  const extra = (await node.admin('POST', '/api/admin/faucet/pay', { name: 'eve' })).json()
  t.match(extra, { status: 'sent', tx_id: /^[0-9a-f]{64}$/ }, 'with nothing outstanding, the admin can pay again')
  t.not(extra.tx_id, eveTx)

  const nobody = await node.admin('POST', '/api/admin/faucet/pay', { name: 'nobody' })
  t.equal(nobody.statusCode, 404)
  t.same(nobody.json(), { error: 'no approved user named nobody' }, 'the account error text, from the admin plugin too')
  t.equal((await node.admin('POST', '/api/admin/faucet/cancel', { name: 'eve' })).statusCode, 404, 'eve has no waiting drip to cancel')
  const unnamed = await node.admin('POST', '/api/admin/faucet/pay', {})
  t.equal(unnamed.statusCode, 400)
  t.same(unnamed.json(), { error: 'name is required' })
  t.equal((await node.app.inject({ method: 'GET', url: '/api/admin/faucet' })).statusCode, 401, 'admin only')
})

t.test('a drip whose transaction leaves the mempool unconfirmed (restart) is paid again', async (t) => {
  const dataDir = tmpDir('ledger-faucet-repay-')
  t.teardown(() => cleanup(dataDir))
  let node = await startChatNode({ dataDir, keepData: true })
  await node.fundFaucet(1000)
  await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'fay' } })
  const approved = (await node.admin('POST', '/api/admin/approve', { name: 'fay' })).json()
  t.match(approved.faucet_tx, /^[0-9a-f]{64}$/, 'paid at once when the wallet can')
  t.match(node.resolve('faucet').stateOf(approved.address), { status: 'sent', tx_id: approved.faucet_tx })
  // the mempool is not kept across a restart: the drip's transaction is gone with it
  await node.stop()
  node = await startChatNode({ dataDir, keepData: true })
  t.teardown(() => node.stop())
  t.equal(node.resolve('mempool').has(approved.faucet_tx), false, 'the transaction did not survive the restart')
  const faucet = node.resolve('faucet')
  await node.mine({ withMempool: false })
  await until('the drip to be paid again', () => { const s = faucet.stateOf(approved.address); return s?.status === 'sent' && s.tx_id !== approved.faucet_tx })
  await node.mine()
  await until('the drip to be confirmed', () => faucet.stateOf(approved.address) === null)
  t.equal(node.resolve('chain').getAccount(approved.address).balance, 100n * 10n ** 18n)
})

t.test('the admin cancels a waiting drip', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'gus' } })
  t.match((await node.admin('POST', '/api/admin/approve', { name: 'gus' })).json(), { faucet_tx: null })
  t.match(node.resolve('faucet').list(), [{ name: 'gus', status: 'waiting', position: 1 }])
  t.match((await node.admin('POST', '/api/admin/faucet/cancel', { name: 'gus' })).json(), { status: 'cancelled', name: 'gus', dropped: 1 })
  t.same(node.resolve('faucet').list(), [], 'out of the line')
  t.equal((await node.admin('POST', '/api/admin/faucet/cancel', { name: 'gus' })).statusCode, 404, 'nothing left to cancel')
  await node.fundFaucet(1000)
  t.same(node.resolve('faucet').list(), [], 'a cancelled drip is not paid later')
})
