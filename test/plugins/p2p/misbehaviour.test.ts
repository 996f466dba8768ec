import t from 'tap'
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { BAN_THRESHOLD, Misbehaviour, PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'

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
