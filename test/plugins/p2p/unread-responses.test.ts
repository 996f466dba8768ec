// Serving that non-readers cannot hold: a peer that asks for blocks and never reads the
// response loses the stream (and the serving slot) once the drain deadline passes, and is
// reported; an honest requester waiting for that slot is then served. Headers requests over
// the per-peer rate cost score, down to a ban.
import t from 'tap'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromString } from '@libp2p/peer-id'
import { createLibp2pNode } from '../../../plugins/p2p/libp2p-node.ts'
import type { LedgerLibp2p } from '../../../plugins/p2p/libp2p-node.ts'
import { ReqRespClient, registerHandlers } from '../../../plugins/p2p/reqresp.ts'
import { writeFrame } from '../../../plugins/p2p/framing.ts'
import { encodeJson, protocolId } from '../../../plugins/p2p/protocol.ts'
import type { Method } from '../../../plugins/p2p/protocol.ts'
import { Slots } from '../../../plugins/p2p/slots.ts'
import { PENALTY, BAN_THRESHOLD } from '../../../plugins/p2p/misbehaviour.ts'
import { HEADERS_RATE } from '../../../plugins/p2p/p2p.ts'
import { params, startP2pNode, waitFor } from './helpers.ts'
import { startRogue } from './fixtures/rogue.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'

async function libp2pNode (t: { teardown(fn: () => unknown): void }): Promise<LedgerLibp2p> {
  const node = await createLibp2pNode({ privateKey: await generateKeyPair('Ed25519'), listen: ['/ip4/127.0.0.1/tcp/0'], maxConnections: 10, isBanned: () => false })
  await node.start()
  t.teardown(() => node.stop())
  return node
}

t.test('a peer that never reads its blocks response loses the stream and the serving slot', async (t) => {
  const server = await libp2pNode(t)
  const slot = new Slots(1)
  const unread: Array<[string, Method]> = []
  const MIB = 1024 * 1024
  // 4 MiB per response: well past what yamux's window and the buffers take without a reader
  const response = async function * (): AsyncGenerator<Uint8Array> { for (let i = 0; i < 4; i++) yield new Uint8Array(MIB).fill(i) }
  await registerHandlers({ node: server, params, timeoutMs: 60_000, drainMs: 1_000 }, {
    status: () => { throw new Error('not used') },
    headers: async () => [],
    blocks: () => slot.hold(response),
    misbehaved: () => {},
    unread: (peerId, method) => { unread.push([peerId, method]) }
  })
  const hashes = ['ab'.repeat(64), 'cd'.repeat(64), 'ef'.repeat(64), '01'.repeat(64)]

  const idle = await libp2pNode(t)
  await idle.dial(server.getMultiaddrs()[0] as Parameters<LedgerLibp2p['dial']>[0])
  const stream = await idle.dialProtocol(server.peerId, protocolId(params, 'blocks'))
  stream.pause() // reads nothing from here on
  await writeFrame(stream, encodeJson({ hashes }))
  await stream.close().catch(() => undefined)

  // the honest requester queues for the one slot the idle peer holds
  const honest = await libp2pNode(t)
  await honest.dial(server.getMultiaddrs()[0] as Parameters<LedgerLibp2p['dial']>[0])
  const client = new ReqRespClient({ node: honest, params, timeoutMs: 30_000 })
  const served = client.blocks(server.peerId.toString(), hashes)

  await waitFor('the idle peer to be reported for not reading', () => unread.length > 0)
  t.same(unread, [[idle.peerId.toString(), 'blocks']])
  const frames = await served
  t.equal(frames.length, 4, 'the honest requester got the whole response once the slot was freed')
  t.equal(frames.bytes, 4 * MIB)
  t.equal(slot.waiting, 0)
})

t.test('headers requests over the per-peer rate cost score until the peer is banned', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const rogue = await startRogue(t, params, victim.address, () => ourStatus(victim.chain, nodeVersion(params)))
  await waitFor('the rogue to pass the handshake', () => victim.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  const client = new ReqRespClient({ node: rogue.node, params, timeoutMs: 5000 })
  const victimId = victim.p2p.peerId as string
  const req = { locator: [victim.chain.genesisHash()], max: 2000 }
  const burst = HEADERS_RATE.capacity / req.max
  let served = 0
  let refused = 0
  // serial requests, each answered at once: far faster than the refill
  for (let i = 0; i < 200 && !victim.p2p.misbehaviour.isBanned(rogue.peerId); i++) {
    try {
      await client.headers(victimId, req)
      served++
    } catch {
      refused++
      if (refused === 1) t.equal(victim.p2p.score(rogue.peerId), PENALTY.headersFlood, 'the first refused request cost the flood penalty')
      if (rogue.node.getConnections(peerIdFromString(victimId)).length === 0) break
    }
  }
  t.ok(served >= burst, `the burst was served (${served} of ${burst})`)
  t.ok(served < burst + 10, `then little more than the refill (${served})`)
  await waitFor('the flooder to be banned', () => victim.p2p.bans().some((b) => b.peer_id === rogue.peerId))
  t.ok(refused >= BAN_THRESHOLD / PENALTY.headersFlood - 1, `${refused} refusals`)
  t.match(victim.p2p.bans().find((b) => b.peer_id === rogue.peerId)?.reason, /headers requests over the rate/)
})
