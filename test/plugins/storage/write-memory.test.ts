// Issue 15: a written batch must not stay in memory. The binding's `db.batch(array)` kept every
// native WriteBatch (all the bytes written) until the database closed, so RSS grew by each
// block's batch while neither V8 nor RocksDB's memory properties saw it.
import t from 'tap'
import path from 'node:path'
import v8 from 'node:v8'
import vm from 'node:vm'
import { RocksStore } from '../../../plugins/storage/rocks-store.ts'
import type { KvOp } from '../../../core/kernel/kv.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void
const MiB = 2 ** 20

/** a full GC, then one turn of the event loop so native finalizers (the WriteBatch's) run */
async function collect (): Promise<void> {
  gc()
  await new Promise((resolve) => setImmediate(resolve))
  gc()
  await new Promise((resolve) => setImmediate(resolve))
}

t.test('writing 256 batches of 1 MiB does not keep them: RSS grows far less than the bytes written', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  // small memtables and cache, so what RocksDB may legitimately hold is a few MiB
  const db = await RocksStore.open(path.join(dir, 'chain'), { blockCacheBytes: 1 * MiB, memtableBudgetBytes: 4 * MiB })
  t.teardown(() => db.close())
  const value = Buffer.alloc(64 * 1024, 0x5a)
  const batchOf = (n: number): KvOp[] => Array.from({ length: 16 }, (_, i) => ({ type: 'put', key: `k:${n}:${i}`, value }))

  // warm up: RocksDB's threads and their malloc arenas, the first memtables, flushes and table
  // files (~90 MiB of RSS, then flat when nothing is retained)
  for (let n = 0; n < 64; n++) {
    await db.write(batchOf(n))
    if (n % 16 === 0) await collect()
  }
  await collect()
  const before = process.memoryUsage.rss()
  for (let n = 64; n < 64 + 256; n++) {
    await db.write(batchOf(n))
    // A written batch is garbage for V8 to collect (its native WriteBatch is freed by the
    // finalizer). The node's block path allocates enough to collect often; this loop allocates
    // little, so it collects every 16 MiB written. A retained batch survives any collection.
    if (n % 16 === 0) await collect()
  }
  await collect()
  const grown = (process.memoryUsage.rss() - before) / MiB
  t.ok(grown < 64, `RSS grew ${grown.toFixed(1)} MiB over 256 MiB written (a retained batch holds all of its bytes)`)
  // the data is all there
  t.equal(db.getManySync(['k:0:0', 'k:319:15']).map((v) => v?.length).join(','), `${value.length},${value.length}`)
})
