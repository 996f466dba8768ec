// GET /api/stream over a real port (SPEC 6, DESIGN 5): auth and Accept, event payloads from
// the hook bus, filters, heartbeats, ids and Last-Event-ID, dedupe across a reorg, session
// revocation, receipts, and a reader too slow to keep up.
import t from 'tap'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { startChatNode, sessionCookie } from '../messenger/fixtures/chat-node.ts'
import { openSse, payloads } from './fixtures/sse-client.ts'
import type { SseClient } from './fixtures/sse-client.ts'
import { devWallet, mineBlock, transfer, generateWallet, TEST_BITS } from '../../helpers/chain.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'
import { waitFor } from '../../helpers/wait.ts'
import type { Block, Transaction } from '../../../core/chain/types.ts'

t.test('event stream', async (t) => {
  const node = await startChatNode({ config: { stream: { heartbeatSeconds: 0.2 } } })
  const clients: SseClient[] = []
  t.teardown(async () => { for (const c of clients) c.close(); await node.stop() })
  const { app } = node
  const chain = node.resolve('chain')
  const mempool = node.resolve('mempool')
  const params = node.kernel.params
  const port = (app.server.address() as AddressInfo).port
  const url = (path: string): string => `http://127.0.0.1:${port}${path}`
  const open = async (o: Parameters<typeof openSse>[1]): Promise<SseClient> => {
    const c = await openSse(port, o)
    clients.push(c)
    return c
  }

  await node.fundFaucet()
  const invite = (await node.admin('POST', '/api/admin/invites/create', {})).json().code
  const join = async (name: string): Promise<{ cookie: string; address: string }> => {
    const res = await app.inject({ method: 'POST', url: '/api/signup', payload: { name, invite_code: invite } })
    return { cookie: sessionCookie(res), address: res.json().address }
  }
  const alice = await join('alice')
  const bob = await join('bob')
  await node.mine()

  await t.test('needs a session (401) and Accept: text/event-stream (406)', async (t) => {
    const none = await fetch(url('/api/stream'), { headers: { accept: 'text/event-stream' } })
    t.equal(none.status, 401)
    t.same(await none.json(), { error: 'no session present' })
    const stale = await fetch(url('/api/stream'), { headers: { accept: 'text/event-stream', cookie: 'session=00' } })
    t.equal(stale.status, 401)
    for (const accept of [undefined, 'application/json', '*/*']) {
      const res = await fetch(url('/api/stream'), { headers: { cookie: alice.cookie, ...(accept === undefined ? {} : { accept }) } })
      t.equal(res.status, 406, `Accept ${accept ?? 'missing'}`)
      t.type((await res.json()).error, 'string')
    }
    const bad = await fetch(url('/api/stream?address=nothex'), { headers: { cookie: alice.cookie, accept: 'text/event-stream' } })
    t.equal(bad.status, 400)
  })

  const all = await open({ cookie: alice.cookie })
  const blocksOnly = await open({ cookie: alice.cookie, query: '?types=block' })
  const aliceOnly = await open({ cookie: bob.cookie, query: `?address=${alice.address.toUpperCase()}` })
  const aliceVm = await open({ cookie: bob.cookie, query: `?address=0x${vmAddressOf(alice.address)}` })
  const aliceMessages = await open({ cookie: bob.cookie, query: `?types=message,bogus&address=${alice.address}` })
  const bobStream = await open({ cookie: bob.cookie })

  await t.test('the response is an open text/event-stream', async (t) => {
    t.equal(all.status, 200)
    t.match(all.headers['content-type'], /^text\/event-stream/)
    t.match(all.headers['cache-control'], /no-cache/)
  })

  const dev = devWallet()
  let transferTx: Transaction | undefined
  let firstBlock: Block | undefined
  await t.test('messages (pending then confirmed), blocks and transfers arrive with their SPEC 6 fields', async (t) => {
    t.equal((await app.inject({ method: 'POST', url: '/api/send', headers: { cookie: alice.cookie }, payload: { text: 'hi from alice' } })).statusCode, 200)
    t.equal((await app.inject({ method: 'POST', url: '/api/send', headers: { cookie: bob.cookie }, payload: { text: 'hi from bob' } })).statusCode, 200)
    await all.waitFor('two pending messages', () => payloads(all, 'message').length === 2)
    firstBlock = await node.mine()
    transferTx = transfer(params, dev, alice.address, 3, mempool.nextNonce(dev.address))
    mempool.add(transferTx)
    await node.mine()
    await all.waitFor('4 messages, 2 blocks, 1 tx', () => payloads(all, 'message').length === 4 && payloads(all, 'block').length === 2 && payloads(all, 'tx').length === 1)

    const [pending] = payloads(all, 'message')
    t.same(Object.keys(pending ?? {}).sort(), ['address', 'block', 'sender', 'sender_address', 'status', 'text', 'timestamp', 'transaction_id', 'tx_id'])
    t.match(pending, { sender: 'alice', sender_address: alice.address, address: alice.address, text: 'hi from alice', status: 'pending', block: null })
    t.match(pending?.tx_id, /^[0-9a-f]{16}$/)
    const confirmed = payloads(all, 'message').filter((m) => m.status === 'confirmed')
    t.equal(confirmed.length, 2)
    t.ok(confirmed.every((m) => m.block === firstBlock?.height))

    const block = payloads(all, 'block')[0]
    t.same(block, {
      height: firstBlock?.height,
      hash: firstBlock?.hash,
      previous_hash: firstBlock?.previous_hash,
      timestamp: firstBlock?.timestamp,
      tx_count: firstBlock?.transactions.length,
      miner: firstBlock?.miner,
      difficulty: firstBlock?.difficulty,
      quantum_verified: true
    })
    const tx = payloads(all, 'tx')[0]
    t.match(tx, { tx_id: transferTx.transaction_id, sender: dev.address, recipient: alice.address, kind: 'transfer', to: null, selector: null, arg_count: null, amount: 3, fee: transferTx.fee, block_height: (firstBlock?.height ?? 0) + 1 })
    t.equal(payloads(all, 'tx').some((x) => x.kind === 'coinbase'), false, 'coinbase transactions are not tx events')

    const ids = all.frames.map((f) => Number(f.id))
    t.ok(ids.every((id, i) => Number.isSafeInteger(id) && (i === 0 || id > (ids[i - 1] ?? 0))), 'every event has an increasing id')
  })

  await t.test('filters: types, address in either form, AND', async (t) => {
    await blocksOnly.waitFor('2 blocks', () => blocksOnly.frames.length === 2)
    t.ok(blocksOnly.frames.every((f) => f.data.type === 'block'))
    await aliceOnly.waitFor('alice: 2 messages and the transfer', () => aliceOnly.frames.length === 3)
    t.same(aliceOnly.frames.map((f) => f.data.type).sort(), ['message', 'message', 'tx'])
    await aliceVm.waitFor('the same by VM address', () => aliceVm.frames.length === 3)
    t.same(aliceVm.frames.map((f) => f.id), aliceOnly.frames.map((f) => f.id))
    await aliceMessages.waitFor('alice messages only', () => aliceMessages.frames.length === 2)
    t.ok(payloads(aliceMessages, 'message').every((m) => m.address === alice.address))
    // nothing more trickles in for the filtered streams once the unfiltered one has seen it all
    t.equal(blocksOnly.frames.length, 2)
    t.equal(aliceOnly.frames.length, 3)
  })

  await t.test('heartbeat comments on the (test) interval', async (t) => {
    await all.waitFor('a heartbeat', () => all.comments.includes('heartbeat'))
    await blocksOnly.waitFor('a heartbeat', () => blocksOnly.comments.includes('heartbeat'))
    t.pass('":heartbeat" received')
  })

  await t.test('Last-Event-ID replays what the server still holds', async (t) => {
    const seen = all.frames.map((f) => f.id)
    const again = await open({ cookie: alice.cookie, lastEventId: seen[1] ?? '' })
    await again.waitFor('replay', () => again.frames.length === seen.length - 2)
    t.same(again.frames.map((f) => f.id), seen.slice(2))
  })

  await t.test('a reorg does not repeat blocks or transactions', async (t) => {
    const before = { blocks: payloads(all, 'block').length, txs: payloads(all, 'tx').length }
    const forkBase = chain.tip()
    const t2 = transfer(params, dev, bob.address, 1, mempool.nextNonce(dev.address))
    const x = mineBlock(params, forkBase, { txs: [t2], miner: generateWallet().address, timestamp: forkBase.timestamp + 1 })
    await chain.processBlock(x, 'test')
    await all.waitFor('block x and its transfer', () => payloads(all, 'block').length === before.blocks + 1 && payloads(all, 'tx').length === before.txs + 1)
    const y1 = mineBlock(params, forkBase, { txs: [t2], miner: generateWallet().address, timestamp: forkBase.timestamp + 2 })
    const y2 = mineBlock(params, { hash: y1.hash, height: y1.height, timestamp: y1.timestamp }, { miner: generateWallet().address })
    t.equal((await chain.processBlock(y1, 'test')).status, 'side')
    t.equal((await chain.processBlock(y2, 'test')).status, 'reorg')
    await all.waitFor('block y2', () => payloads(all, 'block').some((b) => b.hash === y2.hash))
    const heights = payloads(all, 'block').map((b) => b.height)
    t.equal(new Set(heights).size, heights.length, 'one block event per height')
    t.equal(payloads(all, 'tx').filter((x) => x.tx_id === t2.transaction_id).length, 1, 'the re-confirmed transfer is announced once')
  })

  await t.test('receipts of contract transactions (announced the way the chain does)', async (t) => {
    const contract = 'c'.repeat(40)
    const deploy: Transaction = { sender: alice.address, recipient: 'contract', amount: 0, timestamp: Date.now() / 1000, transaction_id: 'd'.repeat(64), signature: '00', fee: 0.01, data: { type: 'deploy', code: '00', gas_limit: 100000 }, nonce: 9 }
    const receipt = { type: 'deploy' as const, contract, success: true, gas_used: 21000, logs: [{ address: contract, topics: ['e'.repeat(64)], data: '' }], error: null }
    const byContract = await open({ cookie: alice.cookie, query: `?address=0x${contract}` })
    const ref = { height: 10_000, hash: 'f'.repeat(128) }
    const block = { ...x0(), height: ref.height, hash: ref.hash, transactions: [deploy] }
    node.kernel.hooks.blockConnected.call({ block, receipts: [{ tx_id: deploy.transaction_id, receipt }], reorg: false, syncing: false })
    node.kernel.hooks.txConfirmed.call({ tx: deploy, block: ref, index: 0 })
    node.kernel.hooks.receiptWritten.call({ tx_id: deploy.transaction_id, receipt, block: ref })
    await all.waitFor('the receipt', () => payloads(all, 'receipt').length === 1)
    t.same(payloads(all, 'receipt')[0], { tx_id: deploy.transaction_id, block_height: ref.height, ...receipt })
    t.match(payloads(all, 'tx').at(-1), { kind: 'deploy', tx_id: deploy.transaction_id })
    await byContract.waitFor('deploy tx and receipt by contract address', () => byContract.frames.length === 2)
    t.same(byContract.frames.map((f) => f.data.type), ['tx', 'receipt'])
  })

  await t.test('blocking a user ends their open stream', async (t) => {
    await node.admin('POST', '/api/admin/block', { name: 'bob' })
    await bobStream.ended
    t.pass('stream closed')
    t.equal(aliceOnly.frames.length > 0, true, 'a stream opened with bob\'s session is closed too')
    await aliceOnly.ended
  })

  await t.test('a reader that stops reading loses events silently; others and the chain are unaffected', async (t) => {
    const slow = net.connect(port, '127.0.0.1')
    await new Promise<void>((resolve) => slow.once('connect', () => resolve()))
    // the response head is flushed in the same turn as the stream joins the hub
    const head = new Promise<void>((resolve) => slow.once('data', () => resolve()))
    slow.write(`GET /api/stream?types=message HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nCookie: ${alice.cookie}\r\n\r\n`)
    await head
    slow.pause()
    const fast = await open({ cookie: alice.cookie, query: '?types=message' })
    const memo = 'x'.repeat(60_000)
    const published = 400
    const base = transfer(params, dev, dev.address, 0, 0, { data: { memo } })
    // in bursts of 16 that a reading client keeps up with (a single burst of 400 would
    // overflow any client's queue, which is the rule working as specified)
    for (let i = 0; i < published; i++) {
      node.kernel.hooks.messageSeen.call({ tx: { ...base, transaction_id: i.toString(16).padStart(64, '0') }, status: 'pending', block: null })
      if (i % 16 === 15) await fast.waitFor(`message ${i} on the fast stream`, () => fast.frames.length === i + 1)
    }
    await fast.waitFor('every message on the fast stream', () => fast.frames.length === published)
    t.pass('the fast reader got all of them')
    let received = ''
    slow.on('data', (d: Buffer) => { received += d.toString('latin1') })
    slow.resume()
    // a heartbeat is skipped while events wait for the socket: one after the last event means
    // everything the server kept for this reader has arrived
    await waitFor('a heartbeat after the last event on the slow stream', () => received.lastIndexOf(':heartbeat') > received.lastIndexOf('\ndata: '))
    slow.destroy()
    const frames = received.split('\ndata: ').length - 1
    t.ok(frames > 0, `the slow reader got ${frames} frames`)
    t.ok(frames < published, 'and lost the rest once its queue of 64 was full')
    t.equal((await node.mine()).height, chain.tip().height, 'the chain goes on')
  })
})

function x0 (): Omit<Block, 'height' | 'hash' | 'transactions'> {
  return { version: 2, timestamp: Date.now() / 1000, previous_hash: '0'.repeat(128), merkle_root: '0'.repeat(128), difficulty: 1, bits: TEST_BITS, miner: 'a'.repeat(32), nonce: 0, quantum_signature: null }
}
