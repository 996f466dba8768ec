// SPEC 6 at scale: 1,000 idle stream connections are held at once and every one of them
// receives an event published after they connected.
import t from 'tap'
import type { AddressInfo } from 'node:net'
import { startChatNode, sessionCookie } from '../messenger/fixtures/chat-node.ts'
import { openSse } from './fixtures/sse-client.ts'
import type { SseClient } from './fixtures/sse-client.ts'
import { devWallet, transfer } from '../../helpers/chain.ts'

const CONNECTIONS = 1000

t.test(`${CONNECTIONS} idle connections each receive a published event`, async (t) => {
  // one address and one session here: the per-client caps (test/plugins/stream/caps.test.ts) raised
  const node = await startChatNode({
    plugins: ['storage', 'consensus', 'http', 'messenger', 'admin', 'stream'],
    config: { http: { limits: { maxConnectionsPerAddress: 2 * CONNECTIONS } }, stream: { maxConnectionsPerSession: CONNECTIONS, maxConnectionsPerAddress: CONNECTIONS } }
  })
  const clients: SseClient[] = []
  t.teardown(async () => { for (const c of clients) c.close(); await node.stop() })
  const port = (node.app.server.address() as AddressInfo).port
  const invite = (await node.admin('POST', '/api/admin/invites/create', {})).json().code
  const cookie = sessionCookie(await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'watcher', invite_code: invite } }))

  for (let i = 0; i < CONNECTIONS; i += 100) {
    clients.push(...await Promise.all(Array.from({ length: 100 }, async () => await openSse(port, { cookie, query: '?types=message' }))))
  }
  t.equal(clients.filter((c) => c.status === 200).length, CONNECTIONS, 'all connections accepted')

  const dev = devWallet()
  const tx = transfer(node.kernel.params, dev, dev.address, 0, 0, { data: { memo: 'hello, everyone' } })
  node.kernel.hooks.messageSeen.call({ tx, status: 'pending', block: null })
  await Promise.all(clients.map(async (c) => { await c.waitFor('the message', () => c.frames.length === 1, 20_000) }))
  t.ok(clients.every((c) => (c.frames[0]?.data.msg as { text: string }).text === 'hello, everyone'), 'every connection got it')
})
