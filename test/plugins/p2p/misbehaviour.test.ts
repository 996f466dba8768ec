import t from 'tap'
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { BAN_THRESHOLD, Misbehaviour, PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'
import { mkdirSync, existsSync } from 'node:fs'

t.test('offences add up to a ban that is persisted and expires', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'bans.json')
  let clock = 1000
  const banned: string[] = []
  const m = new Misbehaviour({ file, banSeconds: 60, now: () => clock, onBan: (id) => banned.push(id) })
  t.equal(m.penalize('peerA', PENALTY.malformed, 'garbage'), false)
  t.equal(m.score('peerA'), 25)
  t.equal(m.penalize('peerA', PENALTY.invalidBlock, 'bad pow'), false)
  t.equal(m.penalize('peerA', PENALTY.invalidBlock, 'bad attestation'), true, `banned at ${BAN_THRESHOLD}`)
  t.same(banned, ['peerA'])
  t.ok(m.isBanned('peerA'))
  t.notOk(m.isBanned('peerB'))
  t.equal(m.penalize('peerA', 100, 'again'), false, 'a banned peer is not banned twice')
  await m.flush()

  const reloaded = new Misbehaviour({ file, banSeconds: 60, now: () => clock })
  t.ok(reloaded.isBanned('peerA'), 'the ban survives a restart')
  t.match(JSON.parse(readFileSync(file, 'utf8')), [{ peer_id: 'peerA', until: 1060, reason: 'bad attestation' }])

  clock += 61
  t.notOk(reloaded.isBanned('peerA'), 'the ban expires')
  t.same(reloaded.bans(), [])
})

t.test('a damaged ban file only forgets bans', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'bans.json')
  const { writeFileSync } = await import('node:fs')
  writeFileSync(file, '{not json')
  const m = new Misbehaviour({ file, banSeconds: 60 })
  t.same(m.bans(), [])
})

t.test('a score fades by a point a minute, so rare slips never add up to a ban', async (t) => {
  let clock = 0
  const m = new Misbehaviour({ file: null, banSeconds: 60, now: () => clock })
  m.penalize('p', PENALTY.unbackedClaim, 'claim')
  t.equal(m.score('p'), 10)
  clock += 59
  t.equal(m.score('p'), 10, 'within the minute: unchanged')
  clock += 1
  t.equal(m.score('p'), 9)
  clock += 3600
  t.equal(m.score('p'), 0, 'never below zero')
  for (let i = 0; i < 30; i++) { m.penalize('p', PENALTY.unresponsive, 'timeout'); clock += 600 }
  t.notOk(m.isBanned('p'), 'a timeout every ten minutes for five hours')
  for (let i = 0; i < 9; i++) m.penalize('p', PENALTY.unbackedClaim, 'claim')
  t.notOk(m.isBanned('p'))
  m.penalize('p', PENALTY.unbackedClaim, 'claim')
  t.ok(m.isBanned('p'), 'ten unbacked claims in a row are a ban')
})

t.test('an unwritable ban list: bans stay in memory, every failure is logged once, nothing throws', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'p2p-bans.json')
  // a directory where the temp file should go: every write of it fails (EISDIR), for root too
  mkdirSync(`${file}.tmp`)
  const errors: string[] = []
  const rejections: unknown[] = []
  const onRejection = (err: unknown): void => { rejections.push(err) }
  process.on('unhandledRejection', onRejection)
  t.teardown(() => { process.off('unhandledRejection', onRejection) })
  const m = new Misbehaviour({ file, banSeconds: 60, onPersistError: (err) => errors.push(err.code ?? err.message) })
  for (let i = 0; i < 200; i++) {
    for (let k = 0; k < 4; k++) m.penalize(`peer${i}`, PENALTY.malformed, 'malformed handshake', `10.${i % 250}.0.${k + 1}`)
  }
  await m.flush()
  t.equal(m.bans().length, 200, 'every peer that sent 4 malformed handshakes is banned in memory')
  t.ok(m.isBanned('peer199'))
  t.same(errors, ['EISDIR'], 'the failure is reported once, not once per ban')
  t.notOk(existsSync(file), 'no list was written')
  t.same(rejections, [], 'no unhandled rejection')
})

t.test('the ban list is bounded: the bans expiring first go first', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'p2p-bans.json')
  let clock = 0
  const m = new Misbehaviour({ file, banSeconds: 600, maxBans: 5, now: () => clock })
  for (let i = 0; i < 8; i++) { clock += 1; m.penalize(`p${i}`, BAN_THRESHOLD, 'junk') }
  t.equal(m.bans().length, 5)
  t.notOk(m.isBanned('p0'), 'the oldest ban was dropped')
  t.notOk(m.isBanned('p2'))
  t.ok(m.isBanned('p3'))
  t.ok(m.isBanned('p7'))
  await m.flush()
  t.equal((JSON.parse(readFileSync(file, 'utf8')) as unknown[]).length, 5, 'the file holds the bounded list')
})

t.test('scores and bans by address: a new id from a banned address is refused; shared loopback is exempt', async (t) => {
  const m = new Misbehaviour({ file: null, banSeconds: 60 })
  // four ids from one address, each well under the threshold alone
  for (let i = 0; i < 4; i++) m.penalize(`fresh-id-${i}`, PENALTY.malformed, 'garbage', '203.0.113.7')
  t.ok(m.isAddressBanned('203.0.113.7'), 'the address collected 100 points over four ids')
  t.equal(m.addressScore('203.0.113.7'), 0)
  t.ok(m.isBanned('fresh-id-3'), 'the id of the offence that tipped it is banned too')
  t.notOk(m.isBanned('fresh-id-0'))
  t.equal(m.penalize('fresh-id-9', 25, 'more', '203.0.113.7'), false, 'a banned address is not banned again')
  t.match(m.bans(), [{ peer_id: 'fresh-id-3', address: '203.0.113.7' }])

  for (let i = 0; i < 8; i++) m.penalize(`local-${i}`, PENALTY.malformed, 'garbage', '127.0.0.1')
  t.notOk(m.isAddressBanned('127.0.0.1'), 'the shared loopback address is never banned (every local node has it)')
  t.equal(m.addressScore('127.0.0.1'), 0)
  t.notOk(m.bans().some((b) => b.address === '127.0.0.1'))
})

t.test('a persisted address ban survives a restart', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'p2p-bans.json')
  const m = new Misbehaviour({ file, banSeconds: 60 })
  m.penalize('id', BAN_THRESHOLD, 'junk', '198.51.100.2')
  await m.flush()
  const again = new Misbehaviour({ file, banSeconds: 60 })
  t.ok(again.isAddressBanned('198.51.100.2'))
  t.ok(again.isBanned('id'))
})
