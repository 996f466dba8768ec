// Issue 31's "free junk", reproduced against the node: a rogue peer floods gossip with blocks
// that cost it nothing (no work, a bad timestamp, an unknown parent), then with orphans that
// carry valid work. Work is checked before any other rule, junk costs score, the orphans'
// status requests back are rate-limited, and the node's log and events stay bounded.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { params, startP2pNode, waitFor } from './helpers.ts'
import { mineBlock } from '../../helpers/chain.ts'
import { recordingLogger } from '../../helpers/log.ts'
import { startRogue } from './fixtures/rogue.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'
import { encodeBlock } from '../../../core/chain/tx-codec.ts'
import { encodeHeaderPrefix } from '../../../core/chain/header.ts'
import { getPowCore, meetsTarget } from '../../../core/pow/pow-core.ts'
import { bitsTargetBytes } from '../../../core/chain/target.ts'
import { ORPHAN_STATUS_RATE, REPORT_RATE } from '../../../plugins/p2p/p2p.ts'
import { BAN_THRESHOLD, PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import type { Block } from '../../../core/chain/types.ts'

const pow = getPowCore('js')

/** `count` distinct blocks on unknown parents, timestamped before genesis, whose hashes miss their difficulty. */
function junkBlocks (base: Block, count: number): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let i = 0; out.length < count; i++) {
    const b: Block = { ...base, previous_hash: randomBytes(64).toString('hex'), timestamp: 1 + i }
    const prefix = encodeHeaderPrefix(b)
    for (let nonce = 0; ; nonce++) {
      const hash = pow.hashHeader(prefix, nonce)
      if (!meetsTarget(hash, bitsTargetBytes(b.bits))) { out.push(encodeBlock({ ...b, nonce, hash: Buffer.from(hash).toString('hex') })); break }
    }
  }
  return out
}

t.test('3,000 junk blocks from one peer: banned at once, a handful of log lines and events, no status requests', async (t) => {
  const { logger, records } = recordingLogger('info')
  const a = await startP2pNode({ logger })
  t.teardown(() => a.stop())
  const events: string[] = []
  a.node.kernel.hooks.blockRejected.tap('test', ({ code }) => { events.push(code) })
  let statusRequests = 0
  const rogue = await startRogue(t, params, a.address, () => { statusRequests++; return ourStatus(a.chain, nodeVersion(params)) })
  await waitFor('the rogue to pass the handshake', () => a.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  const afterHandshake = statusRequests
  const tip = a.chain.tip().hash
  const base = mineBlock(params, { hash: tip, height: 0, timestamp: a.chain.tip().timestamp })
  const junk = junkBlocks(base, 3000)
  for (const bytes of junk) await rogue.publishBlockBytes(bytes)
  await waitFor('the rogue to be banned', () => a.p2p.bans().some((b) => b.peer_id === rogue.peerId))
  t.match(a.p2p.bans().find((b) => b.peer_id === rogue.peerId)?.reason, /BLOCK_ERROR_BAD_POW/, 'banned for the missing work, the first rule checked')
  await waitFor('the rogue to be disconnected', () => !a.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  t.equal(a.chain.tip().hash, tip, 'nothing reached the chain')
  const banAfter = Math.ceil(BAN_THRESHOLD / PENALTY.invalidBlock)
  t.ok(events.length <= Math.max(banAfter, REPORT_RATE.capacity), `node events bounded: ${events.length}`)
  t.ok(events.every((code) => code === 'BLOCK_ERROR_BAD_POW'), 'each one for the missing work, not the timestamp or the parent')
  const warnings = records.filter((r) => r.level >= 40 && r.peer === rogue.peerId)
  t.ok(warnings.length <= REPORT_RATE.capacity + 1, `warnings bounded: ${warnings.length}`)
  t.equal(statusRequests, afterHandshake, 'no junk block made the node ask the rogue for its status')
  t.equal(a.p2p.orphanStatusRequests(), 0, 'none was taken for an orphan: the missing work was found first')
})

t.test('orphans with valid work cost score; the status requests they trigger are rate-limited', async (t) => {
  const a = await startP2pNode({ p2p: { statusIntervalMs: 600_000 } })
  t.teardown(() => a.stop())
  const rogue = await startRogue(t, params, a.address, () => ourStatus(a.chain, nodeVersion(params)))
  await waitFor('the rogue to pass the handshake', () => a.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  const orphans = Math.ceil(BAN_THRESHOLD / PENALTY.orphanBlock)
  const now = Date.now() / 1000
  const started = performance.now()
  for (let i = 0; i < orphans + 10; i++) {
    const orphan = mineBlock(params, { hash: randomBytes(64).toString('hex'), height: 10 + i, timestamp: now - 100 + i })
    await rogue.publishBlockBytes(encodeBlock(orphan))
  }
  await waitFor('the rogue to be banned', () => a.p2p.bans().some((b) => b.peer_id === rogue.peerId))
  t.match(a.p2p.bans().find((b) => b.peer_id === rogue.peerId)?.reason, /unknown parent/)
  const seconds = (performance.now() - started) / 1000
  // the first orphan is asked about; after it, no more than the rate allows in the time it took
  // (a bound from the measured time, not a speed: without the limit each orphan would ask)
  const asked = a.p2p.orphanStatusRequests()
  const allowed = ORPHAN_STATUS_RATE.capacity + Math.ceil(ORPHAN_STATUS_RATE.refillPerSecond * seconds)
  t.ok(asked >= 1 && asked <= allowed, `status requests back: ${asked} for ${orphans} orphans in ${seconds.toFixed(1)} s (allowed ${allowed})`)
})
