// Issue 12 item 8: per-address limits on signup, login (API and login links) and failed
// invite codes; 429 in the one error shape with Retry-After; X-Forwarded-For counts only
// when http.trustProxy is set.
import t from 'tap'
import type { Test } from 'tap'
import { startChatNode } from './fixtures/chat-node.ts'
import type { ChatNode } from './fixtures/chat-node.ts'

const rule = (max: number, windowSeconds = 600): { max: number; windowSeconds: number } => ({ max, windowSeconds })

async function chatNode (t: Test, extra: Record<string, unknown> = {}): Promise<ChatNode> {
  const node = await startChatNode({
    config: { messenger: { rateLimits: { signup: rule(3), login: rule(3), failedInviteCodes: rule(2) } }, ...extra }
  })
  t.teardown(() => node.stop())
  return node
}

function expect429 (t: Test, res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }, what: string): void {
  t.equal(res.statusCode, 429, `${what}: 429`)
  t.match(res.json(), { error: new RegExp(`^too many ${what} from this address: retry in \\d+ seconds$`) })
  t.same(Object.keys(res.json() as object), ['error'], 'the one error shape')
  const retry = Number(res.headers['retry-after'])
  t.ok(retry >= 1 && retry <= 600, `Retry-After ${String(res.headers['retry-after'])} is whole seconds within the window`)
}

t.test('signup: the 4th request of one address in the window is refused, another address is not', async (t) => {
  const node = await chatNode(t)
  for (let i = 0; i < 3; i++) {
    const res = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: `user${i}` }, remoteAddress: '203.0.113.7' })
    t.equal(res.statusCode, 200)
  }
  const refused = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'user3' }, remoteAddress: '203.0.113.7' })
  expect429(t, refused, 'signups')
  t.equal(node.resolve('accounts').pendingList().some((p) => p.name === 'user3'), false, 'the refused signup was not queued')
  const other = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'user3' }, remoteAddress: '203.0.113.8' })
  t.equal(other.statusCode, 200, 'another address has its own budget')
})

t.test('login: POST /api/login and login links share one budget', async (t) => {
  const node = await chatNode(t)
  const from = { remoteAddress: '198.51.100.1' }
  const bad = { name: 'nobody', token: 'f'.repeat(32) }
  t.equal((await node.app.inject({ method: 'POST', url: '/api/login', payload: bad, ...from })).statusCode, 401)
  t.equal((await node.app.inject({ method: 'GET', url: `/?name=nobody&token=${'e'.repeat(32)}`, ...from })).statusCode, 200, 'a login link still loads the page')
  t.equal((await node.app.inject({ method: 'POST', url: '/api/login', payload: bad, ...from })).statusCode, 401)
  expect429(t, await node.app.inject({ method: 'POST', url: '/api/login', payload: bad, ...from }), 'logins')
  // over the limit a login link gives no cookie even with the right token
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json()
  const joined = (await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'dana', invite_code: invite.code } })).json()
  const link = await node.app.inject({ method: 'GET', url: `/?name=dana&token=${String(joined.login_token)}`, ...from })
  t.equal(link.statusCode, 200)
  t.equal(link.cookies.length, 0, 'no session over the limit')
  const elsewhere = await node.app.inject({ method: 'GET', url: `/?name=dana&token=${String(joined.login_token)}`, remoteAddress: '198.51.100.2' })
  t.equal(elsewhere.cookies.filter((c) => c.name === 'session').length, 1, 'the same link works from another address')
})

t.test('failed invite codes: after the limit even a valid code is refused; plain signups go on', async (t) => {
  const node = await chatNode(t, { messenger: { rateLimits: { signup: rule(100), login: rule(3), failedInviteCodes: rule(2) } } })
  const from = { remoteAddress: '192.0.2.50' }
  for (const code of ['CODE-AAAAAA', 'CODE-BBBBBB']) {
    const res = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'guesser', invite_code: code }, ...from })
    t.same([res.statusCode, res.json()], [403, { error: 'invalid or revoked invite code' }])
  }
  const valid = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 5 })).json()
  expect429(t, await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'guesser', invite_code: valid.code }, ...from }), 'failed invite codes')
  t.equal(node.resolve('accounts').user('guesser'), undefined, 'no account from the refused request')
  const queued = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'guesser' }, ...from })
  t.equal(queued.json().status, 'pending', 'a signup without a code is not a guess')
  const honest = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'honest', invite_code: valid.code }, remoteAddress: '192.0.2.51' })
  t.equal(honest.json().status, 'approved', 'another address redeems the code')
  // successful codes do not count
  for (const name of ['h1', 'h2', 'h3']) {
    const res = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name, invite_code: valid.code }, remoteAddress: '192.0.2.51' })
    t.equal(res.json().status, 'approved', `${name} joins`)
  }
})

t.test('X-Forwarded-For is the client address only when http.trustProxy is set', async (t) => {
  await t.test('not trusted: a forged header does not buy a fresh budget', async (t) => {
    const node = await chatNode(t)
    for (let i = 0; i < 3; i++) {
      const res = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: `f${i}` }, headers: { 'x-forwarded-for': `10.0.0.${i}` }, remoteAddress: '127.0.0.1' })
      t.equal(res.statusCode, 200)
      t.equal(node.resolve('accounts').pendingList().find((p) => p.name === `f${i}`)?.ip, '127.0.0.1', 'the queue records the socket address')
    }
    expect429(t, await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'f3' }, headers: { 'x-forwarded-for': '10.0.0.9' }, remoteAddress: '127.0.0.1' }), 'signups')
  })
  await t.test('trusted: each forwarded client has its own budget', async (t) => {
    const node = await chatNode(t, { http: { port: 0, trustProxy: true } })
    for (let i = 0; i < 4; i++) {
      const res = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: `g${i}` }, headers: { 'x-forwarded-for': `10.0.0.${i}` }, remoteAddress: '127.0.0.1' })
      t.equal(res.statusCode, 200, `client 10.0.0.${i}`)
    }
    t.equal(node.resolve('accounts').pendingList().find((p) => p.name === 'g2')?.ip, '10.0.0.2', 'the queue records the forwarded address')
    for (let i = 0; i < 3; i++) await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: `h${i}` }, headers: { 'x-forwarded-for': '10.0.0.77' }, remoteAddress: '127.0.0.1' })
    expect429(t, await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'h3' }, headers: { 'x-forwarded-for': '10.0.0.77' }, remoteAddress: '127.0.0.1' }), 'signups')
  })
})

t.test('the defaults are a person\'s pace many times over', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  for (let i = 0; i < 30; i++) {
    const res = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: `quick${i}` } })
    t.equal(res.statusCode, 200)
  }
  t.equal((node.kernel.config.messenger as { rateLimits?: { signup?: { max?: number } } } | undefined)?.rateLimits?.signup?.max, 60, 'default: 60 signups a minute')
})
