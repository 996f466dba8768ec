// ConnectionSlots' rules against a scripted view of open connections (no sockets): per
// address, per netgroup and per id limits, pending upgrades, loopback exemption, eviction.
import t from 'tap'
import { multiaddr } from '@multiformats/multiaddr'
import { ConnectionSlots, slotLimits } from '../../../plugins/p2p/connection-slots.ts'
import type { SlotConnection, SlotsView } from '../../../plugins/p2p/connection-slots.ts'

interface Harness { slots: ConnectionSlots; open: SlotConnection[]; closed: string[]; clock: { now: number } }

function harness (maxPeers = 50, opts: Partial<Pick<SlotsView, 'isBanned' | 'isAddressBanned'>> = {}): Harness {
  const open: SlotConnection[] = []
  const closed: string[] = []
  const clock = { now: 1_000_000 }
  const slots = new ConnectionSlots(slotLimits(maxPeers), {
    connections: () => open,
    usefulness: () => ({ pingMs: 100, lastBlockAt: 0, lastTxAt: 0, protected: false }),
    close: async (id) => { closed.push(id); open.splice(open.findIndex((c) => c.id === id), 1) },
    isBanned: opts.isBanned ?? (() => false),
    isAddressBanned: opts.isAddressBanned ?? (() => false),
    now: () => clock.now
  })
  return { slots, open, closed, clock }
}

let port = 10_000
const addr = (ip: string): ReturnType<typeof multiaddr> => multiaddr(`/ip4/${ip}/tcp/${port++}`)

/** Runs one inbound connection through the three gater steps; adds it to the open list when admitted. */
async function connect (h: Harness, ip: string, peerId: string): Promise<boolean> {
  const remoteAddr = addr(ip)
  const maConn = { remoteAddr }
  if (h.slots.denyInboundConnection(maConn)) return false
  if (h.slots.denyInboundEncryptedConnection(peerId)) return false
  if (await h.slots.denyInboundUpgradedConnection(peerId, maConn)) return false
  h.open.push({ id: `c${port}`, peerId, remoteAddr, direction: 'inbound', openedAt: h.clock.now++ })
  return true
}

t.test('per address and per netgroup limits on established inbound connections; loopback 127.0.0.1 exempt', async (t) => {
  const h = harness()
  const { perAddress, perNetgroup } = h.slots.limits
  for (let i = 0; i < perAddress; i++) t.ok(await connect(h, '203.0.113.9', `a${i}`))
  t.notOk(await connect(h, '203.0.113.9', 'a-more'), 'one more from the address is refused')
  t.equal(h.slots.refused.address, 1)
  for (let i = perAddress; i < perNetgroup; i++) t.ok(await connect(h, `203.0.${i}.1`, `n${i}`))
  t.notOk(await connect(h, '203.0.250.250', 'n-more'), 'one more from the /16 is refused')
  t.equal(h.slots.refused.netgroup, 1)
  t.ok(await connect(h, '198.51.100.1', 'elsewhere'), 'another netgroup is welcome')
  for (let i = 0; i < 12; i++) t.ok(await connect(h, '127.0.0.1', `local${i}`), `shared loopback ${i}`)
})

t.test('at most two connections per peer id, whatever the address', async (t) => {
  const h = harness()
  t.ok(await connect(h, '127.0.0.1', 'same'))
  t.ok(await connect(h, '198.51.100.7', 'same'))
  t.notOk(await connect(h, '192.0.2.1', 'same'))
  t.equal(h.slots.refused['peer-id'], 1)
})

t.test('pending upgrades per address are bounded, released on close, and forgotten after the upgrade deadline', async (t) => {
  const h = harness()
  const listeners: Array<() => void> = []
  const socket = (ip: string): { remoteAddr: ReturnType<typeof multiaddr>, addEventListener: (type: 'close', fn: () => void) => void } =>
    ({ remoteAddr: addr(ip), addEventListener: (_type, fn) => { listeners.push(fn) } })
  const { pendingPerAddress } = h.slots.limits
  for (let i = 0; i < pendingPerAddress; i++) t.notOk(h.slots.denyInboundConnection(socket('192.0.2.44')))
  t.ok(h.slots.denyInboundConnection(socket('192.0.2.44')), 'past the per-address share')
  t.notOk(h.slots.denyInboundConnection(socket('192.0.2.45')), 'another address still gets in')
  t.equal(h.slots.pending, pendingPerAddress + 1);
  (listeners[0] as () => void)()
  t.notOk(h.slots.denyInboundConnection(socket('192.0.2.44')), 'a closed socket freed its share')
  h.clock.now += h.slots.limits.upgradeTimeoutMs + 1001
  t.equal(h.slots.pending, 0, 'stale pending entries are not counted past the upgrade deadline')
  for (let i = 0; i < 20; i++) t.notOk(h.slots.denyInboundConnection(socket('127.0.0.1')), 'shared loopback is not counted')
})

t.test('banned addresses are refused before a byte is read, banned ids once proven', async (t) => {
  const h = harness(50, { isAddressBanned: (ip) => ip === '192.0.2.66', isBanned: (id) => id === 'bad' })
  t.notOk(await connect(h, '192.0.2.66', 'fresh'))
  t.notOk(await connect(h, '192.0.2.67', 'bad'))
  t.equal(h.slots.refused.banned, 2)
  t.ok(await connect(h, '192.0.2.67', 'good'))
})

t.test('full inbound: the newest connection of the most crowded netgroup makes room for a newcomer', async (t) => {
  const h = harness(50)
  const { maxInbound } = h.slots.limits
  t.equal(maxInbound, 42, 'a quarter of 50, at most 8, kept for outbound')
  // honest peers each in their own netgroup, then a crowd filling /16s to their limit of 8:
  // 100.7/16 and 101.7/16 full, 102.7/16 with the rest
  for (let i = 0; i < 20; i++) t.ok(await connect(h, `10.${i}.0.1`, `honest${i}`))
  for (let i = 0; h.open.length < maxInbound; i++) t.ok(await connect(h, `${100 + Math.floor(i / 8)}.7.${i % 8}.1`, `crowd${i}`))
  // the largest netgroups tie at 8: the one with the newest connection (101.7/16) loses its newest
  const newestOfCrowd = h.open.find((c) => c.peerId === 'crowd15') as SlotConnection
  t.ok(await connect(h, '172.16.0.1', 'newcomer'), 'the newcomer is admitted')
  t.equal(h.slots.evicted, 1)
  t.same(h.closed, [newestOfCrowd.id], 'the newest of the largest netgroup went')
  t.equal(h.open.filter((c) => c.direction === 'inbound').length, maxInbound, 'still within the inbound slots')
  t.equal(h.open.filter((c) => c.peerId.startsWith('honest')).length, 20, 'no honest peer evicted')
})
