import t from 'tap'
import { BoundedCache } from '../../core/kernel/bounded-cache.ts'

t.test('evicts the least recently used past either bound', async (t) => {
  const c = new BoundedCache<string, number>({ maxEntries: 3, maxSize: 100 })
  c.set('a', 1, 10); c.set('b', 2, 10); c.set('c', 3, 10)
  t.equal(c.get('a'), 1, 'a is now the most recent')
  c.set('d', 4, 10)
  t.equal(c.get('b'), undefined, 'b, the least recent, went first')
  t.same([c.get('a'), c.get('c'), c.get('d')], [1, 3, 4])
  c.set('big', 5, 85)
  t.equal(c.size <= 100, true, 'the size bound holds')
  t.equal(c.get('big'), 5)
  t.equal(c.entries, 2, 'room made by evicting the oldest')
  c.set('huge', 6, 101)
  t.equal(c.get('huge'), undefined, 'a value over the whole budget is not kept')
  c.set('big', 7, 1)
  t.equal(c.get('big'), 7, 'a replaced value')
  t.ok(c.size <= 100)
  const before = c.size
  c.delete('big')
  t.equal(c.get('big'), undefined, 'deleted')
  t.equal(c.size, before - 1, 'its size is given back')
  c.delete('never there')
})
