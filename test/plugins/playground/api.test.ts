// Playground endpoints (SPEC 4.5) with every SPEC 7 playground error row, auth by session
// cookie and by Bearer API token (SPEC 5), the paying wallet, real transactions in the
// mempool, receipts before and after mining, and the user's contract list.
import t from 'tap'
import { startPlaygroundNode } from './fixtures/playground-node.ts'
import type { Auth } from './fixtures/playground-node.ts'
import { getExample } from '../../../core/contracts/index.ts'
import { contractAddress } from '../../../core/vm/index.ts'
import { bohmToCoin, coinToBohm } from '../../../core/chain/money.ts'
import { verifyTxSignature } from '../../../core/chain/tx.ts'
import { submitFromWallet } from '../../../core/chain/custodial-tx.ts'
import { walletAddressFromPublicKey } from '../../../core/chain/address.ts'

const COUNTER = getExample('counter')?.source ?? ''
const ENDPOINTS: Array<['GET' | 'POST', string]> = [
  ['POST', '/api/playground/compile'],
  ['POST', '/api/playground/deploy'],
  ['POST', '/api/playground/call'],
  ['POST', '/api/playground/query'],
  ['GET', `/api/playground/receipt/${'a'.repeat(64)}`],
  ['GET', '/api/playground/contracts'],
  ['GET', '/api/playground/examples']
]

t.test('playground API', async (t) => {
  const node = await startPlaygroundNode({ config: { consensus: { perSenderLimit: 3 } } })
  t.teardown(() => node.stop())
  const mempool = node.resolve('mempool')
  const chain = node.resolve('chain')
  const { pg } = node
  // broke joins before the faucet is funded
  const broke = await node.join('broke')
  await node.fundFaucet()
  const alice = await node.join('alice')
  const bob = await node.join('bob')
  await node.mine()
  t.equal(chain.getAccount(alice.address).balance, coinToBohm(100), 'alice got the faucet drip')
  // the faucet queue pays every approved user once it can (issue 13), so broke spends its drip
  const brokeWallet = node.resolve('wallets').get(node.resolve('accounts').user('broke')?.wallet ?? '')
  if (brokeWallet === undefined) throw new Error('broke has no wallet')
  const left = chain.getAccount(broke.address).balance - coinToBohm(node.kernel.params.minFeeCoin)
  if (left > 0n) {
    submitFromWallet({ params: node.kernel.params, chain, mempool }, brokeWallet, node.resolve('wallets').nodeWallet().address, bohmToCoin(left), {})
    await node.mine()
  }
  t.equal(chain.getAccount(broke.address).balance, 0n, 'broke holds nothing')

  await t.test('auth: 401 "not logged in" without a session or token, on every endpoint', async (t) => {
    const token = await node.apiToken('alice')
    const revoked = await node.apiToken('bob')
    await node.admin('POST', '/api/admin/tokens/revoke', { token: revoked })
    const bad: Array<[string, Auth | null]> = [
      ['nothing', null],
      ['an unknown session cookie', { cookie: 'session=not-a-session' }],
      ['a malformed bearer token', { token: 'hello' }],
      ['an unknown bearer token', { token: `${token.split('_')[0]}_${'0'.repeat(64)}` }],
      ['a revoked token', { token: revoked }]
    ]
    for (const [what, auth] of bad) {
      for (const [method, url] of ENDPOINTS) {
        const res = await pg(method, url, auth, method === 'POST' ? { source: COUNTER } : undefined)
        t.equal(res.statusCode, 401, `${method} ${url} with ${what}`)
        t.same(res.json(), { error: 'not logged in' })
      }
    }
    for (const auth of [{ cookie: alice.cookie }, { token }]) {
      t.equal((await pg('GET', '/api/playground/examples', auth)).statusCode, 200, `accepted: ${auth.cookie === undefined ? 'bearer token' : 'session cookie'}`)
      t.equal((await pg('POST', '/api/playground/compile', auth, { source: COUNTER })).statusCode, 200)
    }
    t.equal((await pg('GET', '/api/playground/examples', { cookie: 'session=nope', token })).statusCode, 200, 'a dead cookie falls back to a good token')
  })

  await t.test('GET /api/playground/examples', async (t) => {
    const res = await pg('GET', '/api/playground/examples', alice)
    t.equal(res.statusCode, 200)
    const { examples } = res.json()
    t.same(examples.map((e: { id: string }) => e.id), ['counter', 'guestbook', 'multisig'])
    for (const e of examples) {
      t.same(Object.keys(e).sort(), ['description', 'id', 'source', 'title'])
      for (const v of Object.values(e)) t.type(v, 'string')
      t.equal((await pg('POST', '/api/playground/compile', alice, { source: e.source })).statusCode, 200, `${e.id} compiles`)
    }
  })

  await t.test('POST /api/playground/compile', async (t) => {
    const res = await pg('POST', '/api/playground/compile', alice, { source: COUNTER })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.same(Object.keys(body).sort(), ['abi', 'bytecode_hex', 'bytecode_size'])
    t.match(body.bytecode_hex, /^[0-9a-f]+$/)
    t.equal(body.bytecode_size, body.bytecode_hex.length / 2)
    t.equal(body.abi.contract, 'Counter')
    t.same(body.abi.methods.map((m: { name: string; selector: number }) => [m.name, m.selector]), [['increment', 1], ['get', 2], ['reset', 3]], 'sequential 1-byte selectors from 0x01 in source order')
    t.same(body.abi.methods[0], { name: 'increment', selector: 1, params: [{ name: 'by', type: 'uint' }], returns: 'uint', mutates: true })
    t.same(body.abi.storage, [{ name: 'count', type: 'uint', slot: 0 }, { name: 'owner', type: 'address', slot: 1 }])
    t.same(body.abi.events.map((e: { name: string }) => e.name), ['Incremented', 'Reset'])
    t.same((await pg('POST', '/api/playground/compile', alice, { example: 'counter' })).json(), body, 'a bundled example by id')
    t.equal(mempool.size, 0, 'compiling changes nothing on chain')

    const broken = await pg('POST', '/api/playground/compile', alice, { source: 'contract C {\n  pub fn f() -> uint {\n    return x;\n  }\n}\n' })
    t.equal(broken.statusCode, 400)
    t.same(broken.json(), { error: "3:12: unknown identifier 'x'", phase: 'compile', line: 3, column: 12, reason: "unknown identifier 'x'" })
    const empty = await pg('POST', '/api/playground/compile', alice, { source: '' })
    t.equal(empty.statusCode, 400)
    t.match(empty.json(), { phase: 'compile', line: 1, column: 1 })
    for (const body of [{}, { source: 42 }, { example: 'nope' }]) {
      const res = await pg('POST', '/api/playground/compile', alice, body)
      t.equal(res.statusCode, 400, `bad body ${JSON.stringify(body)}`)
      t.notOk('phase' in res.json(), 'not a compile error: the request had no source')
    }
    const notJson = await node.app.inject({ method: 'POST', url: '/api/playground/compile', headers: { cookie: alice.cookie ?? '', 'content-type': 'application/json' }, payload: 'not json' })
    t.equal(notJson.statusCode, 400, 'a body that is not JSON is a 400, not a 500')
    t.same(notJson.json(), { error: 'request body is not valid JSON' })
  })

  let counterAddr = ''
  let deployId = ''
  await t.test('POST /api/playground/deploy: a signed deploy transaction from the user\'s wallet', async (t) => {
    const res = await pg('POST', '/api/playground/deploy', alice, { source: COUNTER })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.match(body, { status: 'submitted', pending: true, gas_limit: 1_000_000, fee: 0.001, value: 0, abi: { contract: 'Counter' } })
    deployId = body.tx_id
    const tx = mempool.get(deployId)
    t.ok(tx, 'in the mempool')
    if (tx === undefined) return
    t.equal(tx.sender, alice.address, 'the session user\'s wallet pays')
    t.equal(tx.recipient, 'contract')
    t.equal(tx.fee, 0.001, 'fee = gas_limit x GAS_PRICE = 10^6 x 10^9 bohm')
    t.same({ type: tx.data.type, gas_limit: tx.data.gas_limit, calldata: tx.data.calldata }, { type: 'deploy', gas_limit: 1_000_000, calldata: '' })
    t.equal(tx.data.code, (await pg('POST', '/api/playground/compile', alice, { source: COUNTER })).json().bytecode_hex)
    const key = Buffer.from(String(tx.data.public_key), 'hex')
    t.equal(walletAddressFromPublicKey(key), alice.address)
    t.ok(verifyTxSignature(tx, key), 'ML-DSA-87 signature verifies')

    const pending = await pg('GET', `/api/playground/receipt/${deployId}`, alice)
    t.same(pending.json(), { status: 'pending', tx_id: deployId, type: 'deploy' }, 'pending until mined')
    const listed = (await pg('GET', '/api/playground/contracts', alice)).json()
    t.match(listed.contracts, [{ tx_id: deployId, contract_addr: null, status: 'pending', abi: { contract: 'Counter' } }])
    t.type(listed.contracts[0].submitted_at, 'number')

    await node.mine()
    counterAddr = `0x${contractAddress(alice.vm_address, 0n)}`
    const r = await pg('GET', `/api/playground/receipt/${deployId}`, alice)
    t.equal(r.statusCode, 200)
    t.match(r.json(), { status: 'confirmed', success: true, type: 'deploy', contract_addr: counterAddr, tx_id: deployId, block_height: chain.tip().height })
    t.type(r.json().gas_used, 'number')
    t.notOk('return_hex' in r.json() || 'revert_reason' in r.json())
    const after = (await pg('GET', '/api/playground/contracts', alice)).json()
    t.match(after.contracts, [{ tx_id: deployId, contract_addr: counterAddr, status: 'deployed', success: true }])
    t.same(node.resolve('contractAbis').abiAt(counterAddr), after.contracts[0].abi, 'the ABI is known by the contract address now (explorer logs)')
    t.equal(node.resolve('contractAbis').abiAt('ab'.repeat(20)), undefined)
    t.match(after.account, { name: 'alice', address: alice.address, vm_address: alice.vm_address })
    t.same((await pg('GET', '/api/playground/contracts', bob)).json().contracts, [], 'each user sees only their own contracts')
  })

  await t.test('deploy errors', async (t) => {
    const broken = await pg('POST', '/api/playground/deploy', alice, { source: 'contract {' })
    t.equal(broken.statusCode, 400)
    t.match(broken.json(), { phase: 'compile', line: 1, column: 10 })
    t.match(broken.json().error, /^1:10: /)

    const poor = await pg('POST', '/api/playground/deploy', broke, { source: COUNTER })
    t.equal(poor.statusCode, 400)
    t.match(poor.json(), { error: 'insufficient the service for deploy fee', needed: 0.001, available: 0 })
    const tooMuchValue = await pg('POST', '/api/playground/deploy', alice, { source: COUNTER, value: 1000 })
    t.equal(tooMuchValue.statusCode, 400)
    t.match(tooMuchValue.json(), { error: 'insufficient the service for deploy fee' }, 'the wallet must cover fee + value')

    for (const [field, value, text] of [
      ['gas_limit', 0, /^gas_limit must be an integer 1\.\.10000000$/],
      ['gas_limit', 30_000_001, /gas_limit/],
      ['gas_limit', 1.5, /gas_limit/],
      ['gas_limit', '1000', /gas_limit/],
      ['value', -1, /^value must be a non-negative coin amount/],
      ['value', 'lots', /value/],
      ['init_calldata', '01', /^init_calldata must be empty/]
    ] as const) {
      const res = await pg('POST', '/api/playground/deploy', alice, { source: COUNTER, [field]: value })
      t.equal(res.statusCode, 400, `${field} ${JSON.stringify(value)}`)
      t.match(res.json().error, text)
    }
    t.equal(mempool.size, 0, 'nothing was submitted')

    // perSenderLimit 3 in this node: the fourth pending transaction of one sender is refused
    for (let i = 0; i < 3; i++) t.equal((await pg('POST', '/api/playground/deploy', bob, { source: COUNTER, gas_limit: 200_000 })).statusCode, 200)
    const refused = await pg('POST', '/api/playground/deploy', bob, { source: COUNTER })
    t.equal(refused.statusCode, 400)
    t.match(refused.json(), { error: 'deploy tx rejected by mempool', code: 'TX_ERROR_SENDER_LIMIT' })
    t.match(refused.json().reason, /pending transactions/)
    const mined = await node.mine()
    t.equal(mined.transactions.length, 4, 'the three accepted deploys were mined')
    t.equal((await pg('GET', '/api/playground/contracts', bob)).json().contracts.filter((c: { status: string }) => c.status === 'deployed').length, 3)
    t.equal(mined.transactions[1]?.fee, 0.0002, 'fee follows gas_limit: 200,000 x 10^9 bohm')
  })

  await t.test('POST /api/playground/call and its errors', async (t) => {
    const call = (auth: Auth, body: Record<string, unknown>) => pg('POST', '/api/playground/call', auth, body)
    const inc = { contract_addr: counterAddr, selector: 1, args: [7], params: [{ name: 'by', type: 'uint' }] }
    for (const body of [{ ...inc, contract_addr: undefined }, { ...inc, selector: undefined }, { ...inc, contract_addr: '' }, {}]) {
      const res = await call(alice, body)
      t.equal(res.statusCode, 400)
      t.same(res.json(), { error: 'contract_addr + selector required' })
    }
    const encodeErrors: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...inc, args: [] }, /^expected 1 argument, got 0$/],
      [{ ...inc, args: ['seven'] }, /^argument by: expected an unsigned integer/],
      [{ ...inc, args: [-1] }, /outside 0\.\.2\^256-1/],
      [{ ...inc, args: undefined }, /^expected 1 argument, got 0$/],
      [{ ...inc, args: 7 }, /^args and params must be lists$/],
      [{ ...inc, params: 'uint' }, /^args and params must be lists$/],
      [{ ...inc, params: [{ name: 'by', type: 'string' }] }, /cannot be passed as an argument/],
      [{ ...inc, selector: 0 }, /^selector must be an integer 1\.\.255/],
      [{ ...inc, selector: 'inc' }, /^selector must be a 1-byte integer/]
    ]
    for (const [body, text] of encodeErrors) {
      const res = await call(alice, body)
      t.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 80))
      t.equal(res.json().phase, 'encode')
      t.match(res.json().error, text)
    }
    const badAddr = await call(alice, { ...inc, contract_addr: '0x1234' })
    t.equal(badAddr.statusCode, 400)
    t.match(badAddr.json().error, /^contract_addr must be a 40-hex VM address/)
    const poor = await call(broke, inc)
    t.equal(poor.statusCode, 400)
    t.match(poor.json(), { error: 'insufficient the service for call fee' })
    t.equal(mempool.size, 0)

    const ok = await call(alice, { ...inc, contract_addr: counterAddr.slice(2).toUpperCase(), selector: '0x01', args: ['7'] })
    t.equal(ok.statusCode, 200)
    t.match(ok.json(), { status: 'submitted', pending: true, contract_addr: counterAddr, selector: 1, gas_limit: 1_000_000, fee: 0.001, value: 0 })
    t.equal(ok.json().calldata, `01${(7).toString(16).padStart(64, '0')}`, 'selector + one 32-byte word per argument')
    const tx = mempool.get(ok.json().tx_id)
    t.match(tx, { sender: alice.address, recipient: 'contract', amount: 0, fee: 0.001, data: { type: 'call', to: counterAddr.slice(2), calldata: ok.json().calldata, gas_limit: 1_000_000 } })
    t.match((await pg('GET', `/api/playground/receipt/${ok.json().tx_id}`, alice)).json(), { status: 'pending', type: 'call' })
    for (let i = 0; i < 2; i++) t.equal((await call(alice, { ...inc, gas_limit: 100_000 })).statusCode, 200)
    const refused = await call(alice, inc)
    t.equal(refused.statusCode, 400)
    t.match(refused.json(), { error: 'call tx rejected by mempool', code: 'TX_ERROR_SENDER_LIMIT' })
    await node.mine()
    const r = (await pg('GET', `/api/playground/receipt/${ok.json().tx_id}`, alice)).json()
    t.match(r, { status: 'confirmed', success: true, type: 'call', return_hex: (7).toString(16).padStart(64, '0'), return_uint: 7 })

    const bare = await call(alice, { contract_addr: counterAddr, selector: 2 })
    t.equal(bare.statusCode, 200, 'get() is called without args or params')
    t.equal(bare.json().calldata, '02', 'the selector alone')
    await node.mine()
    t.match((await pg('GET', `/api/playground/receipt/${bare.json().tx_id}`, alice)).json(), { status: 'confirmed', success: true, type: 'call' })
  })

  await t.test('POST /api/playground/query: a free read-only call, no transaction (issue 14 item 9)', async (t) => {
    const pendingBefore = mempool.size
    const balance = chain.getAccount(bob.address).balance
    const height = chain.tip().height
    const get = await pg('POST', '/api/playground/query', bob, { contract_addr: counterAddr, selector: 2 })
    t.equal(get.statusCode, 200)
    const count = get.json().return_uint as number
    t.ok(count >= 7, 'the counter as the mined calls left it')
    t.match(get.json(), { status: 'ok', success: true, contract_addr: counterAddr, selector: 2, return_hex: count.toString(16).padStart(64, '0'), block_height: height, gas_limit: 1_000_000 })
    t.ok(get.json().gas_used > 0 && get.json().gas_used < 10_000, 'gas is reported')
    t.equal(mempool.size, pendingBefore, 'no transaction')
    t.equal(chain.getAccount(bob.address).balance, balance, 'no fee')
    t.equal(chain.tip().height, height, 'nothing mined')

    // a method that writes cannot run as a query, and changes nothing
    const write = await pg('POST', '/api/playground/query', bob, { contract_addr: counterAddr, selector: 1, args: [5], params: [{ name: 'by', type: 'uint' }] })
    t.equal(write.statusCode, 200)
    t.equal(write.json().success, false)
    t.type(write.json().error, 'string')
    t.equal((await pg('POST', '/api/playground/query', bob, { contract_addr: counterAddr, selector: 2 })).json().return_uint, count, 'state unchanged')
    const revert = await pg('POST', '/api/playground/query', bob, { contract_addr: counterAddr, selector: 1, args: [0], params: [{ name: 'by', type: 'uint' }] })
    t.match(revert.json(), { success: false, revert_reason: 'increment must be positive' }, 'a revert reason comes back as with a mined call')

    // the same checks as a call; gas is capped
    t.same((await pg('POST', '/api/playground/query', bob, { selector: 2 })).json(), { error: 'contract_addr + selector required' })
    t.match((await pg('POST', '/api/playground/query', bob, { contract_addr: counterAddr, selector: 1, args: ['x'], params: [{ name: 'by', type: 'uint' }] })).json(), { phase: 'encode' })
    t.match((await pg('POST', '/api/playground/query', bob, { contract_addr: counterAddr, selector: 2, value: 1 })).json(), { error: /a query carries no value/ })
    t.equal((await pg('POST', '/api/playground/query', bob, { contract_addr: counterAddr, selector: 2, gas_limit: 2_000_000 })).json().gas_limit, 1_000_000)
    const starved = await pg('POST', '/api/playground/query', bob, { contract_addr: counterAddr, selector: 2, gas_limit: 10 })
    t.match(starved.json(), { success: false, error: 'out of gas', gas_used: 10 })
    t.match((await pg('POST', '/api/playground/query', bob, { contract_addr: 'ab'.repeat(20), selector: 2 })).json(), { success: false, error: /no contract at/ })
    t.equal((await pg('POST', '/api/playground/query', null, { contract_addr: counterAddr, selector: 2 })).statusCode, 401)
  })

  await t.test('GET /api/playground/receipt/{tx_id}: reverts, failures, unknown ids', async (t) => {
    const contract = { address: counterAddr, abi: (await pg('POST', '/api/playground/compile', alice, { source: COUNTER })).json().abi }
    const reverted = await node.call(bob, contract, 'increment', [0])
    t.same(Object.keys(reverted).sort(), ['block_height', 'error', 'gas_used', 'logs', 'return_hex', 'revert_reason', 'status', 'success', 'tx_id', 'type'])
    t.match(reverted, { status: 'confirmed', success: false, type: 'call', return_hex: '', revert_reason: 'increment must be positive', error: 'REVERT', logs: [] })
    const starved = await node.call(bob, contract, 'increment', [1], { gas_limit: 5_000 })
    t.match(starved, { success: false, error: 'out of gas', gas_used: 5_000 })
    t.notOk('revert_reason' in starved, 'no reason when the contract gave none')
    const reset = await node.call(bob, contract, 'reset')
    t.match(reset, { success: false, revert_reason: 'only the owner can reset' })
    const none = await node.call(alice, contract, 'reset')
    t.match(none, { success: true, return_hex: '' })
    t.notOk('return_uint' in none, 'no return_uint when nothing was returned')

    t.equal((await pg('GET', `/api/playground/receipt/${'0'.repeat(64)}`, alice)).statusCode, 404)
    t.same((await pg('GET', `/api/playground/receipt/${'0'.repeat(64)}`, alice)).json(), { error: 'tx not found' })
    t.same((await pg('GET', '/api/playground/receipt/xyz', alice)).json(), { error: 'tx not found' })
    const faucet = (await chain.getBlockByHeight(1))?.transactions[1]?.transaction_id ?? ''
    const transfer = await pg('GET', `/api/playground/receipt/${faucet}`, alice)
    t.equal(transfer.statusCode, 404)
    t.same(transfer.json(), { error: 'no receipt: not a contract transaction' })
    t.match((await pg('GET', `/api/playground/receipt/${deployId.toUpperCase()}`, alice)).json(), { status: 'confirmed', type: 'deploy' }, 'ids in any case')
  })

  await t.test('a Bearer API token acts as its user: that user\'s wallet pays and owns the contract', async (t) => {
    const token = await node.apiToken('bob')
    const before = chain.getAccount(bob.address).balance
    const d = await pg('POST', '/api/playground/deploy', { token }, { example: 'counter', gas_limit: 300_000 })
    t.equal(d.statusCode, 200)
    t.equal(mempool.get(d.json().tx_id)?.sender, bob.address)
    await node.mine()
    t.equal(chain.getAccount(bob.address).balance, before - coinToBohm(0.0003), 'bob paid gas_limit x GAS_PRICE, no refund')
    const listed = (await pg('GET', '/api/playground/contracts', { token })).json().contracts
    t.equal(listed[0].tx_id, d.json().tx_id, 'newest first, in the token user\'s list')
    const both = (await pg('GET', '/api/playground/contracts', { cookie: alice.cookie, token })).json()
    t.equal(both.account.name, 'alice', 'with a cookie and a token the cookie wins')
    t.notOk(both.contracts.some((c: { tx_id: string }) => c.tx_id === d.json().tx_id))
    await node.admin('POST', '/api/admin/block', { name: 'bob' })
    t.equal((await pg('GET', '/api/playground/contracts', { token })).statusCode, 401, 'blocking the user revokes the token')
    t.equal((await pg('GET', '/api/playground/contracts', { cookie: bob.cookie })).statusCode, 401, 'and the session')
  })
})

t.test('contract records survive a restart', async (t) => {
  const first = await startPlaygroundNode({ keepData: true })
  await first.fundFaucet()
  const carol = await first.join('carol')
  await first.mine()
  const { txId, address } = await first.deploy(carol, COUNTER)
  await first.stop()
  const second = await startPlaygroundNode({ dataDir: first.dataDir })
  t.teardown(() => second.stop())
  const listed = (await second.pg('GET', '/api/playground/contracts', { cookie: carol.cookie })).json()
  t.match(listed.contracts, [{ tx_id: txId, contract_addr: address, status: 'deployed' }])
})

t.test('the web page at /playground and its assets are public', async (t) => {
  const node = await startPlaygroundNode()
  t.teardown(() => node.stop())
  for (const url of ['/playground', '/playground/']) {
    const page = await node.app.inject({ method: 'GET', url })
    t.equal(page.statusCode, 200)
    t.match(page.headers['content-type'], /^text\/html/)
    t.match(page.headers['content-security-policy'], /script-src 'self'/)
    t.match(page.body, /<script type="module" src="\/playground\/assets\/playground\.js">/)
  }
  for (const [asset, type] of [['playground.js', /javascript/], ['playground.css', /text\/css/]] as const) {
    const res = await node.app.inject({ method: 'GET', url: `/playground/assets/${asset}` })
    t.equal(res.statusCode, 200, asset)
    t.match(res.headers['content-type'], type)
  }
  t.equal((await node.app.inject({ method: 'GET', url: '/playground/assets/nope.js' })).statusCode, 404)
})

t.test('queries are free but bounded per client address', async (t) => {
  const node = await startPlaygroundNode({ config: { playground: { rateLimits: { query: { max: 2, windowSeconds: 60 } } } } })
  t.teardown(() => node.stop())
  const alice = await node.join('alice')
  const body = { contract_addr: 'ab'.repeat(20), selector: 2 }
  for (let i = 0; i < 2; i++) t.equal((await node.pg('POST', '/api/playground/query', alice, body)).statusCode, 200)
  const refused = await node.pg('POST', '/api/playground/query', alice, body)
  t.equal(refused.statusCode, 429)
  t.match(refused.json(), { error: /^too many queries from this address: retry in \d+ seconds$/ })
  t.equal((await node.pg('POST', '/api/playground/compile', alice, { example: 'counter' })).statusCode, 200, 'compiles have their own budget')
})
