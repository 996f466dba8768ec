import t from 'tap'
import { PROTECT, selectEvictionVictim } from '../../../plugins/p2p/eviction.ts'
import type { EvictionCandidate } from '../../../plugins/p2p/eviction.ts'
import { netgroupOf, isSharedAddress } from '../../../plugins/p2p/netgroup.ts'

const KEY = 'test-key'
let next = 0
function peer (o: Partial<EvictionCandidate> = {}): EvictionCandidate {
  next++
  return { id: `c${next}`, netgroup: `10.${next}.0.0/16`, connectedAt: 1000 + next, pingMs: 100 + next, lastBlockAt: 0, lastTxAt: 0, protected: false, ...o }
}

t.test('netgroups: IPv4 /16, IPv6 /32, loopback alone', async (t) => {
  t.equal(netgroupOf('203.0.113.7'), '203.0.0.0/16')
  t.equal(netgroupOf('203.0.200.1'), '203.0.0.0/16')
  t.equal(netgroupOf('::ffff:203.0.113.7'), '203.0.0.0/16')
  t.equal(netgroupOf('2001:db8:1:2::5'), '2001:db8::/32')
  t.equal(netgroupOf('2001:0db8::1'), '2001:db8::/32')
  t.equal(netgroupOf('127.0.0.2'), '127.0.0.2')
  t.equal(netgroupOf('127.0.0.3'), '127.0.0.3')
  t.equal(netgroupOf('::1'), '::1')
  t.ok(isSharedAddress('127.0.0.1'))
  t.ok(isSharedAddress('::1'))
  t.notOk(isSharedAddress('127.0.0.2'))
})

t.test('nothing to evict when every candidate is protected', async (t) => {
  t.equal(selectEvictionVictim([], KEY), undefined)
  t.equal(selectEvictionVictim([peer({ protected: true }), peer({ protected: true })], KEY), undefined)
  // fewer than the protected counts: each is kept by some rule
  t.equal(selectEvictionVictim(Array.from({ length: PROTECT.netgroups + PROTECT.ping }, () => peer()), KEY), undefined)
})

t.test('an attacker filling inbound from one netgroup loses its newest connection, not the honest peers', async (t) => {
  const honest = Array.from({ length: 10 }, (_, i) => peer({ netgroup: `198.${i}.0.0/16`, connectedAt: i, pingMs: 50 + i }))
  const attacker = Array.from({ length: 30 }, (_, i) => peer({ netgroup: '203.0.0.0/16', connectedAt: 10_000 + i, pingMs: 5 }))
  const victim = selectEvictionVictim([...honest, ...attacker], KEY)
  t.equal(victim?.netgroup, '203.0.0.0/16', 'evicted from the largest netgroup')
  t.equal(victim?.connectedAt, 10_029, 'its newest connection')
})

t.test('each protection rule keeps its peers', async (t) => {
  // 40 peers in one netgroup except the special ones; all recent
  const crowd = Array.from({ length: 40 }, (_, i) => peer({ netgroup: '203.0.0.0/16', connectedAt: 5000 + i, pingMs: 500 }))
  const blockRelayer = peer({ netgroup: '203.0.0.0/16', connectedAt: 9999, pingMs: 500, lastBlockAt: 1 })
  const txRelayer = peer({ netgroup: '203.0.0.0/16', connectedAt: 9998, pingMs: 500, lastTxAt: 1 })
  const fast = peer({ netgroup: '203.0.0.0/16', connectedAt: 9997, pingMs: 1 })
  const outbound = peer({ netgroup: '203.0.0.0/16', connectedAt: 10_000, protected: true })
  const all = [...crowd, blockRelayer, txRelayer, fast, outbound]
  const evicted = new Set<string>()
  let pool = all
  // evict repeatedly: the protected ones are never chosen while others remain
  for (let i = 0; i < 20; i++) {
    const v = selectEvictionVictim(pool, KEY)
    if (v === undefined) break
    evicted.add(v.id)
    pool = pool.filter((c) => c !== v)
  }
  t.equal(evicted.size, 20)
  for (const kept of [blockRelayer, txRelayer, fast, outbound]) t.notOk(evicted.has(kept.id), `kept ${kept.id}`)
  // the oldest half of what remains is protected: the very first connection survives
  t.notOk(evicted.has((crowd[0] as EvictionCandidate).id), 'the longest connected is kept')
})

t.test('diversity protection depends on the node\'s secret key, not on something an attacker can aim at', async (t) => {
  // 20 lone netgroups, equal in everything else: which one goes depends on which four the key protects
  const groups = Array.from({ length: 20 }, (_, i) => peer({ netgroup: `${i + 1}.1.0.0/16`, connectedAt: 1, pingMs: 1000 }))
  t.ok(selectEvictionVictim(groups, 'key-a') !== undefined)
  const seen = new Set<string>()
  for (let k = 0; k < 20; k++) seen.add(selectEvictionVictim(groups, `key-${k}`)?.id ?? '')
  t.ok(seen.size > 1, 'different keys protect different netgroups')
})
