// POST /api/tx/submit (SPEC 2.3, 4.1; DESIGN 5): 200 accepted with tx_id, 400 rejected with
// the mempool's reason, 400 naming the field for a body of the wrong shape, 413 over 1 MiB.
import t from 'tap'
import { generateWallet, transfer } from '../../helpers/chain.ts'
import { startDashboardNode } from './fixtures/dashboard-node.ts'

t.test('submit', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  const mempool = node.resolve('mempool')
  const carol = generateWallet()
  const submit = async (body: unknown) => await node.call('POST', '/api/tx/submit', { body })

  t.test('accepted, then confirmed by a block', async (t) => {
    const tx = node.send(node.dev, carol.address, 2)
    // a key the transaction schema does not name is refused, naming it (issue 12: canonical objects only)
    const padded = await submit({ ...tx, extra_field: 'padding' })
    t.equal(padded.statusCode, 400)
    t.match(padded.json(), { status: 'rejected', reason: 'transaction has unknown key "extra_field"', code: 'TX_ERROR_BAD_FORMAT' })
    t.notOk(mempool.has(tx.transaction_id), 'nothing admitted')
    const res = await submit(tx)
    t.equal(res.statusCode, 200)
    t.same(res.json(), { status: 'accepted', tx_id: tx.transaction_id })
    t.ok(mempool.has(tx.transaction_id))
    await node.mine()
    const seen = (await node.get(`/api/tx/${tx.transaction_id}`)).json()
    t.match(seen, { status: 'confirmed', block_height: 1 })
  })

  t.test('rejected by the mempool: status, reason, code', async (t) => {
    const good = node.send(node.dev, carol.address, 1)
    const cases: Array<[string, unknown, RegExp]> = [
      ['tampered amount', { ...good, amount: 1000 }, /transaction_id does not match/],
      ['bad signature', { ...good, signature: 'ab'.repeat(100) }, /signature/i],
      ['nonce ahead of the sender', transfer(node.params, node.dev, carol.address, 1, 50, { withKey: true }), /nonce 50 but the sender's next nonce is/],
      ['fee below minimum', node.send(node.dev, carol.address, 1, { fee: 0.00001 }), /fee below the minimum/],
      ['overdrawn', node.send(carol, node.dev.address, 1_000_000), /balance/],
      ['reserved sender', { ...good, sender: 'genesis' }, /reserved/]
    ]
    for (const [what, body, reason] of cases) {
      const res = await submit(body)
      t.equal(res.statusCode, 400, what)
      const b = res.json()
      t.equal(b.status, 'rejected', `${what}: status`)
      t.match(b.reason, reason, `${what}: reason`)
      t.equal(b.error, b.reason, `${what}: the node's error key carries the same text`)
      t.match(b.code, /^TX_ERROR_/, `${what}: code`)
    }
    t.equal((await submit(good)).statusCode, 200)
    const dup = await submit(good)
    t.equal(dup.statusCode, 400)
    t.match(dup.json(), { status: 'rejected', reason: /duplicate/, code: 'TX_ERROR_DUPLICATE' })
  })

  t.test('a body of the wrong shape: 400 naming the field', async (t) => {
    const tx = node.send(node.dev, carol.address, 1)
    const { fee: _fee, ...noFee } = tx
    const cases: Array<[string, unknown, string]> = [
      ['missing fee', noFee, 'body.fee is required'],
      ['amount as text', { ...tx, amount: 'ten' }, 'body.amount must be number'],
      ['nonce fractional', { ...tx, nonce: 1.5 }, 'body.nonce must be integer'],
      ['data not an object', { ...tx, data: 'memo' }, 'body.data must be object'],
      ['an array', [tx], 'body must be object'],
      ['empty object', {}, 'body.sender is required']
    ]
    for (const [what, body, reason] of cases) {
      const res = await submit(body)
      t.equal(res.statusCode, 400, what)
      t.match(res.json(), { status: 'rejected', reason, error: reason }, what)
    }
    const notJson = await node.call('POST', '/api/tx/submit', { headers: { 'content-type': 'application/json' }, body: '{"sender": ' })
    t.equal(notJson.statusCode, 400)
    t.same(notJson.json(), { error: 'request body is not valid JSON', status: 'rejected', reason: 'request body is not valid JSON' }, 'a body that never parsed is rejected in the same shape')
    const empty = await node.call('POST', '/api/tx/submit', { headers: { 'content-type': 'application/json' }, body: '' })
    t.equal(empty.statusCode, 400)
    t.same(empty.json(), { error: 'request body is empty', status: 'rejected', reason: 'request body is empty' })
    const deep = await node.call('POST', '/api/tx/submit', { headers: { 'content-type': 'application/json' }, body: '['.repeat(500) + ']'.repeat(500) })
    t.equal(deep.statusCode, 400)
    t.match(deep.json(), { status: 'rejected', reason: /nests deeper than/, error: /nests deeper than/ })
    const text = await node.call('POST', '/api/tx/submit', { headers: { 'content-type': 'text/plain' }, body: 'hello' })
    t.equal(text.statusCode, 400, 'a text body is no transaction')
    t.match(text.json(), { status: 'rejected', reason: 'body must be object' })
    const form = await node.call('POST', '/api/tx/submit', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' })
    t.equal(form.statusCode, 415, 'a content type the server does not parse')
    const huge = await node.call('POST', '/api/tx/submit', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...tx, data: { memo: 'x'.repeat(1024 * 1024) } }) })
    t.equal(huge.statusCode, 413)
    t.match(huge.json(), { error: /larger than 1048576 bytes/ })
  })
})
