// SPEC 3 (Signup rows) and SPEC 7 (signup, login, me) through the public server.
import t from 'tap'
import { startChatNode, sessionCookie } from './fixtures/chat-node.ts'
import { bohmToCoin } from '../../../core/chain/money.ts'

const NAME_ERROR = { error: 'name must be 2-32 chars, alphanumeric / - / _' }

t.test('signup, invites, login and /api/me', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  const { app } = node
  const mempool = node.resolve('mempool')
  const chain = node.resolve('chain')
  const nodeWallet = node.resolve('wallets').nodeWallet()
  await node.fundFaucet()

  const signup = async (body: unknown) => await app.inject({ method: 'POST', url: '/api/signup', payload: body as Record<string, unknown> })

  await t.test('invalid names are refused with the exact text', async (t) => {
    for (const name of ['a', 'x'.repeat(33), 'bad name', 'émile', 'semi;colon', '']) {
      const res = await signup({ name })
      t.equal(res.statusCode, 400, `name ${JSON.stringify(name)}`)
      t.same(res.json(), NAME_ERROR)
    }
    const missing = await signup({})
    t.equal(missing.statusCode, 400)
    t.same(missing.json(), NAME_ERROR)
    const notString = await signup({ name: 12345 })
    t.equal(notString.statusCode, 400)
    t.same(notString.json(), NAME_ERROR)
    const boundary = await signup({ name: 'x'.repeat(32) })
    t.equal(boundary.statusCode, 200, '32 chars is allowed')
  })

  await t.test('without an invite code the signup is queued', async (t) => {
    const res = await signup({ name: 'alice' })
    t.equal(res.statusCode, 200)
    t.equal(res.json().status, 'pending')
    t.type(res.json().message, 'string')
    t.equal(res.cookies.length, 0, 'no session for a pending signup')
    const pending = (await node.admin('GET', '/api/admin/pending')).json().pending as Array<{ name: string; ip: string; signed_up_at: number }>
    const alice = pending.find((p) => p.name === 'alice')
    t.ok(alice, 'alice is in the queue')
    t.type(alice?.ip, 'string')
    t.type(alice?.signed_up_at, 'number')
    const empty = await signup({ name: 'bob_1', invite_code: '' })
    t.equal(empty.json().status, 'pending', 'an empty invite code counts as none')
  })

  await t.test('a taken name answers 409, regardless of case', async (t) => {
    for (const name of ['alice', 'ALICE', 'Alice']) {
      const res = await signup({ name })
      t.equal(res.statusCode, 409)
      t.same(res.json(), { error: 'name already taken' })
    }
  })

  await t.test('system labels are reserved in any spelling, with or without an invite', async (t) => {
    const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 10 })).json()
    for (const name of ['admin', 'Foundation', 'GENESIS', 'mining_reward', 'contract', 'coinbase']) {
      for (const body of [{ name }, { name, invite_code: invite.code }]) {
        const res = await signup(body)
        t.equal(res.statusCode, 409, `${JSON.stringify(body)}`)
        t.same(res.json(), { error: 'name is reserved for the system' })
      }
    }
    const left = (await node.admin('GET', '/api/admin/invites')).json().invites.find((i: { code: string }) => i.code === invite.code)
    t.equal(left.used, 0, 'a refused signup does not use the invite')
    t.equal(node.resolve('accounts').pendingList().some((p) => p.name.toLowerCase() === 'admin'), false)
    t.equal((await signup({ name: 'foundation-fan' })).statusCode, 200, 'a name merely containing a label is fine')
  })

  await t.test('a blocked name answers 403', async (t) => {
    t.equal((await node.admin('POST', '/api/admin/block', { name: 'mallory' })).statusCode, 200)
    const res = await signup({ name: 'mallory' })
    t.equal(res.statusCode, 403)
    t.same(res.json(), { error: 'this name is blocked' })
    const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json()
    const withCode = await signup({ name: 'Mallory', invite_code: invite.code })
    t.equal(withCode.statusCode, 403, 'an invite does not get around a block')
    t.same(withCode.json(), { error: 'this name is blocked' })
  })

  let carolToken = ''
  let carolCookie = ''
  let carolAddress = ''
  await t.test('a valid invite code approves at once: wallet, faucet, session, login token, used count', async (t) => {
    const created = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 2 })).json()
    const res = await signup({ name: 'carol', invite_code: created.code })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.match(body, { status: 'approved', auto: true, name: 'carol', invite_code: created.code })
    t.match(body.address, /^[0-9a-f]{32}$/)
    t.match(body.login_token, /^[0-9a-f]{32}$/)
    const cookie = res.cookies.find((c) => c.name === 'session')
    t.ok(cookie, 'Set-Cookie session')
    t.equal(cookie?.httpOnly, true, 'HttpOnly')
    t.equal(cookie?.sameSite, 'Lax', 'SameSite=Lax')
    t.equal(cookie?.path, '/', 'Path=/')
    carolToken = body.login_token
    carolCookie = sessionCookie(res)
    carolAddress = body.address

    const drip = mempool.list().find((tx) => tx.recipient === body.address)
    t.ok(drip, 'faucet drip in the mempool')
    t.equal(drip?.sender, nodeWallet.address, 'paid by the node miner wallet')
    t.equal(drip?.amount, 100)
    t.equal(body.faucet_tx, drip?.transaction_id)

    const invites = (await node.admin('GET', '/api/admin/invites')).json().invites as Array<{ code: string; used: number; remaining: number }>
    t.match(invites.find((i) => i.code === created.code), { used: 1, remaining: 1 })

    await node.mine()
    t.equal(bohmToCoin(chain.getAccount(body.address).balance), 100, 'the drip confirmed')
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: carolCookie } })
    t.equal(me.statusCode, 200)
    t.match(me.json(), { name: 'carol', address: body.address, balance: 100 })
    t.same(Object.keys(me.json()).sort(), ['address', 'balance', 'faucet', 'name'], 'faucet: the signup drip while it is not yet in a block')
  })

  await t.test('invite codes: lower case accepted, unknown and revoked refused, exhausted refused', async (t) => {
    const created = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json()
    const lower = await signup({ name: 'dave', invite_code: created.code.toLowerCase() })
    t.equal(lower.json().status, 'approved')
    const exhausted = await signup({ name: 'erin', invite_code: created.code })
    t.equal(exhausted.statusCode, 403)
    t.same(exhausted.json(), { error: 'invite code has reached its usage limit' })
    const unknown = await signup({ name: 'erin', invite_code: 'CODE-ZZZZZZ' })
    t.equal(unknown.statusCode, 403)
    t.same(unknown.json(), { error: 'invalid or revoked invite code' })
    const other = (await node.admin('POST', '/api/admin/invites/create', {})).json()
    t.equal((await node.admin('POST', '/api/admin/invites/revoke', { code: other.code })).statusCode, 200)
    const revoked = await signup({ name: 'erin', invite_code: other.code })
    t.equal(revoked.statusCode, 403)
    t.same(revoked.json(), { error: 'invalid or revoked invite code' })
    t.notOk(node.resolve('accounts').user('erin'), 'no account was made')
    t.equal(node.resolve('accounts').pendingList().some((p) => p.name === 'erin'), false, 'nor queued')
    t.equal(node.resolve('accounts').user('carol')?.name, 'carol', 'earlier signups stay approved')
  })

  await t.test('login', async (t) => {
    const login = async (body: unknown) => await app.inject({ method: 'POST', url: '/api/login', payload: body as Record<string, unknown> })
    for (const body of [{}, { name: 'carol' }, { token: carolToken }, { name: '', token: '' }]) {
      const res = await login(body)
      t.equal(res.statusCode, 400)
      t.same(res.json(), { error: 'name and token required' })
    }
    for (const body of [{ name: 'carol', token: 'f'.repeat(32) }, { name: 'nobody', token: carolToken }, { name: 'alice', token: carolToken }]) {
      const res = await login(body)
      t.equal(res.statusCode, 401)
      t.same(res.json(), { error: 'unknown name or wrong token' })
    }
    const ok = await login({ name: 'Carol', token: carolToken })
    t.equal(ok.statusCode, 200)
    t.same(ok.json(), { status: 'ok', name: 'carol' })
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookie(ok) } })
    t.equal(me.json().name, 'carol')
    t.equal((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: carolCookie } })).statusCode, 200, 'the signup session is still valid too')
  })

  await t.test('login links and invite links on the landing page', async (t) => {
    const page = await app.inject({ method: 'GET', url: `/?name=carol&token=${carolToken}` })
    t.equal(page.statusCode, 200)
    t.match(page.headers['content-type'], /text\/html/)
    t.match(page.body, /Ledger chat/)
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookie(page) } })
    t.equal(me.json().address, carolAddress, 'the link redeemed the login token')
    const wrong = await app.inject({ method: 'GET', url: '/?name=carol&token=nope' })
    t.equal(wrong.statusCode, 200, 'a wrong link still serves the page (it shows the error)')
    t.equal(wrong.cookies.length, 0)
    const invite = await app.inject({ method: 'GET', url: '/?invite=CODE-ABCDEF' })
    t.equal(invite.statusCode, 200)
    const script = await app.inject({ method: 'GET', url: '/chat/chat.js' })
    t.equal(script.statusCode, 200)
    t.match(script.body, /invite/)
  })

  await t.test('/api/me needs a session', async (t) => {
    for (const headers of [{}, { cookie: 'session=deadbeef' }, { cookie: 'other=1' }]) {
      const res = await app.inject({ method: 'GET', url: '/api/me', headers })
      t.equal(res.statusCode, 401)
      t.same(res.json(), { error: 'no session present' })
    }
  })

  await t.test('/api/session answers 200 whether or not signed in (no console error on a logged-out page)', async (t) => {
    const session = async (headers: Record<string, string>) => await app.inject({ method: 'GET', url: '/api/session', headers })
    const out = await session({})
    t.equal(out.statusCode, 200)
    t.same(out.json(), { signed_in: false, name: null, via: null, revoked: false })
    t.same((await session({ cookie: 'session=deadbeef' })).json(), { signed_in: false, name: null, via: null, revoked: false })
    t.same((await session({ cookie: carolCookie })).json(), { signed_in: true, name: 'carol', via: 'session', revoked: false })
    const token = (await node.admin('POST', '/api/admin/tokens/create', { label: 'bot', name: 'carol' })).json().token
    t.same((await session({ authorization: `Bearer ${token}` })).json(), { signed_in: true, name: 'carol', via: 'token', revoked: false })
  })

  await t.test('a blocked user cannot log in, and their sessions end', async (t) => {
    t.equal((await node.admin('POST', '/api/admin/block', { name: 'carol', reason: 'spam' })).statusCode, 200)
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: carolCookie } })
    t.equal(me.statusCode, 401, 'a revoked session is no session (SPEC 7)')
    t.same(me.json(), { error: 'no session present' })
    t.same((await app.inject({ method: 'GET', url: '/api/session', headers: { cookie: carolCookie } })).json(), { signed_in: false, name: null, via: null, revoked: true })
    const send = await app.inject({ method: 'POST', url: '/api/send', headers: { cookie: carolCookie }, payload: { text: 'still here?' } })
    t.equal(send.statusCode, 401)
    t.same(send.json(), { error: 'no session present' })
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { name: 'carol', token: carolToken } })
    t.equal(res.statusCode, 403)
    t.same(res.json(), { error: 'this name has been blocked' })
    t.equal(node.resolve('names').nameOf(carolAddress), 'carol', 'the messages carol signed keep her name (issue 14 item 5)')
  })

  await t.test('after unblock the name signs up again with a fresh wallet and token', async (t) => {
    t.equal((await node.admin('POST', '/api/admin/unblock', { name: 'carol' })).statusCode, 200)
    const old = await app.inject({ method: 'POST', url: '/api/login', payload: { name: 'carol', token: carolToken } })
    t.equal(old.statusCode, 401, 'the old login token is gone')
    const oldCookie = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: carolCookie } })
    t.equal(oldCookie.statusCode, 401, 'after unblock the ended session is simply absent')
    t.same(oldCookie.json(), { error: 'no session present' })
    const created = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json()
    const again = await signup({ name: 'carol', invite_code: created.code })
    t.equal(again.json().status, 'approved')
    t.not(again.json().address, carolAddress, 'fresh wallet')
    t.not(again.json().login_token, carolToken, 'fresh login token')
  })

  await t.test('concurrent signups cannot overdraw an invite or take one name twice', async (t) => {
    const created = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 3 })).json()
    const racers = await Promise.all(Array.from({ length: 10 }, async (_, i) => await signup({ name: `racer${i}`, invite_code: created.code })))
    t.equal(racers.filter((r) => r.statusCode === 200).length, 3, 'exactly max_uses approvals')
    t.ok(racers.filter((r) => r.statusCode !== 200).every((r) => r.json().error === 'invite code has reached its usage limit'))
    const same = await Promise.all(Array.from({ length: 5 }, async () => await signup({ name: 'twin' })))
    t.equal(same.filter((r) => r.statusCode === 200).length, 1, 'one of five identical signups wins')
    t.equal(same.filter((r) => r.statusCode === 409).length, 4)
  })
})
