// The orphan pool's bookkeeping: every bound (count, bytes, per sender, per announcing peer),
// the time-to-live, nonce-ordered take, and eviction (the announcer's oldest, else random).
import t from 'tap'
import { OrphanPool } from '../../../plugins/consensus/orphan-pool.ts'
import type { OrphanLimits } from '../../../plugins/consensus/orphan-pool.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import { seededRandom } from '../../helpers/random.ts'

const tx = (sender: string, nonce: number): Transaction => ({ sender, recipient: 'r', amount: 1, timestamp: 0, transaction_id: `${sender}-${nonce}`, signature: '', fee: 0, data: {}, nonce })

function pool (limits: Partial<OrphanLimits> = {}, clock = { now: 0 }): OrphanPool {
  return new OrphanPool({ limits, now: () => clock.now, random: seededRandom(31) })
}

t.test('held by sender and nonce, taken in nonce order, and a twin of the same nonce is not held', async (t) => {
  const p = pool()
  t.ok(p.add(tx('a', 3), 'p1', 100))
  t.ok(p.add(tx('a', 2), 'p2', 100))
  t.notOk(p.add({ ...tx('a', 2), transaction_id: 'twin' }, 'p1', 100), 'the first of a sender and nonce stays')
  t.ok(p.has('a-2'))
  t.notOk(p.has('twin'))
  t.equal(p.take('a', 1), undefined, 'nothing at nonce 1')
  t.equal(p.take('a', 2)?.transaction_id, 'a-2')
  t.equal(p.take('a', 3)?.transaction_id, 'a-3')
  t.equal(p.size, 0)
  t.equal(p.bytes, 0)
  t.same(p.senders(), [])
})

t.test('dropBelow forgets nonces already used', async (t) => {
  const p = pool()
  for (const n of [2, 3, 5]) p.add(tx('a', n), 'p1', 10)
  p.add(tx('b', 1), 'p1', 10)
  p.dropBelow('a', 4)
  t.same([p.has('a-2'), p.has('a-3'), p.has('a-5'), p.has('b-1')], [false, false, true, true])
})

t.test('the time-to-live', async (t) => {
  const clock = { now: 1000 }
  const p = pool({ ttlSeconds: 60 }, clock)
  p.add(tx('a', 1), 'p1', 10)
  clock.now += 30
  p.add(tx('a', 2), 'p1', 10)
  clock.now += 31
  p.expire()
  t.same([p.has('a-1'), p.has('a-2')], [false, true], 'the one held over 60 s is gone')
  clock.now += 30
  p.expire()
  t.equal(p.size, 0)
})

t.test('per announcing peer, count and bytes: its own oldest goes, nobody else\'s', async (t) => {
  const p = pool({ perPeer: 3, perPeerBytes: 1000 })
  p.add(tx('x', 1), 'honest', 10)
  for (let n = 1; n <= 5; n++) p.add(tx('a', n), 'flood', 10)
  t.equal(p.countOf('flood'), 3)
  t.same([1, 2, 3, 4, 5].map((n) => p.has(`a-${n}`)), [false, false, true, true, true], 'the flood\'s oldest went')
  t.ok(p.has('x-1'), 'the other peer\'s orphan stays')
  p.add(tx('b', 1), 'flood', 995)
  t.equal(p.countOf('flood'), 1, 'bytes bound the peer too')
  t.notOk(p.add(tx('c', 1), 'flood', 1001), 'larger than a peer\'s whole share: not held')
})

t.test('per sender: the sender\'s oldest goes', async (t) => {
  const p = pool({ perSender: 2 })
  p.add(tx('a', 5), 'p1', 10)
  p.add(tx('a', 6), 'p2', 10)
  p.add(tx('a', 7), 'p3', 10)
  t.same([p.has('a-5'), p.has('a-6'), p.has('a-7')], [false, true, true])
})

t.test('overall count and bytes: random eviction keeps the pool within its bounds', async (t) => {
  const p = pool({ count: 50, bytes: 4000, perPeer: 1000 })
  for (let n = 0; n < 200; n++) p.add(tx(`s${n}`, 1), `p${n % 7}`, 50)
  t.equal(p.size, 50)
  for (let n = 0; n < 200; n++) p.add(tx(`t${n}`, 1), `p${n % 7}`, 100)
  t.ok(p.bytes <= 4000, `bytes ${p.bytes}`)
  t.ok(p.size <= 50)
  const survivorsOfFirstWave = Array.from({ length: 200 }, (_, n) => p.has(`s${n}-1`)).filter(Boolean).length
  t.ok(survivorsOfFirstWave < 50, 'older ones were evicted at random as newer came')
})
