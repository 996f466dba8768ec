// Mixed versions (docs/p2p.md "Versions"): a node of protocol version 1 (whole-block gossip,
// no compact blocks or transaction announcements) is refused at the status handshake, cleanly:
// it is told our status, never listed as a peer, and the refusal is logged with the reason.
import t from 'tap'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { params, startP2pNode, waitFor } from './helpers.ts'
import { recordingLogger } from '../../helpers/log.ts'
import { createLibp2pNode } from '../../../plugins/p2p/libp2p-node.ts'
import { registerHandlers } from '../../../plugins/p2p/reqresp.ts'
import { parsePeerAddress } from '../../../plugins/p2p/address.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { protocolVersionOf } from '../../../plugins/p2p/protocol.ts'
import { PROTOCOL_VERSION } from '../../../core/kernel/version.ts'

t.test('a version-1 peer of our chain is refused at the handshake; a current one is not', async (t) => {
  const { logger, records } = recordingLogger('info')
  const a = await startP2pNode({ logger })
  t.teardown(() => a.stop())
  const old = await createLibp2pNode({ privateKey: await generateKeyPair('Ed25519'), listen: ['/ip4/127.0.0.1/tcp/0'], maxConnections: 10, isBanned: () => false })
  await old.start()
  t.teardown(() => old.stop())
  let told: string | undefined
  await registerHandlers({ node: old, params, timeoutMs: 5000 }, {
    status: (remote) => { told = remote.version; return ourStatus(a.chain, `1-${params.versionSuffix}`) },
    headers: async () => [],
    blocks: async function * () {},
    blocktxn: async () => [],
    txinv: () => {},
    gettx: (ids) => ids.map(() => new Uint8Array(0)),
    misbehaved: () => {}
  })
  await old.dial(parsePeerAddress(a.address))
  const oldId = old.peerId.toString()
  await waitFor('a to refuse the old peer', () => records.some((r) => r.peer === oldId && typeof r.reason === 'string' && r.reason.includes('protocol version')))
  await waitFor('the old peer to be hung up on', () => old.getConnections().length === 0)
  t.same(a.p2p.peers(), [], 'never listed as a peer')
  t.equal(a.p2p.score(oldId), 0, 'not penalized: an old version is no misbehaviour')
  t.equal(protocolVersionOf(told ?? ''), PROTOCOL_VERSION, 'it was told our version')

  const current = await startP2pNode({ peers: [a.address] })
  t.teardown(() => current.stop())
  await waitFor('a current peer to connect', () => a.p2p.peers().length === 1)
})

t.test('protocol versions are read from the status version string', async (t) => {
  t.equal(protocolVersionOf('2-testnet'), 2)
  t.equal(protocolVersionOf('1-devnet'), 1)
  t.ok(Number.isNaN(protocolVersionOf('devnet')))
  t.ok(Number.isNaN(protocolVersionOf('')))
})
