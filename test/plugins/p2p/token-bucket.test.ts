import t from 'tap'
import { TokenBuckets } from '../../../plugins/p2p/token-bucket.ts'

t.test('a burst up to the capacity, then the refill rate', async (t) => {
  let clock = 100
  const b = new TokenBuckets({ capacity: 10, refillPerSecond: 2, now: () => clock })
  for (let i = 0; i < 10; i++) t.ok(b.take('p', 1), `burst ${i}`)
  t.notOk(b.take('p', 1), 'empty')
  t.ok(b.take('q', 1), 'another key has its own bucket')
  clock += 0.5
  t.ok(b.take('p', 1), 'half a second earns one token')
  t.notOk(b.take('p', 1))
  clock += 100
  t.equal(b.tokens('p'), 10, 'never above the capacity')
  t.notOk(b.take('p', 11), 'a cost over the capacity never passes')
  t.equal(b.tokens('p'), 10, 'a refused take spends nothing')
})
