// Issue 15: RocksDB's memory is sized by RocksStore's options, not the binding's defaults (an
// 8 MiB cache and 64 MiB write buffers): the block cache's capacity and the write buffers
// RocksDB reports are the ones asked for.
import t from 'tap'
import path from 'node:path'
import { readdirSync, readFileSync } from 'node:fs'
import { CHAIN_DB_MEMORY, RocksStore } from '../../../plugins/storage/rocks-store.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'
import { waitFor } from '../../helpers/wait.ts'

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

t.test('tables below level 1 are ZSTD-compressed without dictionaries', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const db = await RocksStore.open(path.join(dir, 'chain'))
  t.teardown(() => db.close())
  t.equal(rocksOption(db.location, 'compression_per_level'), 'kNoCompression:kNoCompression:kZSTD:kZSTD:kZSTD:kZSTD:kZSTD', 'levels 0-1 plain, 2+ ZSTD')
  t.match(rocksOption(db.location, 'compression_opts') ?? '', /;max_dict_bytes=0;/, 'no dictionary')
  t.match(rocksOption(db.location, 'compression_opts') ?? '', /;zstd_max_train_bytes=0;/, 'no dictionary training')
})

t.test('background work is counted, and settles once what was written is flushed and compacted', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  // a 1 MiB memtable budget: 256 KiB write buffers, flushed and compacted within a few MB
  const db = await RocksStore.open(path.join(dir, 'chain'), { blockCacheBytes: 1 << 20, memtableBudgetBytes: 1 << 20 })
  t.teardown(() => db.close())
  t.equal(db.backgroundWork(), 0, 'an empty database has nothing to do')
  const value = Buffer.alloc(4096, 7)
  for (let b = 0; b < 40; b++) await db.write(Array.from({ length: 64 }, (_, i) => ({ type: 'put' as const, key: `k:${String(b * 64 + i).padStart(6, '0')}`, value })))
  const seen = db.backgroundWork()
  t.ok(Number.isInteger(seen) && seen >= 0, `a count (${seen} right after 10 MB of writes)`)
  await waitFor('the flushes and compactions to finish', () => db.backgroundWork() === 0, 20_000)
  t.equal(db.backgroundWork(), 0, 'settled within 20 s')
  t.ok(readdirSync(db.location).filter((f) => f.endsWith('.sst')).length > 0, 'the writes were flushed to tables')
})
