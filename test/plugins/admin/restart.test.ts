// SPEC 1 and 5 rule 6: admin state survives a restart (sessions, queue, invites, blocks,
// tokens), and a re-sync that deletes <dataDir>/chain leaves it untouched.
import t from 'tap'
import type { Test } from 'tap'
import path from 'node:path'
import { rmSync } from 'node:fs'
import { startChatNode, sessionCookie } from '../messenger/fixtures/chat-node.ts'
import type { ChatNode } from '../messenger/fixtures/chat-node.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'

interface Snapshot {
  cookie: string
  loginToken: string
  address: string
  invite: string
  apiToken: string
  revokedToken: string
}

async function buildState (node: ChatNode): Promise<Snapshot> {
  const { app } = node
  await node.fundFaucet()
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 3 })).json().code as string
  const joined = await app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'keeper', invite_code: invite } })
  for (const name of ['q1', 'q2', 'q3']) await app.inject({ method: 'POST', url: '/api/signup', payload: { name } })
  await node.admin('POST', '/api/admin/block', { name: 'q2', reason: 'abuse' })
  await node.admin('POST', '/api/admin/block', { name: 'villain' })
  const apiToken = (await node.admin('POST', '/api/admin/tokens/create', { label: 'kept', name: 'keeper' })).json().token as string
  const revokedToken = (await node.admin('POST', '/api/admin/tokens/create', { label: 'gone', name: 'keeper' })).json().token as string
  await node.admin('POST', '/api/admin/tokens/revoke', { token: revokedToken })
  const revokedInvite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json().code as string
  await node.admin('POST', '/api/admin/invites/revoke', { code: revokedInvite })
  return { cookie: sessionCookie(joined), loginToken: joined.json().login_token, address: joined.json().address, invite, apiToken, revokedToken }
}

async function checkState (t: Test, node: ChatNode, s: Snapshot, label: string): Promise<void> {
  const { app } = node
  const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: s.cookie } })
  t.equal(me.statusCode, 200, `${label}: the session cookie is still valid`)
  t.equal(me.json().address, s.address)
  t.same((await node.admin('GET', '/api/admin/pending')).json().pending.map((p: { name: string }) => p.name), ['q1', 'q3'], `${label}: queue intact, FIFO`)
  const invites = (await node.admin('GET', '/api/admin/invites')).json().invites
  t.match(invites.find((i: { code: string }) => i.code === s.invite), { used: 1, max_uses: 3, revoked: false }, `${label}: invite intact`)
  t.equal(invites.filter((i: { revoked: boolean }) => i.revoked).length, 1, `${label}: revoked invite stays revoked`)
  const users = (await node.admin('GET', '/api/admin/users')).json()
  t.same([...users.blocked].sort(), ['q2', 'villain'], `${label}: blocks intact`)
  t.equal(users.blocked_records.find((b: { name: string }) => b.name === 'q2').reason, 'abuse')
  t.equal((await app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'villain' } })).statusCode, 403, `${label}: a blocked name stays blocked`)
  t.equal(node.resolve('accounts').authenticateApiToken(s.apiToken)?.name, 'keeper', `${label}: API token works`)
  t.equal(node.resolve('accounts').authenticateApiToken(s.revokedToken), undefined, `${label}: revoked token stays revoked`)
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { name: 'keeper', token: s.loginToken } })
  t.equal(login.statusCode, 200, `${label}: login token still redeemable`)
  t.equal(node.resolve('names').nameOf(s.address), 'keeper', `${label}: names directory rebuilt`)
}

t.test('admin state survives a kernel restart and a chain re-sync', async (t) => {
  const dataDir = tmpDir('ledger-admin-restart-')
  t.teardown(() => cleanup(dataDir))
  const first = await startChatNode({ dataDir, keepData: true })
  const snapshot = await buildState(first)
  await first.stop()

  const second = await startChatNode({ dataDir, keepData: true })
  await checkState(t, second, snapshot, 'after restart')
  await second.stop()

  // what `ledger resync` does: drop <dataDir>/chain only
  rmSync(path.join(dataDir, 'chain'), { recursive: true, force: true })
  const third = await startChatNode({ dataDir, keepData: true })
  t.equal(third.resolve('chain').tip().height, 0, 'the chain starts over')
  await checkState(t, third, snapshot, 'after resync')
  await third.stop()
})
