// The p2p side of the node events (issue 16 item 1): peers connecting and leaving, and blocks
// a peer sent that were refused, by gossip (invalid, undecodable) and by sync, each reach the
// blockRejected / peerConnected / peerDisconnected taps and the dashboard's feed.
import t from 'tap'
import crypto from 'node:crypto'
import { params, startP2pNode, waitFor } from './helpers.ts'
import type { P2pTestNode } from './helpers.ts'
import { startRogue } from './fixtures/rogue.ts'
import { encodeHeaderHex } from '../../../plugins/p2p/header-codec.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'
import { genesisBlock } from '../../../core/chain/genesis.ts'
import { blockWork } from '../../../core/chain/difficulty.ts'
import { encodeBlock } from '../../../core/chain/tx-codec.ts'
import { BlockErrorCode } from '../../../core/chain/errors.ts'
import { devWallet, generateWallet, mineBlock, transfer } from '../../helpers/chain.ts'
import type { BlockRejectedEvent } from '../../../core/kernel/hooks.ts'
import type { NodeEvent } from '../../../core/views/node-events.ts'
import type { Block } from '../../../core/chain/types.ts'

async function feed (n: P2pTestNode): Promise<NodeEvent[]> {
  return (await n.node.resolve('dashboardHttp').inject({ method: 'GET', url: '/api/events?limit=200' })).json().events
}

function rejections (n: P2pTestNode): BlockRejectedEvent[] {
  const seen: BlockRejectedEvent[] = []
  n.node.kernel.hooks.blockRejected.tap('test', (e) => { seen.push(e) })
  return seen
}

t.test('peers and gossiped blocks that were refused', async (t) => {
  const a = await startP2pNode({ plugins: ['http', 'dashboard'] })
  t.teardown(() => a.stop())
  const seen = rejections(a)
  const b = await startP2pNode({ peers: [a.address] })
  const bId = b.p2p.peerId
  let events: NodeEvent[] = []
  await waitFor('peer_connected in the feed', async () => (events = await feed(a)).some((e) => e.type === 'peer_connected'))
  t.match(events.find((e) => e.type === 'peer_connected'), { peer_id: bId, address: /^127\.0\.0\.1:\d+$/ })

  const g = genesisBlock(params)
  const rogue = await startRogue(t, params, a.address, () => ({ chain_id: params.chainId, genesis_hash: g.hash, best_height: 0, best_hash: g.hash, best_work: '1', version: nodeVersion(params) }))
  await waitFor('the rogue to pass the handshake', () => a.p2p.peers().some((p) => p.peer_id === rogue.peerId))
  const bad = mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp }, { difficulty: 3, timestamp: g.timestamp + 1 })
  await rogue.publishBlockBytes(encodeBlock(bad))
  await waitFor('the invalid block to be refused', () => seen.some((e) => e.hash === bad.hash))
  // a target outside the network's bounds is refused with the work, before any other rule
  t.match(seen.find((e) => e.hash === bad.hash), { code: BlockErrorCode.BAD_POW, origin: 'peer', reason: /outside the network's bounds/ })
  await rogue.publishBlockBytes(crypto.randomBytes(64))
  await waitFor('the undecodable block to be refused', () => seen.some((e) => e.code === BlockErrorCode.BAD_FORMAT))
  t.match(seen.find((e) => e.code === BlockErrorCode.BAD_FORMAT), { hash: '', origin: 'peer', reason: /\S/ })
  await waitFor('both refusals in the feed', async () => (events = await feed(a)).filter((e) => e.type === 'block_rejected').length === 2)

  await b.stop()
  await waitFor('peer_disconnected in the feed', async () => (events = await feed(a)).some((e) => e.type === 'peer_disconnected' && e.peer_id === bId))
  t.match(events.find((e) => e.type === 'peer_disconnected'), { peer_id: bId, address: /^127\.0\.0\.1:\d+$/ })
})

t.test('a block refused during sync', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const seen = rejections(victim)
  const g = genesisBlock(params)
  const b1 = mineBlock(params, { hash: g.hash, height: 0, timestamp: g.timestamp }, { timestamp: g.timestamp + 1 })
  // a transfer with a nonce the sender has not reached: the header is fine, the body breaks a rule
  const b2 = mineBlock(params, { hash: b1.hash, height: 1, timestamp: b1.timestamp }, { timestamp: b1.timestamp + 1, txs: [transfer(params, devWallet(), generateWallet().address, 1, 7, { withKey: true })] })
  const b3 = mineBlock(params, { hash: b2.hash, height: 2, timestamp: b2.timestamp }, { timestamp: b2.timestamp + 1 })
  const chain: Block[] = [b1, b2, b3]
  const work = chain.reduce((w, b) => w + blockWork(b.bits), blockWork(g.bits))
  await startRogue(t, params, victim.address, () => ({ chain_id: params.chainId, genesis_hash: g.hash, best_height: 3, best_hash: b3.hash, best_work: work.toString(), version: nodeVersion(params) }), {
    headers: async () => chain.map(encodeHeaderHex),
    blocks: async function * (req) { for (const hash of req.hashes) { const b = chain.find((x) => x.hash === hash); if (b === undefined) return; yield encodeBlock(b) } }
  })
  await waitFor('b2 to be refused', () => seen.some((e) => e.hash === b2.hash))
  t.match(seen.find((e) => e.hash === b2.hash), { code: BlockErrorCode.BAD_TX, origin: 'peer' })
  t.equal(victim.chain.tip().hash, b1.hash, 'the valid prefix connected')
})
