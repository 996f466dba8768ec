// SPEC 1: every admin mutation is written synchronously before its response. A real node
// process is killed with SIGKILL right after each mutation's response; a fresh process on
// the same data dir must show the mutation (and every earlier one).
import t from 'tap'
import { startAdminNode } from '../plugins/admin/fixtures/node-process.ts'
import type { AdminNodeProcess, HttpAnswer } from '../plugins/admin/fixtures/node-process.ts'
import { tmpDir, cleanup } from '../helpers/chain.ts'

t.test('admin state survives SIGKILL right after each mutation', async (t) => {
  const dataDir = tmpDir('ledger-admin-kill-')
  let node: AdminNodeProcess | null = null
  t.teardown(async () => { await node?.stop(); cleanup(dataDir) })

  /** runs one mutation, kills the node the moment its response arrived, boots a new one */
  const mutateThenKill = async (run: (n: AdminNodeProcess) => Promise<HttpAnswer>): Promise<HttpAnswer> => {
    const n = node ?? await startAdminNode(dataDir)
    const answer = await run(n)
    await n.kill9()
    node = await startAdminNode(dataDir)
    return answer
  }

  const queued = await mutateThenKill((n) => n.request('POST', '/api/signup', { body: { name: 'queued' } }))
  t.equal(queued.json.status, 'pending')
  const pending = (await node!.request('GET', '/api/admin/pending', { admin: true })).json.pending as Array<{ name: string }>
  t.same(pending.map((p) => p.name), ['queued'], 'the queued signup survived')

  const invite = await mutateThenKill((n) => n.request('POST', '/api/admin/invites/create', { admin: true, body: { max_uses: 2 } }))
  const code = invite.json.code as string
  let invites = (await node!.request('GET', '/api/admin/invites', { admin: true })).json.invites as Array<{ code: string; used: number }>
  t.same(invites.map((i) => i.code), [code], 'the invite survived')

  const joined = await mutateThenKill((n) => n.request('POST', '/api/signup', { body: { name: 'joiner', invite_code: code } }))
  t.equal(joined.json.status, 'approved')
  t.ok(joined.setCookie?.startsWith('session='), 'session cookie issued')
  const me = await node!.request('GET', '/api/me', { cookie: joined.setCookie ?? '' })
  t.equal(me.status, 200, 'the session cookie is valid after the kill')
  t.equal(me.json.name, 'joiner')
  invites = (await node!.request('GET', '/api/admin/invites', { admin: true })).json.invites as Array<{ code: string; used: number }>
  t.equal(invites[0]?.used, 1, 'the use was counted')

  const approved = await mutateThenKill((n) => n.request('POST', '/api/admin/approve', { admin: true, body: { name: 'queued' } }))
  t.equal(approved.json.status, 'approved')
  const login = await node!.request('POST', '/api/login', { body: { name: 'queued', token: approved.json.login_token } })
  t.equal(login.status, 200, 'the approval and its login token survived')

  const token = await mutateThenKill((n) => n.request('POST', '/api/admin/tokens/create', { admin: true, body: { label: 'deploy-bot', name: 'joiner' } }))
  t.match(token.json.token, /^ldg_[0-9a-f]{64}$/)
  const tokens = (await node!.request('GET', '/api/admin/tokens', { admin: true })).json.tokens as Array<{ label: string; revoked_at: number | null }>
  t.match(tokens, [{ label: 'deploy-bot', revoked_at: null }], 'the token record survived')

  const blocked = await mutateThenKill((n) => n.request('POST', '/api/admin/block', { admin: true, body: { name: 'joiner', reason: 'test' } }))
  t.equal(blocked.json.status, 'blocked')
  t.equal((await node!.request('GET', '/api/me', { cookie: joined.setCookie ?? '' })).status, 401, 'the revoked session stays revoked')
  const users = (await node!.request('GET', '/api/admin/users', { admin: true })).json
  t.same(users.blocked, ['joiner'], 'the block survived')
  t.match(users.blocked_records, [{ name: 'joiner', reason: 'test' }])
  const afterBlock = (await node!.request('GET', '/api/admin/tokens', { admin: true })).json.tokens as Array<{ revoked_at: number | null }>
  t.type(afterBlock[0]?.revoked_at, 'number', 'the blocked user\'s API token was revoked with the block')

  const revoked = await mutateThenKill((n) => n.request('POST', '/api/admin/invites/revoke', { admin: true, body: { code } }))
  t.equal(revoked.json.status, 'revoked')
  const redeem = await node!.request('POST', '/api/signup', { body: { name: 'late', invite_code: code } })
  t.equal(redeem.status, 403, 'the revocation survived')

  const unblocked = await mutateThenKill((n) => n.request('POST', '/api/admin/unblock', { admin: true, body: { name: 'joiner' } }))
  t.equal(unblocked.json.status, 'unblocked')
  t.equal((await node!.request('POST', '/api/signup', { body: { name: 'joiner' } })).json.status, 'pending', 'the unblock survived')
})
