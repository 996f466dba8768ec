// Sync's read-ahead of block bodies is bounded by bytes (issue 15), not only by requests.
import t from 'tap'
import { mayPrefetch, PREFETCH_BYTES } from '../../../plugins/p2p/sync.ts'

t.test('one request always; then at most three, and only while their bytes fit the budget', async (t) => {
  t.ok(mayPrefetch(0, 64, 10 * PREFETCH_BYTES), 'the next request goes out whatever its size')
  t.ok(mayPrefetch(2, 64, 0), 'sizes not known yet: up to three requests')
  t.notOk(mayPrefetch(3, 64, 0), 'never a fourth')
  t.ok(mayPrefetch(2, 64, 1000), 'empty blocks (~1 KB): three requests ahead')
  // 20 transfers a block are ~100 KB on the wire: 64 of them fill most of the budget
  t.notOk(mayPrefetch(1, 64, 100_000), 'big blocks: one request ahead')
  t.ok(mayPrefetch(1, 64, PREFETCH_BYTES / 128), 'two requests when exactly within the budget')
})
