// Issue 12 item 10 on the public server: state-changing requests take JSON bodies only (415)
// from this server's own origin (403); the session cookie is Secure on HTTPS requests.
import t from 'tap'
import { startChatNode, ADMIN_AUTH } from '../messenger/fixtures/chat-node.ts'

t.test('cross-site requests', async (t) => {
  const node = await startChatNode({ config: { http: { port: 0, allowedOrigins: ['https://chat.example.org'] } } })
  t.teardown(() => node.stop())
  const { app } = node
  const accounts = node.resolve('accounts')
  const host = 'node.example:8081'

  await t.test('a cross-site <form enctype=text/plain> with cached Basic credentials creates no invite', async (t) => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/invites/create',
        headers: { authorization: ADMIN_AUTH, 'content-type': contentType, origin: 'https://evil.example', host },
        payload: '{"max_uses":1,"pad":"="}'
      })
      t.equal(res.statusCode, 415, contentType)
      t.same(res.json(), { error: 'unsupported content type; send application/json' })
    }
    const noType = await app.inject({ method: 'POST', url: '/api/admin/invites/create', headers: { authorization: ADMIN_AUTH, host }, payload: Buffer.from('{"max_uses":1}') })
    t.equal(noType.statusCode, 415, 'a body without a content type')
    t.equal(accounts.invites().length, 0)
  })

  await t.test('a JSON request from a foreign origin is refused: admin, messenger, playground-style POSTs', async (t) => {
    for (const [url, headers, payload] of [
      ['/api/admin/invites/create', { authorization: ADMIN_AUTH }, { max_uses: 1 }],
      ['/api/admin/block', { authorization: ADMIN_AUTH }, { name: 'victim' }],
      ['/api/signup', {}, { name: 'viaevil' }],
      ['/api/login', {}, { name: 'x', token: 'y' }],
      ['/api/send', {}, { text: 'hi' }],
      ['/api/logout', {}, undefined]
    ] as const) {
      for (const origin of ['https://evil.example', 'null', 'http://node.example:9999', 'http://node.example.evil.example:8081']) {
        const res = await app.inject({ method: 'POST', url, headers: { ...headers, origin, host }, ...(payload === undefined ? {} : { payload }) })
        t.equal(res.statusCode, 403, `${url} from ${origin}`)
        t.same(res.json(), { error: `cross-site request refused: origin ${origin} is not this server` })
      }
      const fetchMeta = await app.inject({ method: 'POST', url, headers: { ...headers, 'sec-fetch-site': 'cross-site', host }, ...(payload === undefined ? {} : { payload }) })
      t.equal(fetchMeta.statusCode, 403, `${url} with Sec-Fetch-Site: cross-site and no Origin`)
    }
    t.equal(accounts.invites().length, 0)
    t.equal(accounts.isBlocked('victim'), false)
    t.equal(accounts.pendingList().length, 0)
  })

  await t.test('the same origin, a configured origin and non-browser clients pass', async (t) => {
    const same = await app.inject({ method: 'POST', url: '/api/admin/invites/create', headers: { authorization: ADMIN_AUTH, origin: `http://${host}`, host }, payload: { max_uses: 1 } })
    t.equal(same.statusCode, 200, 'same origin')
    const sameTls = await app.inject({ method: 'POST', url: '/api/signup', headers: { origin: 'https://node.example', host: 'node.example:443' }, payload: { name: 'tls_user' } })
    t.equal(sameTls.statusCode, 200, 'default ports compare equal')
    const listed = await app.inject({ method: 'POST', url: '/api/signup', headers: { origin: 'https://chat.example.org', host }, payload: { name: 'listed' } })
    t.equal(listed.statusCode, 200, 'http.allowedOrigins')
    const curl = await app.inject({ method: 'POST', url: '/api/signup', headers: { 'content-type': 'application/json; charset=utf-8' }, payload: JSON.stringify({ name: 'curl_user' }) })
    t.equal(curl.statusCode, 200, 'no Origin: not a browser')
    const logout = await app.inject({ method: 'POST', url: '/api/logout', headers: { origin: `http://${host}`, host } })
    t.equal(logout.statusCode, 200, 'a POST without a body needs no content type')
    // a read changes nothing, and without CORS headers the foreign page cannot see the answer
    t.equal((await app.inject({ method: 'GET', url: '/api/admin/users', headers: { authorization: ADMIN_AUTH, origin: 'https://evil.example' } })).statusCode, 200, 'reads are not guarded')
  })
})

t.test('the session cookie is Secure when the request came over HTTPS', async (t) => {
  let logins = 0
  const login = async (node: Awaited<ReturnType<typeof startChatNode>>, headers: Record<string, string>) => {
    const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 5 })).json()
    const name = `user-${++logins}`
    const res = await node.app.inject({ method: 'POST', url: '/api/signup', headers, payload: { name, invite_code: invite.code } })
    return res.cookies.find((c) => c.name === 'session')
  }
  await t.test('behind a trusted proxy, X-Forwarded-Proto: https makes it Secure', async (t) => {
    const node = await startChatNode({ config: { http: { port: 0, trustProxy: ['127.0.0.1'] } } })
    t.teardown(() => node.stop())
    t.equal((await login(node, { 'x-forwarded-proto': 'https' }))?.secure, true)
    t.not((await login(node, {}))?.secure, true, 'plain HTTP: not Secure (the browser would drop it)')
    // the proxy rewrote Host to the node's own address; X-Forwarded-Host carries the public name
    const forwarded = { host: '127.0.0.1:8081', 'x-forwarded-host': 'chat.example.org', 'x-forwarded-proto': 'https' }
    const viaProxy = await node.app.inject({ method: 'POST', url: '/api/signup', headers: { ...forwarded, origin: 'https://chat.example.org' }, payload: { name: 'proxied' } })
    t.equal(viaProxy.statusCode, 200, 'the public origin matches the forwarded host')
    const foreign = await node.app.inject({ method: 'POST', url: '/api/signup', headers: { ...forwarded, origin: 'https://evil.example' }, payload: { name: 'proxied2' } })
    t.equal(foreign.statusCode, 403)
  })
  await t.test('without trustProxy the header is ignored', async (t) => {
    const node = await startChatNode()
    t.teardown(() => node.stop())
    t.not((await login(node, { 'x-forwarded-proto': 'https' }))?.secure, true)
    const forged = await node.app.inject({ method: 'POST', url: '/api/signup', headers: { host: '127.0.0.1:8081', 'x-forwarded-host': 'evil.example', origin: 'https://evil.example' }, payload: { name: 'forged' } })
    t.equal(forged.statusCode, 403, 'an untrusted X-Forwarded-Host does not make a foreign origin ours')
  })
})
