import t from 'tap'
import { peerIdFromString } from '@libp2p/peer-id'
import { extend, params, startP2pNode, waitFor } from './helpers.ts'
import type { P2pTestNode } from './helpers.ts'
import { makeAttestation, mineBlock } from '../../helpers/chain.ts'
import { startRogue, withBadPow } from './fixtures/rogue.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { parsePeerAddress } from '../../../plugins/p2p/address.ts'
import { frame } from '../../../plugins/p2p/framing.ts'
import { protocolId } from '../../../plugins/p2p/protocol.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'
import type { Block } from '../../../core/chain/types.ts'
import { encodeBlock } from '../../../core/chain/tx-codec.ts'

const json = (v: unknown): Uint8Array => Buffer.from(JSON.stringify(v))

function childOfTip (n: P2pTestNode, opts: Parameters<typeof mineBlock>[2] = {}): Block {
  const tip = n.chain.tip()
  return mineBlock(params, { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }, opts)
}

t.test('a peer sending garbage, a bad attestation and a bad proof-of-work is banned; the others carry on', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  const b = await startP2pNode({ peers: [a.address] })
  t.teardown(() => b.stop())
  await extend(a.chain, 2)
  await waitFor('b to sync', () => b.chain.tip().hash === a.chain.tip().hash)

  const rogue = await startRogue(t, params, a.address, () => ourStatus(a.chain, nodeVersion(params)))
  const rogueId = rogue.peerId
  await waitFor('the rogue to pass the handshake', () => a.p2p.peers().some((p) => p.peer_id === rogueId))
  const publish = rogue.publishBlockBytes

  await publish(Uint8Array.of(0xde, 0xad, 0xbe, 0xef))
  await waitFor('the garbage to be penalized', () => a.p2p.score(rogueId) === 25)

  const badAttestation = childOfTip(a, { attestation: makeAttestation(a.chain.tip().timestamp + 1, { health: { monobit_ratio: 0.9 } }) })
  await publish(encodeBlock(badAttestation))
  await waitFor('the bad attestation to be penalized', () => a.p2p.score(rogueId) === 75)

  const badPow = withBadPow(childOfTip(a))
  await publish(encodeBlock(badPow))
  await waitFor('the rogue to be banned', () => a.p2p.bans().some((ban) => ban.peer_id === rogueId))
  t.match(a.p2p.bans().find((ban) => ban.peer_id === rogueId)?.reason, /BLOCK_ERROR_BAD_POW/)
  await waitFor('the rogue to be disconnected', () => rogue.node.getConnections().length === 0 && !a.p2p.peers().some((p) => p.peer_id === rogueId))
  // The dial may complete on the rogue's side before a's gater closes it; either way it never stays.
  // a's connection gater asks the ban list: count its refusals of the rogue to know it was asked.
  const misbehaviour = a.p2p.misbehaviour
  const isBanned = misbehaviour.isBanned.bind(misbehaviour)
  let refusals = 0
  misbehaviour.isBanned = (peerId) => {
    const banned = isBanned(peerId)
    if (banned && peerId === rogueId) refusals++
    return banned
  }
  await rogue.node.dial(parsePeerAddress(a.address), { signal: AbortSignal.timeout(5000) }).catch(() => undefined)
  await waitFor('a to refuse the redial by the banned peer', () => refusals > 0)
  await waitFor('a redial by the banned peer to be cut', () => rogue.node.getConnections().length === 0)
  t.notOk(a.p2p.peers().some((p) => p.peer_id === rogueId), 'a banned peer does not become a peer again')

  for (const block of [badAttestation, badPow]) {
    t.equal(a.chain.getBlockMeta(block.hash), undefined, 'the invalid block is not stored')
    t.equal(b.chain.getBlockMeta(block.hash), undefined, 'the invalid block was never relayed to b')
  }
  t.equal(a.chain.tip().height, 2)
  await extend(a.chain, 2)
  await waitFor('b to keep following a', () => b.chain.tip().hash === a.chain.tip().hash)
  t.equal(b.chain.tip().height, 4)
  t.same(a.p2p.peers().map((p) => p.peer_id), [b.p2p.peerId])
})

t.test('garbage frames on the request protocols cost the sender its connection', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  const rogue = await startRogue(t, params, a.address, () => ourStatus(a.chain, nodeVersion(params)))
  const rogueId = rogue.peerId
  await waitFor('the rogue to pass the handshake', () => a.p2p.peers().some((p) => p.peer_id === rogueId))
  const target = peerIdFromString(a.p2p.peerId ?? '')
  const send = async (method: 'status' | 'headers' | 'blocks', bytes: Uint8Array): Promise<void> => {
    const stream = await rogue.node.dialProtocol(target, protocolId(params, method))
    stream.send(bytes)
    await stream.close().catch(() => undefined)
    for await (const _ of stream) { /* drain until the victim closes */ }
  }
  const huge = new Uint8Array(4)
  new DataView(huge.buffer).setUint32(0, 1 << 30)
  await send('status', frame(Buffer.from('not json at all'))).catch(() => undefined)
  await waitFor('garbage JSON to be penalized', () => a.p2p.score(rogueId) === 25)
  await send('headers', huge).catch(() => undefined)
  await waitFor('an oversized frame to be penalized', () => a.p2p.score(rogueId) === 50)
  await send('blocks', frame(json({ hashes: 'all of them' }))).catch(() => undefined)
  await waitFor('a malformed request to be penalized', () => a.p2p.score(rogueId) === 75)
  await send('headers', frame(json({ locator: [], max: -1 }))).catch(() => undefined)
  await waitFor('the rogue to be banned and dropped', () => a.p2p.bans().some((ban) => ban.peer_id === rogueId) && rogue.node.getConnections().length === 0)
  t.equal(a.p2p.peers().length, 0)
})
