import t from 'tap'
import { extend, params, startP2pNode, waitFor } from './helpers.ts'
import type { PeerEvent } from '../../../core/kernel/hooks.ts'
import { recordingLogger } from '../../helpers/log.ts'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { createLibp2pNode } from '../../../plugins/p2p/libp2p-node.ts'
import { registerHandlers } from '../../../plugins/p2p/reqresp.ts'
import { parsePeerAddress } from '../../../plugins/p2p/address.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { PROTOCOL_VERSION } from '../../../core/kernel/version.ts'

t.test('peers handshake, list each other with SPEC 2.2 fields and fire the peer hooks', async (t) => {
  const a = await startP2pNode()
  t.teardown(() => a.stop())
  t.equal(a.p2p.syncState(), 'idle', 'no peers: idle')
  const seen: Array<[string, PeerEvent]> = []
  a.node.kernel.hooks.peerConnected.tap('test', (p) => { seen.push(['connected', p]) })
  a.node.kernel.hooks.peerDisconnected.tap('test', (p) => { seen.push(['disconnected', p]) })
  await extend(a.chain, 3)
  const b = await startP2pNode({ peers: [a.address] })
  await waitFor('both sides to list each other', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 1)
  const [fromB] = b.p2p.peers()
  t.match(fromB, { peer_id: a.p2p.peerId, address: a.address, version: `${PROTOCOL_VERSION}-${params.versionSuffix}`, best_height: 3 })
  t.type(fromB?.connected_at, 'number')
  t.ok(Math.abs((fromB?.connected_at ?? 0) - Date.now() / 1000) < 60, 'connected_at is a Unix time in seconds')
  const [fromA] = a.p2p.peers()
  t.equal(fromA?.peer_id, b.p2p.peerId)
  t.match(fromA?.address, /^127\.0\.0\.1:\d+$/)
  await waitFor('b to sync', () => b.chain.tip().height === 3)
  await waitFor('a synced state', () => a.p2p.syncState() === 'synced' && b.p2p.syncState() === 'synced')
  const bId = b.p2p.peerId
  await b.stop()
  await waitFor('a to notice b left', () => a.p2p.peers().length === 0)
  t.equal(a.p2p.syncState(), 'idle')
  t.same(seen.map(([k, p]) => [k, p.peerId]), [['connected', bId], ['disconnected', bId]])
  t.match(seen[0]?.[1].address, /^127\.0\.0\.1:\d+$/)
})

t.test('the peer identity persists across restarts in <dataDir>/node.key', async (t) => {
  const a = await startP2pNode({ keepData: true })
  const id = a.p2p.peerId
  const dir = a.node.dataDir
  await a.stop()
  const again = await startP2pNode({ dataDir: dir })
  t.teardown(() => again.stop())
  t.equal(again.p2p.peerId, id)
})

t.test('nodes of another network never become peers', async (t) => {
  const { logger, records } = recordingLogger('debug')
  const a = await startP2pNode({ logger })
  t.teardown(() => a.stop())
  // another magic: none of our protocols exist there
  const otherMagic = await startP2pNode({ peers: [a.address], params: { ...params, name: 'testnet', chainId: 'ledger-testnet-1', magic: '4c544e31' } })
  t.teardown(() => otherMagic.stop())
  // same magic, another genesis: the status handshake tells them apart
  const otherGenesis = await startP2pNode({ peers: [a.address], params: { ...params, genesisTimestamp: params.genesisTimestamp + 1 } })
  t.teardown(() => otherGenesis.stop())
  t.not(otherGenesis.chain.genesisHash(), a.chain.genesisHash())
  // control: a node of our network connects within the same window
  const friend = await startP2pNode({ peers: [a.address] })
  t.teardown(() => friend.stop())
  // each side lists the other once its own half of the status handshake is done, so wait for both
  await waitFor('the friend to connect', () => friend.p2p.peers().length === 1 && a.p2p.peers().length === 1)
  // a's handshake with each of the other two ends in a logged decision (or in a failure, when the
  // other side hung up first): wait for both, then judge the outcome
  const endings = new Set(['peer does not speak this network\'s protocol; disconnecting', 'peer is on another chain; disconnecting', 'handshake failed'])
  const turnedAway = (peer: string | null): boolean => records.some((r) => r.peer === peer && endings.has(r.msg))
  await waitFor('a to turn the other-magic node away', () => turnedAway(otherMagic.p2p.peerId))
  await waitFor('a to turn the other-genesis node away', () => turnedAway(otherGenesis.p2p.peerId))
  t.same(a.p2p.peers().map((p) => p.peer_id), [friend.p2p.peerId])
  t.same(otherMagic.p2p.peers(), [])
  t.same(otherGenesis.p2p.peers(), [])
  t.equal(otherGenesis.p2p.syncState(), 'idle')
})

t.test('a peer of another protocol version is refused at status, even on our chain id and genesis', async (t) => {
  const { logger, records } = recordingLogger('debug')
  const a = await startP2pNode({ logger })
  t.teardown(() => a.stop())
  // a protocol 1 node: same magic, chain id and genesis hash in its status, only the version differs
  const old = await createLibp2pNode({ privateKey: await generateKeyPair('Ed25519'), listen: ['/ip4/127.0.0.1/tcp/0'], maxConnections: 10, isBanned: () => false })
  await old.start()
  t.teardown(() => old.stop())
  await registerHandlers({ node: old, params, timeoutMs: 5000 }, {
    status: () => ({ ...ourStatus(a.chain, `1-${params.versionSuffix}`) }),
    headers: async () => [],
    blocks: async function * () {},
    misbehaved: () => {}
  })
  await old.dial(parsePeerAddress(a.address))
  const oldId = old.peerId.toString()
  await waitFor('a to turn the protocol 1 node away', () => records.some((r) => r.peer === oldId && r.msg === 'peer is on another chain; disconnecting'))
  const record = records.find((r) => r.peer === oldId && r.msg === 'peer is on another chain; disconnecting')
  t.match(record?.reason, `protocol version 1, ours ${PROTOCOL_VERSION}`)
  t.same(a.p2p.peers(), [], 'never listed as a peer')
})
