// Connection slots against real sockets and libp2p peers: silent sockets holding pending
// upgrades, one peer id dialing many times, inbound full while outbound stays free.
import t from 'tap'
import net from 'node:net'
import { params, startP2pNode, waitFor } from './helpers.ts'
import type { P2pTestNode } from './helpers.ts'
import { startRogue } from './fixtures/rogue.ts'
import { ourStatus } from '../../../plugins/p2p/chain-server.ts'
import { nodeVersion } from '../../../core/kernel/version.ts'
import { parsePeerAddress } from '../../../plugins/p2p/address.ts'
import { slotLimits } from '../../../plugins/p2p/connection-slots.ts'

/** TCP sockets from `localAddress` that connect and never say a word; each is reopened when the node drops it. */
function silentSockets (t: { teardown(fn: () => unknown): void }, port: number, localAddresses: string[]): { opened: () => number } {
  let running = true
  let opened = 0
  const sockets = new Set<net.Socket>()
  const open = (localAddress: string): void => {
    if (!running) return
    const s = net.connect({ host: '127.0.0.1', port, localAddress })
    sockets.add(s)
    s.on('connect', () => { opened++ })
    s.on('error', () => undefined)
    s.on('close', () => { sockets.delete(s); setImmediate(() => { open(localAddress) }) })
  }
  for (const a of localAddresses) open(a)
  t.teardown(() => { running = false; for (const s of sockets) s.destroy() })
  return { opened: () => opened }
}

async function honestPeers (t: { teardown(fn: () => unknown): void }, victim: P2pTestNode, n: number): Promise<P2pTestNode[]> {
  const peers: P2pTestNode[] = []
  for (let i = 0; i < n; i++) {
    const p = await startP2pNode({ peers: [victim.address] })
    t.teardown(() => p.stop())
    peers.push(p)
  }
  return peers
}

t.test('silent TCP sockets do not keep honest peers out', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  const port = victim.p2p.listenPort() as number
  const { pendingPerAddress } = slotLimits(50)
  // 10 from one address (all but its pending share refused at once) and one from each of 10 more
  const crowd = Array.from({ length: 10 }, () => '127.0.0.2')
  const spread = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 3}`)
  const silent = silentSockets(t, port, [...crowd, ...spread])
  // every socket connected, and the refused ones of the crowded address reopened at least once
  await waitFor('the silent sockets to be open', () => silent.opened() >= 2 * crowd.length + spread.length)
  const honest = await honestPeers(t, victim, 4)
  await waitFor('all four honest peers and the victim to list each other', () => victim.p2p.peers().length === 4 && honest.every((h) => h.p2p.peers()[0]?.peer_id === victim.p2p.peerId), 30_000)
  t.ok(victim.p2p.slots.refused.pending > 0, 'the crowded address was refused past its pending share')
  t.ok(victim.p2p.slots.pending <= pendingPerAddress + spread.length, `at most ${pendingPerAddress} pending from the crowded address`)
})

t.test('one peer id dialing 50 times holds no more than its per-id limit', async (t) => {
  const victim = await startP2pNode()
  t.teardown(() => victim.stop())
  // a peer of the victim's chain (it passes the handshake), then 49 more dials under its id
  const rogue = await startRogue(t, params, victim.address, () => ourStatus(victim.chain, nodeVersion(params)))
  const rogueId = rogue.peerId
  await waitFor('the rogue to pass the handshake', () => victim.p2p.peers().some((p) => p.peer_id === rogueId))
  const addr = parsePeerAddress(victim.address)
  const results = await Promise.allSettled(Array.from({ length: 49 }, async () => await rogue.node.dial(addr, { force: true, signal: AbortSignal.timeout(10_000) })))
  const held = (): number => victim.p2p.slotConnections().filter((c) => c.peerId === rogueId).length
  t.ok(results.some((r) => r.status === 'fulfilled'), 'the first dials get through')
  await waitFor('the dials to settle on the victim', () => victim.p2p.slots.pending === 0)
  const { perPeerId } = slotLimits(50)
  t.ok(held() <= perPeerId, `${held()} connections held (limit ${perPeerId})`)
  t.ok(victim.p2p.slots.refused['peer-id'] > 0, 'the per-id limit refused some')
  t.ok(held() >= 1)
})

t.test('full inbound slots refuse a newcomer when no inbound peer may be evicted; outbound slots stay free', async (t) => {
  // maxPeers 4: 3 inbound slots, 1 reserved for this node's own dials
  const victim = await startP2pNode({ p2p: { maxPeers: 4 } })
  t.teardown(() => victim.stop())
  t.equal(victim.p2p.slots.limits.maxInbound, 3)
  await honestPeers(t, victim, 3)
  await waitFor('three inbound peers', () => victim.p2p.peers().length === 3)
  // too few inbound peers for any to be evictable (each is protected by some rule): the fourth is refused
  const late = await startP2pNode({ peers: [victim.address] })
  t.teardown(() => late.stop())
  await waitFor('the fourth inbound to be refused', () => victim.p2p.slots.refused.full > 0)
  t.equal(victim.p2p.peers().length, 3)
  // the outbound slot: the victim dials a node itself
  const chosen = await startP2pNode()
  t.teardown(() => chosen.stop())
  await victim.p2p.connect(chosen.address)
  await waitFor('the outbound peer to be handshaken', () => victim.p2p.peers().some((p) => p.peer_id === chosen.p2p.peerId))
  t.equal(victim.p2p.peers().length, 4)
})
