// The ban list on a disk that refuses it: peers sending malformed handshakes are banned in
// memory, the failure is logged once, and the node neither crashes nor stops serving.
import t from 'tap'
import path from 'node:path'
import { mkdirSync } from 'node:fs'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { createLibp2pNode } from '../../../plugins/p2p/libp2p-node.ts'
import { registerHandlers } from '../../../plugins/p2p/reqresp.ts'
import { parsePeerAddress } from '../../../plugins/p2p/address.ts'
import { BANS_FILE } from '../../../plugins/p2p/p2p.ts'
import { BAN_THRESHOLD, PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import { params, startP2pNode, waitFor } from './helpers.ts'
import type { P2pTestNode } from './helpers.ts'
import type { LedgerLibp2p } from '../../../plugins/p2p/libp2p-node.ts'
import { recordingLogger } from '../../helpers/log.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'
import type { StatusMessage } from '../../../plugins/p2p/protocol.ts'

/** A libp2p peer whose status answers are malformed: every handshake with it costs 25 points. */
async function malformedPeer (t: { teardown(fn: () => unknown): void }, dialFrom?: string): Promise<LedgerLibp2p> {
  const rogue = await createLibp2pNode({ privateKey: await generateKeyPair('Ed25519'), listen: ['/ip4/127.0.0.1/tcp/0'], maxConnections: 10, isBanned: () => false, dialFrom })
  await rogue.start()
  t.teardown(() => rogue.stop())
  await registerHandlers({ node: rogue, params, timeoutMs: 5000 }, {
    status: () => ({ chain_id: 42 }) as unknown as StatusMessage,
    headers: async () => [],
    blocks: async function * () {},
    misbehaved: () => {}
  })
  return rogue
}

/** Dials until `done` holds (a redial can race the victim's hang-up or libp2p's per-host rate of 5 a second). */
async function handshakeUntil (what: string, rogue: LedgerLibp2p, victim: P2pTestNode, done: () => boolean): Promise<void> {
  await waitFor(what, async () => {
    await rogue.dial(parsePeerAddress(victim.address), { signal: AbortSignal.timeout(5000) }).catch(() => undefined)
    await waitFor('the victim to hang up', () => rogue.getConnections().length === 0)
    return done()
  }, 30_000)
}

t.test('an unwritable p2p-bans.json.tmp: many malformed handshakes, bans kept in memory, no crash', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  mkdirSync(path.join(dir, `${BANS_FILE}.tmp`)) // every write of the temp file fails
  const rejections: unknown[] = []
  const onRejection = (err: unknown): void => { rejections.push(err) }
  process.on('unhandledRejection', onRejection)
  t.teardown(() => { process.off('unhandledRejection', onRejection) })
  const { logger, records } = recordingLogger('warn')
  const victim = await startP2pNode({ dataDir: dir, keepData: true, logger })
  t.teardown(() => victim.stop())

  const handshakesToBan = Math.ceil(BAN_THRESHOLD / PENALTY.malformed)
  const ids: string[] = []
  for (let r = 0; r < 3; r++) {
    const rogue = await malformedPeer(t)
    const id = rogue.peerId.toString()
    ids.push(id)
    await handshakeUntil(`rogue ${r} to be banned`, rogue, victim, () => victim.p2p.misbehaviour.isBanned(id))
    t.ok(victim.p2p.misbehaviour.isBanned(id), `rogue ${r} banned (${handshakesToBan} malformed handshakes)`)
  }
  await victim.p2p.misbehaviour.flush()
  t.same(victim.p2p.bans().map((b) => b.peer_id).sort(), [...ids].sort(), 'every rogue banned in memory')
  const failures = records.filter((r) => r.msg === 'cannot write the ban list; bans are kept in memory')
  t.equal(failures.length, 1, 'the write failure is logged once, not once per ban')
  t.same(rejections, [], 'no unhandled rejection')

  // still a working node: an honest peer connects and is listed
  const honest = await startP2pNode({ peers: [victim.address] })
  t.teardown(() => honest.stop())
  await waitFor('the honest peer to connect', () => victim.p2p.peers().some((p) => p.peer_id === honest.p2p.peerId))
})

t.test('fresh ids from one address add up to an address ban that refuses the next id before a byte is read', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const host = '127.0.0.2' // stands for one remote host (127.0.0.1 is shared and exempt)
  const first = await malformedPeer(t, host)
  await handshakeUntil('two offences from the first id', first, victim, () => victim.p2p.score(first.peerId.toString()) >= 2 * PENALTY.malformed)
  t.equal(victim.p2p.misbehaviour.addressScore(host), 2 * PENALTY.malformed, 'the address collected the points too')
  const second = await malformedPeer(t, host)
  await handshakeUntil('the address to be banned', second, victim, () => victim.p2p.misbehaviour.isAddressBanned(host))
  t.notOk(victim.p2p.misbehaviour.isBanned(first.peerId.toString()), 'the first id alone stayed under the threshold')
  const refusedBefore = victim.p2p.slots.refused.banned
  const third = await malformedPeer(t, host)
  await t.rejects(third.dial(parsePeerAddress(victim.address), { signal: AbortSignal.timeout(5000) }), 'a third id from the banned address is refused')
  t.ok(victim.p2p.slots.refused.banned > refusedBefore, 'refused by the gater as banned')
  t.match(victim.p2p.bans(), [{ address: host }])
  // the shared loopback address is not affected
  const honest = await startP2pNode({ peers: [victim.address] })
  t.teardown(() => honest.stop())
  await waitFor('an honest peer on 127.0.0.1 to connect', () => victim.p2p.peers().some((p) => p.peer_id === honest.p2p.peerId))
})
