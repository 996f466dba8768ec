// DESIGN 1: admin credentials from the environment, else a random password generated once
// into the data dir (0600) and a log line saying where; never a fixed default.
import t from 'tap'
import path from 'node:path'
import { statSync, readFileSync } from 'node:fs'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { resolveAdminCredentials, CREDENTIALS_FILE } from '../../../plugins/admin/credentials.ts'
import { checkBasic, parseBasic } from '../../../plugins/admin/basic-auth.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'

function capture (): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = []
  const sink = new Writable({ write (chunk: Buffer, _e, cb) { lines.push(chunk.toString()); cb() } })
  return { logger: pino({ level: 'info' }, sink), lines }
}

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

t.test('environment credentials win and write nothing', async (t) => {
  const dir = tmpDir('ledger-admin-cred-')
  t.teardown(() => cleanup(dir))
  const { logger } = capture()
  const c = resolveAdminCredentials(dir, { LEDGER_ADMIN_USER: 'ops', LEDGER_ADMIN_PASSWORD: 's3cret' }, logger)
  t.match(c, { user: 'ops', password: 's3cret', source: 'env', file: null })
  t.throws(() => statSync(path.join(dir, CREDENTIALS_FILE)), 'no file written')
  t.ok(checkBasic(c, basic('ops', 's3cret')))
  t.notOk(checkBasic(c, basic('ops', 's3cret ')))
  t.notOk(checkBasic(c, basic('admin', 's3cret')))
  t.notOk(checkBasic(c, undefined))
})

t.test('without a password: generated once, 0600, logged by path, stable across boots', async (t) => {
  const dir = tmpDir('ledger-admin-cred-')
  const other = tmpDir('ledger-admin-cred-')
  t.teardown(() => { cleanup(dir); cleanup(other) })
  const { logger, lines } = capture()
  const first = resolveAdminCredentials(dir, {}, logger)
  const file = path.join(dir, CREDENTIALS_FILE)
  t.equal(first.user, 'admin')
  t.equal(first.source, 'file')
  t.ok(first.password.length >= 24, 'a long random password')
  t.equal(statSync(file).mode & 0o777, 0o600, 'mode 0600')
  t.equal(JSON.parse(readFileSync(file, 'utf8')).password, first.password)
  t.ok(lines.some((l) => l.includes(file)), 'the log says where the password is')
  t.notOk(lines.some((l) => l.includes(first.password)), 'the log never shows the password')
  const again = resolveAdminCredentials(dir, {}, logger)
  t.equal(again.password, first.password, 'the same password after a restart')
  const elsewhere = resolveAdminCredentials(other, {}, logger)
  t.not(elsewhere.password, first.password, 'no fixed default')
  const withUser = resolveAdminCredentials(dir, { LEDGER_ADMIN_USER: 'boss', LEDGER_ADMIN_PASSWORD: '' }, logger)
  t.match(withUser, { user: 'boss', password: first.password })
})

t.test('Basic header parsing', async (t) => {
  t.same(parseBasic(basic('a', 'b:c')), { user: 'a', password: 'b:c' }, 'the password may hold colons')
  t.equal(parseBasic('Basic bm9jb2xvbg=='), null, 'no colon')
  t.equal(parseBasic('Digest abc'), null)
  t.equal(parseBasic(undefined), null)
})
