// Issue 12 items 8 and 9 on the admin surface: guessing the Basic password is limited per
// address; the pending queue has a cap and GET /api/admin/pending pages it.
import t from 'tap'
import { startChatNode, ADMIN_AUTH, ADMIN_USER } from '../messenger/fixtures/chat-node.ts'

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

t.test('failed admin logins: after the limit even the right password is refused from that address', async (t) => {
  const node = await startChatNode({ config: { admin: { rateLimits: { failedLogins: { max: 3, windowSeconds: 600 } } } } })
  t.teardown(() => node.stop())
  const attacker = { remoteAddress: '203.0.113.66' }
  const get = async (authorization: string | undefined, from = attacker) =>
    await node.app.inject({ method: 'GET', url: '/api/admin/users', headers: authorization === undefined ? {} : { authorization }, ...from })

  for (let i = 0; i < 5; i++) t.equal((await get(undefined)).statusCode, 401, 'no credentials: a prompt, not a guess')
  for (let i = 0; i < 3; i++) t.equal((await get(basic(ADMIN_USER, `guess${i}`))).statusCode, 401, `guess ${i}`)
  const refused = await get(ADMIN_AUTH)
  t.equal(refused.statusCode, 429, 'the right password no longer helps this address')
  t.match(refused.json(), { error: /^too many failed admin logins from this address: retry in \d+ seconds$/ })
  t.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After')
  t.equal((await get(ADMIN_AUTH, { remoteAddress: '203.0.113.67' })).statusCode, 200, 'the admin elsewhere is not locked out')

  // a cross-site form with cached credentials gets nowhere either (item 10)
  const form = await node.app.inject({
    method: 'POST',
    url: '/api/admin/invites/create',
    headers: { authorization: ADMIN_AUTH, 'content-type': 'text/plain' },
    payload: '{"max_uses": 1, "x": "="}',
    remoteAddress: '203.0.113.67'
  })
  t.equal(form.statusCode, 415)
  t.equal(node.resolve('accounts').invites().length, 0, 'no invite was created')
})

t.test('the pending queue has a cap; /api/admin/pending pages it oldest first', async (t) => {
  const node = await startChatNode({ config: { messenger: { maxPendingSignups: 5 } } })
  t.teardown(() => node.stop())
  const names = ['q0', 'q1', 'q2', 'q3', 'q4']
  for (const name of names) t.equal((await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name } })).statusCode, 200)
  const full = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'q5' } })
  t.equal(full.statusCode, 503)
  t.same(full.json(), { error: 'the signup queue is full (5 waiting for approval); try again later or sign up with an invite code' })
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json()
  const withCode = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'q5', invite_code: invite.code } })
  t.equal(withCode.json().status, 'approved', 'an invite still gets in')

  const whole = (await node.admin('GET', '/api/admin/pending')).json()
  t.same(whole.pending.map((p: { name: string }) => p.name), names, 'default page: the whole small queue, FIFO')
  t.same(whole.pagination, { offset: 0, limit: 100, total: 5, has_more: false })
  const page = (await node.admin('GET', '/api/admin/pending?offset=1&limit=2')).json()
  t.same(page.pending.map((p: { name: string }) => p.name), ['q1', 'q2'])
  t.same(page.pagination, { offset: 1, limit: 2, total: 5, has_more: true })
  const past = (await node.admin('GET', `/api/admin/pending?offset=${Number.MAX_SAFE_INTEGER}`)).json()
  t.same(past, { pending: [], pagination: { offset: Number.MAX_SAFE_INTEGER, limit: 100, total: 5, has_more: false } })
  t.equal((await node.admin('GET', '/api/admin/pending?limit=100000')).json().pagination.limit, 1000, 'limit is clamped')
  const bad = await node.admin('GET', '/api/admin/pending?offset=-1')
  t.equal(bad.statusCode, 400)
  t.match(bad.json(), { error: /querystring\.offset/ })

  t.equal((await node.admin('POST', '/api/admin/approve', { name: 'q0' })).statusCode, 200)
  t.equal((await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'q6' } })).json().status, 'pending', 'room again after an approval')
})
