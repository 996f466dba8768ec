// Faucet failure (SPEC 3: approval succeeds, faucet_tx null, reason logged), the custodial
// signing helper, the `names` service and the per-address rate limit.
import t from 'tap'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { startChatNode } from './fixtures/chat-node.ts'
import { createFaucet } from '../../../plugins/messenger/faucet.ts'
import { submitFromWallet } from '../../../core/chain/custodial-tx.ts'
import { generateWallet } from '../../../core/chain/wallet.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'
import { AddressRateLimit } from '../../../plugins/messenger/rate-limit.ts'

function captureLogger (): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({ write (chunk: Buffer, _enc, cb) { lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>); cb() } })
  return { logger: pino({ level: 'info' }, sink), lines }
}

t.test('faucet failure: approval succeeds, faucet_tx null, the user holds 0, the reason is logged', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'zoe' } })
  const res = await node.admin('POST', '/api/admin/approve', { name: 'zoe' })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { status: 'approved', name: 'zoe', faucet_tx: null })
  t.equal(chain.getAccount(res.json().address).balance, 0n)
  t.equal(node.resolve('mempool').size, 0, 'nothing was submitted')

  const { logger, lines } = captureLogger()
  const faucet = createFaucet({ params: node.kernel.params, chain, mempool: node.resolve('mempool'), wallets: node.resolve('wallets'), logger })
  t.equal(faucet(res.json().address), null)
  const line = lines.find((l) => l.msg !== undefined && String(l.msg).startsWith('faucet drip failed'))
  t.ok(line, 'a warning is logged')
  t.equal(line?.code, 'TX_ERROR_INSUFFICIENT_BALANCE')
  t.match(String(line?.reason), /balance/)

  await node.fundFaucet()
  t.match(faucet(res.json().address), /^[0-9a-f]{64}$/, 'pays once the miner wallet is funded')
  t.ok(lines.some((l) => l.msg === 'faucet drip submitted'))
})

t.test('custodial signing carries the public key only until the chain has it', async (t) => {
  const node = await startChatNode({ plugins: ['storage', 'consensus', 'http', 'messenger'] })
  t.teardown(() => node.stop())
  const ctx = { params: node.kernel.params, chain: node.resolve('chain'), mempool: node.resolve('mempool') }
  await node.fundFaucet()
  const w = node.resolve('wallets').nodeWallet()
  const first = submitFromWallet(ctx, w, generateWallet().address, 1, {})
  const second = submitFromWallet(ctx, w, generateWallet().address, 1, {})
  t.type(first.data.public_key, 'string')
  t.type(second.data.public_key, 'string', 'still pending: the chain has not recorded the key')
  t.equal(second.nonce, first.nonce + 1, 'nonces chain through the mempool')
  await node.mine()
  const third = submitFromWallet(ctx, w, generateWallet().address, 1, {})
  t.equal(third.data.public_key, undefined, 'the key is on chain now')
})

t.test('names: approved users by wallet or VM address, foundation, unknown', async (t) => {
  const node = await startChatNode({ plugins: ['storage', 'consensus', 'http', 'messenger', 'admin'] })
  t.teardown(() => node.stop())
  const names = node.resolve('names')
  const invite = (await node.admin('POST', '/api/admin/invites/create', {})).json().code
  const joined = (await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'Quinn', invite_code: invite } })).json()
  t.equal(names.nameOf(joined.address), 'Quinn')
  t.equal(names.nameOf(joined.address.toUpperCase()), 'Quinn', 'case-insensitive')
  t.equal(names.nameOf(`0x${vmAddressOf(joined.address)}`), 'Quinn', 'VM form with 0x')
  const foundation = node.kernel.params.foundationAddress
  t.equal(names.nameOf(foundation), 'foundation')
  t.equal(names.nameOf(vmAddressOf(foundation)), 'foundation')
  t.equal(names.nameOf(generateWallet().address), null)
  t.equal(names.nameOf('not an address'), null)
  await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'pending-pat' } })
  t.equal(node.resolve('accounts').pendingList().length, 1)
  t.equal(names.nameOf(generateWallet().address), null, 'pending users have no address yet')

  // a blocked user's wallet keeps the name its messages were signed with, also after unblock
  t.equal((await node.admin('POST', '/api/admin/block', { name: 'quinn' })).statusCode, 200)
  t.equal(names.nameOf(joined.address), 'Quinn', 'still named while blocked')
  t.equal((await node.admin('POST', '/api/admin/unblock', { name: 'Quinn' })).statusCode, 200)
  t.equal(names.nameOf(`0x${vmAddressOf(joined.address)}`), 'Quinn', 'and after unblock')
  const again = (await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'Quinn', invite_code: invite } })).json()
  t.not(again.address, joined.address, 'a fresh wallet after re-signup')
  t.equal(names.nameOf(again.address), 'Quinn')
  t.equal(names.nameOf(joined.address), 'Quinn', 'the old wallet keeps its name too')
})

t.test('rate limit: one message per window per address', async (t) => {
  let now = 1000
  const limit = new AddressRateLimit(5, () => now)
  t.equal(limit.waitSeconds('a'), 0)
  limit.record('a')
  t.equal(limit.waitSeconds('a'), 5)
  t.equal(limit.waitSeconds('b'), 0, 'per address')
  now += 0.5
  t.equal(limit.waitSeconds('a'), 5, 'rounded up')
  now += 3.6
  t.equal(limit.waitSeconds('a'), 1)
  now += 0.9
  t.equal(limit.waitSeconds('a'), 0, 'free after 5 s')
  for (let i = 0; i < 1200; i++) limit.record(`x${i}`)
  now += 10
  limit.record('y')
  t.equal(limit.waitSeconds('x5'), 0, 'old entries pruned or expired')
})
