// The node-local event stream GET {dashboard_url}/api/events/stream (issue 16 item 1): node
// events from the hooks in real flows, framed like /api/stream (ids, one-line JSON, types
// filter, Last-Event-ID replay), and never on the public /api/stream, whose SPEC 6 event set
// they are not part of (and which every logged-in user reads).
import t from 'tap'
import type { AddressInfo } from 'node:net'
import { CHAT_PLUGINS, startChatNode, sessionCookie } from '../messenger/fixtures/chat-node.ts'
import { openSse } from './fixtures/sse-client.ts'
import type { SseClient, SseOptions } from './fixtures/sse-client.ts'
import { mineBlock } from '../../helpers/chain.ts'
import { BlockErrorCode } from '../../../core/chain/errors.ts'

const NODE_STREAM = '/api/events/stream'

t.test('node-local event stream', async (t) => {
  const node = await startChatNode({ plugins: [...CHAT_PLUGINS, 'dashboard'], config: { stream: { heartbeatSeconds: 0.2 } } })
  const clients: SseClient[] = []
  let stopped = false
  t.teardown(async () => { for (const c of clients) c.close(); if (!stopped) await node.stop() })
  const chain = node.resolve('chain')
  const dashPort = (node.resolve('dashboardHttp').server.address() as AddressInfo).port
  const publicPort = (node.app.server.address() as AddressInfo).port
  const open = async (port: number, o: SseOptions): Promise<SseClient> => {
    const c = await openSse(port, o)
    clients.push(c)
    return c
  }
  const types = (c: SseClient): unknown[] => c.frames.map((f) => f.data.type)

  await t.test('needs Accept: text/event-stream (406)', async (t) => {
    const res = await fetch(`http://127.0.0.1:${dashPort}${NODE_STREAM}`)
    t.equal(res.status, 406)
    t.type((await res.json()).error, 'string')
  })

  await node.fundFaucet()
  const invite = (await node.admin('POST', '/api/admin/invites/create', {})).json().code
  const signup = await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'alice', invite_code: invite } })
  const cookie = sessionCookie(signup)

  const all = await open(dashPort, { path: NODE_STREAM })
  const rejectedOnly = await open(dashPort, { path: NODE_STREAM, query: '?types=block_rejected,bogus' })
  const publicStream = await open(publicPort, { cookie })
  t.equal(all.status, 200)
  t.match(all.headers['content-type'], /^text\/event-stream/)

  const tip = chain.tip()
  const bad = mineBlock(node.kernel.params, { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }, { difficulty: 3 })
  await t.rejects(chain.processBlock(bad, 'test'))

  await t.test('a refused block arrives with hash, code, reason and origin', async (t) => {
    await all.waitFor('block_rejected', () => types(all).includes('block_rejected'))
    const frame = all.frames.find((f) => f.data.type === 'block_rejected')
    t.match(frame?.data, { type: 'block_rejected', hash: bad.hash, code: BlockErrorCode.BAD_DIFFICULTY, reason: /outside the network's bounds/, origin: 'test' })
    t.match(frame?.id, /^\d+$/, 'each event carries an id')
    t.type(frame?.data.at, 'number')
  })

  await t.test('types= filters by node event type', async (t) => {
    await rejectedOnly.waitFor('block_rejected', () => types(rejectedOnly).includes('block_rejected'))
    t.same([...new Set(types(rejectedOnly))], ['block_rejected'])
  })

  await t.test('the public stream never carries node events', async (t) => {
    const block = await node.mine()
    await publicStream.waitFor('the next block', () => publicStream.frames.some((f) => f.data.type === 'block' && (f.data.block as { height: number }).height === block.height))
    t.same(types(publicStream).filter((type) => !['message', 'tx', 'block', 'receipt'].includes(type as string)), [], 'only SPEC 6 event types')
  })

  await t.test('Last-Event-ID replays what the node still holds', async (t) => {
    const replay = await open(dashPort, { path: NODE_STREAM, lastEventId: '0' })
    await replay.waitFor('the replayed events', () => types(replay).includes('node_started') && types(replay).includes('block_rejected'))
    t.ok(types(replay).indexOf('node_started') < types(replay).indexOf('block_rejected'), 'in the order they happened')
  })

  await t.test('a stopping node says so, then ends the stream', async (t) => {
    stopped = true
    await node.stop()
    await all.ended
    t.equal(all.frames.at(-1)?.data.type, 'node_stopping')
  })
})

t.test('the node-local stream is not on the public server', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  const res = await node.app.inject({ method: 'GET', url: NODE_STREAM, headers: { accept: 'text/event-stream' } })
  t.equal(res.statusCode, 404, 'not on the public server')
})

t.test('with requireAuth the node-local stream needs the API key', async (t) => {
  const node = await startChatNode({ plugins: [...CHAT_PLUGINS, 'dashboard'], config: { dashboard: { requireAuth: true } } })
  t.teardown(() => node.stop())
  const res = await node.resolve('dashboardHttp').inject({ method: 'GET', url: NODE_STREAM, headers: { accept: 'text/event-stream' } })
  t.equal(res.statusCode, 401)
})
