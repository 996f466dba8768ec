// SPEC 4.4 and DESIGN 5: every admin endpoint, HTTP Basic, and 404s for unknown targets.
import t from 'tap'
import { startChatNode, sessionCookie, ADMIN_USER, ADMIN_PASSWORD } from '../messenger/fixtures/chat-node.ts'
import { sha3_256Hex } from '../../../core/crypto/sha3.ts'
import { INVITE_RE } from '../../../plugins/messenger/accounts/secrets.ts'

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

t.test('admin API', async (t) => {
  // the Basic test below offers 25 wrong credentials; the failed-login limit has its own test
  const node = await startChatNode({ config: { admin: { rateLimits: { failedLogins: { max: 100, windowSeconds: 600 } } } } })
  t.teardown(() => node.stop())
  const { app } = node
  const accounts = node.resolve('accounts')
  await node.fundFaucet()
  const signup = async (name: string, inviteCode?: string) => await app.inject({ method: 'POST', url: '/api/signup', payload: inviteCode === undefined ? { name } : { name, invite_code: inviteCode } })

  await t.test('HTTP Basic guards every admin route and the UI', async (t) => {
    const wrong = [undefined, basic(ADMIN_USER, 'nope'), basic('someone', ADMIN_PASSWORD), 'Basic !!!', 'Bearer x', basic(ADMIN_USER, '')]
    for (const [method, url] of [['GET', '/api/admin/pending'], ['POST', '/api/admin/approve'], ['GET', '/api/admin/tokens'], ['GET', '/admin'], ['GET', '/admin/assets/admin.js']] as const) {
      for (const authorization of wrong) {
        const res = await app.inject({ method, url, headers: authorization === undefined ? {} : { authorization } })
        t.equal(res.statusCode, 401, `${method} ${url} with ${authorization ?? 'no credentials'}`)
        t.same(res.json(), { error: 'admin authentication required' })
        t.equal(res.headers['www-authenticate'], 'Basic realm="ledger-admin"')
      }
    }
    const page = await node.admin('GET', '/admin')
    t.equal(page.statusCode, 200)
    t.match(page.headers['content-type'], /text\/html/)
    t.match(page.body, /Ledger admin/)
    t.equal((await node.admin('GET', '/admin/assets/admin.js')).statusCode, 200)
    t.equal((await app.inject({ method: 'GET', url: '/' })).statusCode, 200, 'other pages need no admin credentials')
  })

  await t.test('pending is FIFO; approve creates the account and drips the faucet', async (t) => {
    for (const name of ['p1', 'p2', 'p3']) await signup(name)
    const pending = (await node.admin('GET', '/api/admin/pending')).json().pending as Array<{ name: string; signed_up_at: number; ip: string }>
    t.same(pending.map((p) => p.name), ['p1', 'p2', 'p3'])
    t.ok(pending.every((p) => typeof p.signed_up_at === 'number' && typeof p.ip === 'string'))

    const res = await node.admin('POST', '/api/admin/approve', { name: 'p2' })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.match(body, { status: 'approved', name: 'p2' })
    t.match(body.address, /^[0-9a-f]{32}$/)
    t.match(body.login_token, /^[0-9a-f]{32}$/)
    t.match(body.faucet_tx, /^[0-9a-f]{64}$/)
    const drip = node.resolve('mempool').get(body.faucet_tx)
    t.match(drip, { recipient: body.address, amount: 100, sender: node.resolve('wallets').nodeWallet().address })
    t.same((await node.admin('GET', '/api/admin/pending')).json().pending.map((p: { name: string }) => p.name), ['p1', 'p3'])
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { name: 'p2', token: body.login_token } })
    t.equal(login.statusCode, 200, 'the login token works')

    for (const name of ['p2', 'nobody']) {
      const again = await node.admin('POST', '/api/admin/approve', { name })
      t.equal(again.statusCode, 404, `approve ${name}`)
      t.same(again.json(), { error: `no pending signup named ${name}` })
    }
    const invalid = await node.admin('POST', '/api/admin/approve', {})
    t.equal(invalid.statusCode, 400)
    t.same(invalid.json(), { error: 'name is required' })
  })

  await t.test('users lists approved users with balance and login token', async (t) => {
    await node.mine()
    const users = (await node.admin('GET', '/api/admin/users')).json()
    const p2 = users.users.find((u: { name: string }) => u.name === 'p2')
    t.same(Object.keys(p2).sort(), ['address', 'balance', 'joined_at', 'login_token', 'name'])
    t.equal(p2.balance, 100)
    t.equal(p2.login_token, accounts.user('p2')?.login_token)
    t.same(users.blocked, [])
    t.same(users.blocked_records, [])
  })

  await t.test('block: removes from pending and approved, revokes sessions and tokens, stores the reason', async (t) => {
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { name: 'p2', token: accounts.user('p2')?.login_token } })
    const cookie = sessionCookie(login)
    const token = (await node.admin('POST', '/api/admin/tokens/create', { label: 'ci', name: 'p2' })).json().token
    t.ok(accounts.authenticateApiToken(token))

    const blocked = await node.admin('POST', '/api/admin/block', { name: 'p2', reason: 'spam' })
    t.equal(blocked.statusCode, 200)
    t.same(blocked.json(), { status: 'blocked', name: 'p2' })
    t.equal((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode, 401, 'sessions revoked')
    t.notOk(accounts.authenticateApiToken(token), 'API tokens revoked')
    t.notOk(accounts.user('p2'))

    t.same((await node.admin('POST', '/api/admin/block', { name: 'p1' })).json(), { status: 'blocked', name: 'p1' })
    t.same((await node.admin('GET', '/api/admin/pending')).json().pending.map((p: { name: string }) => p.name), ['p3'], 'removed from pending')

    const users = (await node.admin('GET', '/api/admin/users')).json()
    t.notOk(users.users.some((u: { name: string }) => u.name === 'p2'))
    t.same([...users.blocked].sort(), ['p1', 'p2'], 'blocked: the names (SPEC 4.4)')
    const rec = users.blocked_records.find((b: { name: string }) => b.name === 'p2')
    t.match(rec, { name: 'p2', reason: 'spam' })
    t.type(rec.blocked_at, 'number')
    t.notOk('reason' in users.blocked_records.find((b: { name: string }) => b.name === 'p1'), 'reason is optional')
  })

  await t.test('unblock', async (t) => {
    const missing = await node.admin('POST', '/api/admin/unblock', { name: 'p3' })
    t.equal(missing.statusCode, 404)
    t.same(missing.json(), { error: 'not blocked' })
    for (const name of ['x', 'no spaces allowed', 'y'.repeat(40)]) {
      const odd = await node.admin('POST', '/api/admin/unblock', { name })
      t.same([odd.statusCode, odd.json()], [404, { error: 'not blocked' }], `a name that cannot exist is not blocked: ${name.slice(0, 12)}`)
    }
    const res = await node.admin('POST', '/api/admin/unblock', { name: 'P2' })
    t.equal(res.statusCode, 200)
    t.same(res.json(), { status: 'unblocked', name: 'p2' })
    t.equal((await signup('p2')).json().status, 'pending', 'the name can sign up again')
  })

  await t.test('invites: create, list, revoke', async (t) => {
    const def = await node.admin('POST', '/api/admin/invites/create')
    t.equal(def.statusCode, 200)
    t.equal(def.json().max_uses, 25, 'default 25')
    t.match(def.json().code, INVITE_RE)
    t.match(def.json().code, /^CODE-[^0O1IL]{6}$/)
    t.match(def.json().signup_url, new RegExp(`^http://[^/]+/\\?invite=${def.json().code}$`))
    for (const max of [1, 10000]) t.equal((await node.admin('POST', '/api/admin/invites/create', { max_uses: max })).json().max_uses, max)
    for (const max of [0, 10001, 2.5, 'abc', -1]) {
      const bad = await node.admin('POST', '/api/admin/invites/create', { max_uses: max })
      t.equal(bad.statusCode, 400, `max_uses ${max}`)
      t.same(bad.json(), { error: 'max_uses must be an integer 1-10000' })
    }
    const codes = new Set<string>()
    for (let i = 0; i < 20; i++) codes.add((await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json().code)
    t.equal(codes.size, 20, 'codes are random')

    await signup('inv1', def.json().code)
    const list = (await node.admin('GET', '/api/admin/invites')).json().invites as Array<Record<string, unknown>>
    const entry = list.find((i) => i.code === def.json().code)
    t.same(Object.keys(entry ?? {}).sort(), ['code', 'created_at', 'max_uses', 'remaining', 'revoked', 'used'])
    t.match(entry, { max_uses: 25, used: 1, remaining: 24, revoked: false })
    t.equal(list.length, 23, 'every code ever issued')

    const revoked = await node.admin('POST', '/api/admin/invites/revoke', { code: def.json().code })
    t.same(revoked.json(), { status: 'revoked', code: def.json().code })
    t.match((await node.admin('GET', '/api/admin/invites')).json().invites.find((i: { code: string }) => i.code === def.json().code), { revoked: true, used: 1 })
    t.ok(accounts.user('inv1'), 'earlier signups remain approved')
    const unknown = await node.admin('POST', '/api/admin/invites/revoke', { code: 'CODE-AAAAAA' })
    t.equal(unknown.statusCode, 404)
    t.same(unknown.json(), { error: 'unknown invite code' })
  })

  await t.test('API tokens: raw once, hash only, never listed, revoke by token or hash', async (t) => {
    for (const label of ['', 'x'.repeat(65), undefined]) {
      const bad = await node.admin('POST', '/api/admin/tokens/create', { label, name: 'inv1' })
      t.equal(bad.statusCode, 400)
      t.same(bad.json(), { error: 'label must be 1-64 chars' })
    }
    const unknown = await node.admin('POST', '/api/admin/tokens/create', { label: 'x', name: 'p3' })
    t.equal(unknown.statusCode, 404, 'a pending name is not an approved user')
    t.same(unknown.json(), { error: 'no approved user named p3' })
    const badScope = await node.admin('POST', '/api/admin/tokens/create', { label: 'x', name: 'inv1', scope: 'root' })
    t.equal(badScope.statusCode, 400)

    const created = await node.admin('POST', '/api/admin/tokens/create', { label: 'x'.repeat(64), name: 'inv1' })
    t.equal(created.statusCode, 200)
    const body = created.json()
    t.match(body, { label: 'x'.repeat(64), name: 'inv1', scope: 'playground' })
    t.match(body.token, /^ldg_[0-9a-f]{64}$/)
    t.type(body.note, 'string')
    const second = (await node.admin('POST', '/api/admin/tokens/create', { label: 'two', name: 'inv1', scope: 'playground' })).json()

    const listing = await node.admin('GET', '/api/admin/tokens')
    t.notMatch(listing.body, body.token.slice(4), 'the raw token is never listed')
    t.notMatch(listing.body, sha3_256Hex(body.token), 'nor its hash')
    const rec = listing.json().tokens.find((x: { label: string }) => x.label === 'x'.repeat(64))
    t.match(rec, { name: 'inv1', scope: 'playground', last_used_at: null, revoked_at: null })
    t.notOk('token_hash' in rec)
    t.type(rec.created_at, 'number')

    const user = accounts.authenticateApiToken(body.token)
    t.equal(user?.name, 'inv1', 'the token acts as its user')
    t.notOk(accounts.authenticateApiToken(body.token, 'admin'), 'only its scope')
    t.type((await node.admin('GET', '/api/admin/tokens')).json().tokens.find((x: { label: string }) => x.label === 'x'.repeat(64)).last_used_at, 'number', 'last_used_at recorded')

    const byToken = await node.admin('POST', '/api/admin/tokens/revoke', { token: body.token })
    t.same(byToken.json(), { status: 'revoked', token_hash: sha3_256Hex(body.token) })
    t.notOk(accounts.authenticateApiToken(body.token))
    const byHash = await node.admin('POST', '/api/admin/tokens/revoke', { token_hash: sha3_256Hex(second.token) })
    t.same(byHash.json(), { status: 'revoked', token_hash: sha3_256Hex(second.token) })
    t.type((await node.admin('GET', '/api/admin/tokens')).json().tokens.find((x: { label: string }) => x.label === 'two').revoked_at, 'number')
    for (const req of [{ token: 'ldg_' + 'a'.repeat(64) }, { token_hash: 'b'.repeat(64) }]) {
      const res = await node.admin('POST', '/api/admin/tokens/revoke', req)
      t.equal(res.statusCode, 404)
      t.same(res.json(), { error: 'unknown token' })
    }
    t.equal((await node.admin('POST', '/api/admin/tokens/revoke', {})).statusCode, 400)
  })
})
