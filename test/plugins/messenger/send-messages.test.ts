// POST /api/send and GET /api/messages (SPEC 4.3, 7, 8): messages are signed zero-amount
// transfers read back from the mempool and the chain's message index.
import t from 'tap'
import { startChatNode, sessionCookie } from './fixtures/chat-node.ts'
import { verifyTxSignature } from '../../../core/chain/tx.ts'
import { walletAddressFromPublicKey } from '../../../core/chain/address.ts'

t.test('sending and reading messages', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  const { app } = node
  const mempool = node.resolve('mempool')
  const chain = node.resolve('chain')
  const params = node.kernel.params
  await node.fundFaucet()

  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 5 })).json().code as string
  const join = async (name: string): Promise<{ cookie: string; address: string }> => {
    const res = await app.inject({ method: 'POST', url: '/api/signup', payload: { name, invite_code: invite } })
    return { cookie: sessionCookie(res), address: res.json().address }
  }
  const alice = await join('alice')
  const bob = await join('bob')
  await node.mine() // confirms both faucet drips
  const send = async (cookie: string | null, payload: unknown) => await app.inject({ method: 'POST', url: '/api/send', headers: cookie === null ? {} : { cookie }, payload: payload as Record<string, unknown> })
  const messages = async (cookie: string, query = '') => await app.inject({ method: 'GET', url: `/api/messages${query}`, headers: { cookie } })

  await t.test('send needs a session and 1-512 chars of text', async (t) => {
    const none = await send(null, { text: 'hi' })
    t.equal(none.statusCode, 401)
    t.same(none.json(), { error: 'no session present' })
    for (const payload of [{}, { text: '' }, { text: 'x'.repeat(513) }, { text: 42 }, { text: '   ' }, { text: '\n\t ' }]) {
      const res = await send(alice.cookie, payload)
      t.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 40))
      t.same(res.json(), { error: 'text must be 1-512 chars' })
    }
  })

  let firstId = ''
  await t.test('a message is a zero-amount transfer to oneself, signed by the user wallet, text in data.memo', async (t) => {
    const res = await send(alice.cookie, { text: 'hello, chain' })
    t.equal(res.statusCode, 200)
    t.match(res.json(), { status: 'submitted', pending: true })
    firstId = res.json().tx_id
    const tx = mempool.get(firstId)
    t.ok(tx, 'in the mempool')
    if (tx === undefined) return
    t.equal(tx.sender, alice.address)
    t.equal(tx.recipient, alice.address, 'recipient is the sender itself')
    t.equal(tx.amount, 0)
    t.equal(tx.fee, params.minFeeCoin)
    t.equal(tx.data.memo, 'hello, chain')
    t.type(tx.data.public_key, 'string', 'the first transaction carries the public key')
    const key = Buffer.from(tx.data.public_key as string, 'hex')
    t.equal(walletAddressFromPublicKey(key), alice.address)
    t.ok(verifyTxSignature(tx, key), 'ML-DSA-87 signature verifies')
  })

  await t.test('more than one message per 5 seconds per address answers 429', async (t) => {
    const res = await send(alice.cookie, { text: 'again' })
    t.equal(res.statusCode, 429)
    t.match(res.json().error, /^rate limit: wait [1-5] seconds$/)
    t.match(res.headers['retry-after'], /^[1-5]$/)
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { name: 'alice', token: node.resolve('accounts').user('alice')?.login_token } })
    const other = await send(sessionCookie(login), { text: 'from another session' })
    t.equal(other.statusCode, 429, 'keyed by address, not by session')
    const bobs = await send(bob.cookie, { text: 'hi alice' })
    t.equal(bobs.statusCode, 200, 'another address is not limited')
  })

  await t.test('messages: pending first, then confirmed, newest first, with names', async (t) => {
    const none = await app.inject({ method: 'GET', url: '/api/messages' })
    t.equal(none.statusCode, 401)
    t.same(none.json(), { error: 'no session present' })

    const before = (await messages(alice.cookie)).json()
    t.equal(before.count, 2)
    t.match(before.messages[0], { sender: 'bob', address: bob.address, text: 'hi alice', status: 'pending', block: null })
    t.match(before.messages[1], { sender: 'alice', address: alice.address, text: 'hello, chain', status: 'pending', block: null, tx_id: firstId.slice(0, 16), transaction_id: firstId })
    t.type(before.messages[1].timestamp, 'number')

    const block = await node.mine()
    const after = (await messages(alice.cookie)).json()
    t.equal(after.count, 2)
    t.ok(after.messages.every((m: { status: string; block: number }) => m.status === 'confirmed' && m.block === block.height), 'both confirmed in the block')
    t.equal(after.messages[0].text, 'hi alice', 'chain order: later in the block is newer')
    t.equal(chain.getAccount(alice.address).publicKey !== null, true, 'the key is now on chain')
    t.equal(mempool.size, 0)
  })

  await t.test('a user whose wallet cannot pay the fee is told so; pending is listed above confirmed', async (t) => {
    const carol = await join('carol')
    const broke = await send(carol.cookie, { text: 'carol here' })
    t.equal(broke.statusCode, 400, 'the faucet drip is not confirmed yet')
    t.same(broke.json(), { error: 'insufficient balance for the message fee' })
    await node.mine()
    const sent = await send(carol.cookie, { text: 'carol here' })
    t.equal(sent.statusCode, 200, 'a refused message does not count against the rate limit')
    const list = (await messages(alice.cookie)).json().messages
    t.match(list[0], { sender: 'carol', text: 'carol here', status: 'pending', block: null })
    t.equal(list[1].status, 'confirmed')
  })

  await t.test('limit: default 50, at most 200, non-integers refused', async (t) => {
    const one = (await messages(alice.cookie, '?limit=1')).json()
    t.equal(one.count, 1)
    t.equal(one.messages.length, 1)
    const big = await messages(alice.cookie, '?limit=5000')
    t.equal(big.statusCode, 200, 'an over-large limit is clamped')
    const bad = await messages(alice.cookie, '?limit=abc')
    t.equal(bad.statusCode, 400)
    t.type(bad.json().error, 'string')
  })
})
