// Streams one client may hold (issue 31 item 4, "Slow clients": SSE had one global cap of
// 10,000 and none per session or address): over the session's or the address's cap a new
// stream is a 429 in the one error shape; a closed stream gives its slot back. The node-local
// stream on the dashboard counts per address too.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import { CHAT_PLUGINS, sessionCookie, startChatNode } from '../messenger/fixtures/chat-node.ts'
import { openSse } from './fixtures/sse-client.ts'
import type { SseClient } from './fixtures/sse-client.ts'
import { waitFor } from '../../helpers/wait.ts'

t.test('per-session and per-address stream caps: 429 with a clear error, slots come back on close', async (t) => {
  const node = await startChatNode({ plugins: [...CHAT_PLUGINS, 'dashboard'], config: { stream: { maxConnectionsPerSession: 2, maxConnectionsPerAddress: 3 } } })
  const clients: SseClient[] = []
  t.teardown(async () => { for (const c of clients) c.close(); await node.stop() })
  const port = (node.app.server.address() as AddressInfo).port
  const signup = async (name: string): Promise<string> => {
    const code = (await node.admin('POST', '/api/admin/invites/create', {})).json().code as string
    return sessionCookie(await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name, invite_code: code } }))
  }
  const alice = await signup('alice')
  const bob = await signup('bob')
  const open = async (cookie: string): Promise<SseClient> => {
    const c = await openSse(port, { cookie })
    clients.push(c)
    return c
  }
  // one more stream, asked through inject (the same client address, 127.0.0.1) to read the refusal's body
  const refusal = async (cookie: string): Promise<{ status: number; body: unknown; retryAfter: unknown }> => {
    const res = await node.app.inject({ method: 'GET', url: '/api/stream', headers: { cookie, accept: 'text/event-stream' } })
    return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] }
  }

  t.same([(await open(alice)).status, (await open(alice)).status], [200, 200])
  t.same(await refusal(alice), { status: 429, body: { error: 'too many open streams for this session (at most 2); close one first' }, retryAfter: '30' })
  t.equal((await open(bob)).status, 200, 'another session from the same address still gets one')
  t.same(await refusal(bob), { status: 429, body: { error: 'too many open streams from this address (at most 3); close one first' }, retryAfter: '30' })

  clients[0]?.close()
  await waitFor('alice\'s closed stream to give its slot back', async () => {
    const c = await openSse(port, { cookie: alice })
    clients.push(c)
    return c.status === 200
  })
  t.pass('a closed stream frees its slot')

  const dash = node.resolve('dashboardHttp')
  const dashPort = (dash.server.address() as AddressInfo).port
  const local: SseClient[] = []
  t.teardown(() => { for (const c of local) c.close() })
  for (let i = 0; i < 3; i++) local.push(await openSse(dashPort, { path: '/api/events/stream' }))
  t.same(local.map((c) => c.status), [200, 200, 200])
  const over = await dash.inject({ method: 'GET', url: '/api/events/stream', headers: { accept: 'text/event-stream' } })
  t.equal(over.statusCode, 429)
  t.same(over.json(), { error: 'too many open streams from this address (at most 3); close one first' })
})
