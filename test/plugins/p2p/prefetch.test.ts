// Sync's read-ahead of block bodies is bounded by bytes (issue 15), not only by requests, and
// its requests start small so the first block connects early.
import t from 'tap'
import { FIRST_REQUEST_BLOCKS, mayPrefetch, PREFETCH_BYTES, rampedChunks } from '../../../plugins/p2p/sync.ts'

t.test('one request always; then at most three, and only while their bytes fit the budget', async (t) => {
  t.ok(mayPrefetch(0, 64, 10 * PREFETCH_BYTES), 'the next request goes out whatever its size')
  t.ok(mayPrefetch(2, 64, 0), 'sizes not known yet: up to three requests')
  t.notOk(mayPrefetch(3, 64, 0), 'never a fourth')
  t.ok(mayPrefetch(2, 64, 1000), 'empty blocks (~1 KB): three requests ahead')
  // 20 transfers a block are ~100 KB on the wire: 64 of them fill most of the budget
  t.notOk(mayPrefetch(1, 64, 100_000), 'big blocks: one request ahead')
  t.ok(mayPrefetch(1, 64, PREFETCH_BYTES / 128), 'two requests when exactly within the budget')
})

t.test('block requests start at 8 and double up to the configured size, covering every header once', async (t) => {
  const items = Array.from({ length: 300 }, (_, i) => i)
  const chunks = rampedChunks(items, 64)
  t.same(chunks.map((c) => c.length), [8, 16, 32, 64, 64, 64, 52])
  t.same(chunks.flat(), items, 'in order, none lost or repeated')
  t.equal(FIRST_REQUEST_BLOCKS, 8)
  t.same(rampedChunks(items.slice(0, 5), 64).map((c) => c.length), [5], 'fewer than the first request')
  t.same(rampedChunks(items.slice(0, 10), 4).map((c) => c.length), [4, 4, 2], 'a size below 8 is never exceeded')
  t.same(rampedChunks([], 64), [], 'nothing to fetch')
})
