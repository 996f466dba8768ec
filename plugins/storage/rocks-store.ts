// KvStore over RocksDB (@nxtedition/rocksdb). Batches are atomic; the WAL makes a written
// batch survive a process kill, and `sync` additionally fsyncs it before resolving.
import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs'
import path from 'node:path'
import { RocksLevel } from '@nxtedition/rocksdb'
import { storageFault, StoreUnavailable } from '../../core/kernel/kv.ts'
import type { KvOp, KvRange, KvSizeStats, KvStore } from '../../core/kernel/kv.ts'

interface RawRange { gte?: Buffer; gt?: Buffer; lt?: Buffer; lte?: Buffer; reverse?: boolean; limit?: number }

type RawDb = RocksLevel<Buffer, Buffer> & {
  _getManySync(keys: Buffer[], opts: object): Array<Buffer | undefined>
  getProperty(property: string): string
}

function rawRange (r: KvRange): RawRange {
  const out: RawRange = {}
  if (r.gte !== undefined) out.gte = Buffer.from(r.gte)
  if (r.gt !== undefined) out.gt = Buffer.from(r.gt)
  if (r.lt !== undefined) out.lt = Buffer.from(r.lt)
  if (r.lte !== undefined) out.lte = Buffer.from(r.lte)
  if (r.reverse !== undefined) out.reverse = r.reverse
  if (r.limit !== undefined) out.limit = r.limit
  return out
}

/**
 * RocksDB's memory, sized explicitly (issue 15: with the binding's defaults RSS grew with the
 * bytes written, ~1 GB after 500 blocks of 20 transfers). Every figure is a bound, not a
 * reservation: memtables take what is written until they flush, the block cache what is read.
 */
export interface RocksMemoryOptions {
  /** block cache (HyperClockCache), shared by data, index and filter blocks */
  blockCacheBytes: number
  /** all memtables of the database: `level` compaction gives each memtable a quarter of it */
  memtableBudgetBytes: number
}

// Issue 15: with 32 + 32 MiB the syncing node's main malloc heap held 105-109 MiB after 2,000
// blocks of 20 transfers, with 16 + 16 MiB 70-73 MiB (write buffers of 4 MiB). An 8 MiB block
// cache was tried (it is still filling between heights 500 and 2,000 of the memory bench, 7.6 ->
// 15.9 MiB): the explorer's address lookups on a 100,000-block chain fell to 0.76x of the same
// lookups on a 10,000-block chain (issue 4's goal is 0.8x), so it stays 16 MiB.
export const CHAIN_DB_MEMORY: RocksMemoryOptions = { blockCacheBytes: 16 << 20, memtableBudgetBytes: 16 << 20 }
/** the admin database is small and written rarely */
export const ADMIN_DB_MEMORY: RocksMemoryOptions = { blockCacheBytes: 4 << 20, memtableBudgetBytes: 8 << 20 }

/** RocksDB's own account of the memory it holds (bytes), as the bench reports it. */
export interface RocksMemoryStats {
  memtables: number
  blockCache: number
  blockCachePinned: number
  /** the block cache's configured size */
  blockCacheCapacity: number
  tableReaders: number
}

/** room RocksDB needs to reopen (a new MANIFEST, OPTIONS and WAL) and flush a memtable */
const REOPEN_FREE_BYTES = 4 << 20

/** an fsynced write beside the database, with room to spare: undefined when the file system takes it */
function writeProbe (location: string): unknown {
  const probe = path.join(location, `write-probe.${process.pid}`)
  try {
    const { bavail, bsize } = statfsSync(location)
    if (bavail * bsize < REOPEN_FREE_BYTES) return Object.assign(new Error(`no space left on device (${bavail * bsize} bytes free)`), { code: 'ENOSPC' })
    const fd = openSync(probe, 'w')
    try {
      writeSync(fd, Buffer.alloc(64 * 1024))
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    return undefined
  } catch (err) {
    return err
  } finally {
    rmSync(probe, { force: true })
  }
}

/** after a refused write, how long before the next write tries to reopen the database */
export const REOPEN_INTERVAL_MS = 2000

export class RocksStore implements KvStore {
  readonly location: string
  readonly #memory: RocksMemoryOptions
  #db: RawDb
  /** the fault of the last refused write; RocksDB refuses every later write until reopened */
  #fault: StoreUnavailable | undefined
  #lastReopen = 0
  #reopening: Promise<void> | undefined

  private constructor (location: string, memory: RocksMemoryOptions, db: RawDb) {
    this.location = location
    this.#memory = memory
    this.#db = db
  }

  /** the fault that refuses writes now, if any (a full disk, a read-only file system) */
  get fault (): StoreUnavailable | undefined { return this.#fault }

  static async open (location: string, memory: RocksMemoryOptions = CHAIN_DB_MEMORY): Promise<RocksStore> {
    return new RocksStore(location, memory, await RocksStore.#openDb(location, memory))
  }

  static async #openDb (location: string, memory: RocksMemoryOptions): Promise<RawDb> {
    // owner-only whatever the umask: RocksDB would create the directory 0755 & ~umask
    const db = new RocksLevel(location, {
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      // The binding compresses the WAL with ZSTD by default, on the writing thread: ~25 ms of a
      // block of 100 transfers' connect time. Tables are still compressed, in the background.
      walCompression: false,
      cacheSize: memory.blockCacheBytes,
      // index and filter blocks live in the block cache, so they are bounded by it instead of
      // growing with every table file the chain adds
      cacheIndexAndFilterBlocks: true,
      // level compaction with an explicit memtable budget (write buffers of a quarter of it)
      // instead of RocksDB's 64 MB buffers
      compaction: 'level',
      memtableMemoryBudget: memory.memtableBudgetBytes,
      // Levels 2 and deeper stay ZSTD-compressed (the binding's level layout), but without the
      // binding's ZSTD dictionaries: it trains one for every table file a compaction writes, on
      // samples of what it compresses, and a chain's bulk is ML-DSA signatures and hashes that
      // no dictionary shrinks. Without them compaction took ~27% less CPU at height 2,000 of a
      // chain of 20-transfer blocks (3.0 -> 2.2 ms a block) and the files were 4% smaller (no
      // dictionary stored in each)
      compression: false
    } as object) as unknown as RawDb
    try {
      mkdirSync(location, { recursive: true, mode: 0o700 })
      await db.open()
    } catch (err) {
      // abstract-level reports "Database is not open" and keeps RocksDB's reason in `cause`
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message
      if (/lock/i.test(cause)) throw new Error(`${location} is in use by another process (another ledger node on the same --data-dir?): ${cause}`)
      throw new Error(`cannot open ${location}: ${cause}`)
    }
    return db
  }

  /**
   * Flushes and compactions running or due now (RocksDB's own counters): 0 once the database
   * has settled, as a chain just written by a sync or a bulk connect has not for a while.
   */
  backgroundWork (): number {
    const n = (property: string): number => Number(this.#db.getProperty(property))
    return n('rocksdb.num-running-flushes') + n('rocksdb.num-running-compactions') + n('rocksdb.mem-table-flush-pending') + n('rocksdb.compaction-pending')
  }

  memoryStats (): RocksMemoryStats {
    const n = (property: string): number => Number(this.#db.getProperty(property))
    return {
      memtables: n('rocksdb.cur-size-all-mem-tables'),
      blockCache: n('rocksdb.block-cache-usage'),
      blockCachePinned: n('rocksdb.block-cache-pinned-usage'),
      blockCacheCapacity: n('rocksdb.block-cache-capacity'),
      tableReaders: n('rocksdb.estimate-table-readers-mem')
    }
  }

  /** RocksDB's size properties: cheap reads of counters it keeps, no file system walk */
  sizeStats (): KvSizeStats {
    const n = (property: string): number => Number(this.#db.getProperty(property))
    return {
      liveFilesBytes: n('rocksdb.live-sst-files-size'),
      totalFilesBytes: n('rocksdb.total-sst-files-size'),
      liveDataBytes: n('rocksdb.estimate-live-data-size'),
      memtableBytes: n('rocksdb.cur-size-all-mem-tables')
    }
  }

  getSync (key: string): Buffer | undefined {
    return this.#db._getManySync([Buffer.from(key)], {})[0]
  }

  getManySync (keys: string[]): Array<Buffer | undefined> {
    if (keys.length === 0) return []
    return this.#db._getManySync(keys.map((k) => Buffer.from(k)), {})
  }

  async getMany (keys: string[]): Promise<Array<Buffer | undefined>> {
    if (keys.length === 0) return []
    const values = await this.#db.getMany(keys.map((k) => Buffer.from(k)))
    return values.map((v) => v ?? undefined)
  }

  async get (key: string): Promise<Buffer | undefined> {
    return (await this.getMany([key]))[0]
  }

  /**
   * Atomic. A write the file system refuses (full disk, read-only, I/O error) throws
   * StoreUnavailable and leaves what was committed intact. RocksDB then keeps refusing writes
   * even once space returns (its background error is sticky), so a later write first reopens
   * the database — at most once per REOPEN_INTERVAL_MS; the WAL replays what was committed.
   */
  async write (ops: KvOp[], opts: { sync?: boolean } = {}): Promise<void> {
    if (ops.length === 0) return
    if (this.#fault !== undefined) await this.#recover()
    try {
      await this.#write(ops, opts)
    } catch (err) {
      const fault = storageFault(err)
      if (fault === undefined) throw err
      this.#fault = new StoreUnavailable(this.location, fault, err)
      throw this.#fault
    }
    this.#fault = undefined
  }

  async #recover (): Promise<void> {
    if (this.#reopening !== undefined) return await this.#reopening
    const fault = this.#fault as StoreUnavailable
    if (Date.now() - this.#lastReopen < REOPEN_INTERVAL_MS) throw fault
    this.#lastReopen = Date.now()
    // reopened only once the file system takes a write again: a reopen that failed would leave
    // no handle to read from
    const refused = writeProbe(this.location)
    if (refused !== undefined) throw new StoreUnavailable(this.location, storageFault(refused) ?? fault.fault, refused)
    this.#reopening = (async () => {
      // the old handle's close reports the same sticky error; RocksDB is closed all the same
      try { await this.#db.close() } catch { /* the sticky background error */ }
      try {
        this.#db = await RocksStore.#openDb(this.location, this.#memory)
      } catch (err) {
        // not reopened (the file system still refuses): the next write tries again
        throw new StoreUnavailable(this.location, storageFault(err) ?? fault.fault, err)
      }
    })()
    try {
      await this.#reopening
    } finally {
      this.#reopening = undefined
    }
  }

  async #write (ops: KvOp[], opts: { sync?: boolean }): Promise<void> {
    // values are viewed, not copied: a block's batch carries ~0.5 MB of transactions
    const view = (v: Uint8Array | undefined): Buffer => v === undefined ? Buffer.alloc(0) : Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength)
    // A chained batch, written and closed, never `db.batch(array)`: the binding's array form
    // (@nxtedition/rocksdb 12.2 `_batch`) builds a chained batch, writes it with the private
    // `_write` and never closes it, so abstract-level keeps it in the database's resource set
    // until the database closes, and with it the native WriteBatch holding every byte written:
    // RSS grew by each block's batch (~0.8 MB for 20 transfers), outside RocksDB's and V8's
    // accounting (issue 15). `write()` closes the batch, which detaches it from the database.
    const batch = this.#db.batch()
    try {
      for (const op of ops) {
        if (op.type === 'put') batch.put(Buffer.from(op.key), view(op.value))
        else batch.del(Buffer.from(op.key))
      }
    } catch (err) {
      // a batch that is not written is closed too, or it would stay attached like the others
      await batch.close()
      throw err
    }
    await batch.write({ sync: opts.sync === true })
  }

  async * entries (range: KvRange): AsyncIterable<[string, Buffer]> {
    for await (const [k, v] of this.#db.iterator(rawRange(range) as object)) yield [k.toString('utf8'), v]
  }

  async * keys (range: KvRange): AsyncIterable<string> {
    for await (const k of this.#db.keys(rawRange(range) as object)) yield k.toString('utf8')
  }

  async close (): Promise<void> {
    if (this.#db.status === 'open' || this.#db.status === 'opening') await this.#db.close()
  }
}
