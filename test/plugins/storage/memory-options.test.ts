// Issue 15: RocksDB's memory is sized by RocksStore's options, not the binding's defaults (an
// 8 MiB cache and 64 MiB write buffers): the block cache's capacity and the write buffers
// RocksDB reports are the ones asked for.
import t from 'tap'
import path from 'node:path'
import { readdirSync, readFileSync } from 'node:fs'
import { CHAIN_DB_MEMORY, RocksStore } from '../../../plugins/storage/rocks-store.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'

/** `key=value` of RocksDB's newest OPTIONS file in `location` (written at every open) */
function rocksOption (location: string, key: string): string | undefined {
  const file = readdirSync(location).filter((f) => f.startsWith('OPTIONS-')).sort().at(-1)
  if (file === undefined) return undefined
  const m = new RegExp(`^\\s*${key}=(.*)$`, 'm').exec(readFileSync(path.join(location, file), 'utf8'))
  return m?.[1]
}

t.test('the chain database gets its block cache and memtable budget', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const db = await RocksStore.open(path.join(dir, 'chain'))
  t.teardown(() => db.close())
  t.equal(db.memoryStats().blockCacheCapacity, CHAIN_DB_MEMORY.blockCacheBytes, 'block cache capacity')
  t.equal(Number(rocksOption(db.location, 'write_buffer_size')), CHAIN_DB_MEMORY.memtableBudgetBytes / 4, 'write buffer: a quarter of the budget')
  t.equal(rocksOption(db.location, 'cache_index_and_filter_blocks'), 'true', 'index and filter blocks in the cache')
})

t.test('other sizes are applied as given', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const db = await RocksStore.open(path.join(dir, 'small'), { blockCacheBytes: 2 << 20, memtableBudgetBytes: 8 << 20 })
  t.teardown(() => db.close())
  t.equal(db.memoryStats().blockCacheCapacity, 2 << 20)
  t.equal(Number(rocksOption(db.location, 'write_buffer_size')), 2 << 20)
})
