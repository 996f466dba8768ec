// Dashboard API key (SPEC 5, DESIGN 1 and 5): generated once into api_key.json (0600) unless
// LEDGER_API_KEY is set; submit always needs it; requireAuth guards every GET except
// /api/status and /metrics; a failed check is 401 with WWW-Authenticate: Bearer.
import t from 'tap'
import path from 'node:path'
import { readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs'
import { startTestNode } from '../../helpers/node.ts'
import { testParams, tmpDir } from '../../helpers/chain.ts'
import { loadOrCreateApiKey, API_KEY_FILE } from '../../../plugins/dashboard/api-key.ts'
import { bearerMatches } from '../../../plugins/dashboard/auth.ts'
import { startDashboardNode } from './fixtures/dashboard-node.ts'
import '../../../plugins/dashboard/manifest.ts'

const AUTH_ERROR = { error: 'invalid or missing API key' }

t.test('the key file: created once with mode 0600, reused, env wins', async (t) => {
  const dir = tmpDir()
  const first = loadOrCreateApiKey(dir, {})
  t.equal(first.created, true)
  t.match(first.key, /^[0-9a-f]{64}$/)
  const file = path.join(dir, API_KEY_FILE)
  t.equal(statSync(file).mode & 0o777, 0o600)
  t.equal(JSON.parse(readFileSync(file, 'utf8')).api_key, first.key)
  const again = loadOrCreateApiKey(dir, {})
  t.same([again.key, again.created], [first.key, false], 'the same key on the next boot')

  chmodSync(file, 0o644)
  loadOrCreateApiKey(dir, {})
  t.equal(statSync(file).mode & 0o777, 0o600, 'a loose mode is tightened')

  const env = loadOrCreateApiKey(dir, { LEDGER_API_KEY: 'operator-chosen-key' })
  t.same([env.key, env.source, env.file], ['operator-chosen-key', 'env', null])
  t.equal(loadOrCreateApiKey(dir, { LEDGER_API_KEY: '  ' }).key, first.key, 'a blank env value is not a key')

  const envOnly = tmpDir()
  loadOrCreateApiKey(envOnly, { LEDGER_API_KEY: 'k'.repeat(20) })
  t.throws(() => statSync(path.join(envOnly, API_KEY_FILE)), 'no file is written when the env sets the key')

  writeFileSync(file, '{not json')
  t.throws(() => loadOrCreateApiKey(dir, {}), /api_key\.json is not valid JSON/)
})

t.test('bearer parsing', async (t) => {
  t.ok(bearerMatches('Bearer abc123', 'abc123'))
  t.ok(bearerMatches('bearer abc123', 'abc123'), 'scheme is case-insensitive')
  t.notOk(bearerMatches('Bearer abc1234', 'abc123'))
  t.notOk(bearerMatches('Basic abc123', 'abc123'))
  t.notOk(bearerMatches('Bearer', 'abc123'))
  t.notOk(bearerMatches('Bearer abc123 extra', 'abc123'))
  t.notOk(bearerMatches(undefined, 'abc123'))
})

t.test('default (requireAuth false): reads are open, submit needs the key', async (t) => {
  const node = await startDashboardNode()
  t.teardown(() => node.stop())
  for (const url of ['/api/status', '/api/node', '/api/chain', '/api/blocks', '/api/fee', '/metrics']) {
    t.equal((await node.call('GET', url, { key: null })).statusCode, 200, `${url} open`)
  }
  const tx = node.send(node.dev, '33'.repeat(16), 1)
  for (const [what, key] of [['no key', null], ['wrong key', 'wrong'], ['key of another node', 'f'.repeat(64)]] as const) {
    const res = await node.call('POST', '/api/tx/submit', { key, body: tx })
    t.equal(res.statusCode, 401, what)
    t.same(res.json(), AUTH_ERROR, `${what}: body`)
    t.equal(res.headers['www-authenticate'], 'Bearer', `${what}: header`)
  }
  const basic = await node.call('POST', '/api/tx/submit', { key: null, body: tx, headers: { authorization: `Basic ${node.apiKey}` } })
  t.equal(basic.statusCode, 401, 'the key under another scheme')
  t.equal(node.resolve('mempool').size, 0, 'nothing was admitted')
  t.equal((await node.call('POST', '/api/tx/submit', { body: tx })).statusCode, 200, 'with the key')
})

t.test('requireAuth: every GET but /api/status and /metrics needs the key', async (t) => {
  const node = await startDashboardNode({ config: { dashboard: { port: 0, requireAuth: true } } })
  t.teardown(() => node.stop())
  await node.mine([])
  t.equal((await node.call('GET', '/api/status', { key: null })).statusCode, 200)
  t.equal((await node.call('GET', '/metrics', { key: null })).statusCode, 200)
  t.equal((await node.call('GET', '/api/status?x=1', { key: 'bad' })).statusCode, 200, 'a wrong key does not matter where none is needed')
  const guarded = ['/api/node', '/api/chain', '/api/blocks', '/api/block/1', `/api/tx/${'a'.repeat(64)}`, `/api/address/${'a'.repeat(32)}`, '/api/mempool',
    '/api/mining', '/api/qrng', '/api/qrng/random?n=4', '/api/peers', '/api/fee', '/api/search?q=1', '/docs/json', '/api', '/api/nope']
  for (const url of guarded) {
    const res = await node.call('GET', url, { key: null })
    t.equal(res.statusCode, 401, `${url} without key`)
    t.same(res.json(), AUTH_ERROR)
    t.equal(res.headers['www-authenticate'], 'Bearer')
    t.equal((await node.call('GET', url, { key: 'nope' })).statusCode, 401, `${url} with a wrong key`)
  }
  for (const url of ['/api/node', '/api/chain', '/api/blocks', '/api/block/1', '/api/mempool', '/api/fee', '/api/search?q=1', '/docs/json']) {
    t.equal((await node.call('GET', url)).statusCode, 200, `${url} with the key`)
  }
  t.equal((await node.call('GET', '/api/nope')).statusCode, 404, 'with the key an unknown route is a plain 404')
})

t.test('the SPEC spelling require_auth is accepted; both spellings must agree (issue 14 item 2)', async (t) => {
  const node = await startDashboardNode({ config: { dashboard: { port: 0, require_auth: true } } })
  t.teardown(() => node.stop())
  t.equal((await node.call('GET', '/api/chain', { key: null })).statusCode, 401, 'require_auth: true guards reads')
  t.equal((await node.call('GET', '/api/status', { key: null })).statusCode, 200)
  await t.rejects(startDashboardNode({ config: { dashboard: { port: 0, require_auth: true, requireAuth: false } } }), { message: 'invalid config: "dashboard.requireAuth" and "dashboard.require_auth" disagree; set one of them' })
})

t.test('LEDGER_API_KEY on a real node; the plugin listens on its configured port', async (t) => {
  process.env.LEDGER_API_KEY = 'env-key-for-this-test-0123456789'
  t.teardown(() => { delete process.env.LEDGER_API_KEY })
  const node = await startTestNode({ plugins: ['storage', 'consensus', 'http', 'dashboard'], params: testParams() })
  t.teardown(() => node.stop())
  const app = node.resolve('dashboardHttp')
  const address = app.server.address()
  t.ok(address !== null && typeof address === 'object' && address.address === '127.0.0.1', 'bound to loopback by default')
  const port = (address as { port: number }).port
  const url = `http://127.0.0.1:${port}`
  const status = await fetch(`${url}/api/status`)
  t.equal(status.status, 200)
  const denied = await fetch(`${url}/api/tx/submit`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' }, body: '{}' })
  t.equal(denied.status, 401)
  t.equal(denied.headers.get('www-authenticate'), 'Bearer')
  const allowed = await fetch(`${url}/api/tx/submit`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.LEDGER_API_KEY}` }, body: '{}' })
  t.equal(allowed.status, 400, 'past the key check, the empty body is refused')
  t.throws(() => statSync(path.join(node.dataDir, API_KEY_FILE)), 'no key file when the env sets the key')
})
