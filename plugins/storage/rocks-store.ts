// KvStore over RocksDB (@nxtedition/rocksdb). Batches are atomic; the WAL makes a written
// batch survive a process kill, and `sync` additionally fsyncs it before resolving.
import { mkdirSync } from 'node:fs'
import { RocksLevel } from '@nxtedition/rocksdb'
import type { KvOp, KvRange, KvStore } from '../../core/kv.ts'

interface RawOp { type: 'put' | 'del'; key: Buffer; value?: Buffer }
interface RawRange { gte?: Buffer; gt?: Buffer; lt?: Buffer; lte?: Buffer; reverse?: boolean; limit?: number }

type RawDb = RocksLevel<Buffer, Buffer> & {
  _getManySync(keys: Buffer[], opts: object): Array<Buffer | undefined>
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

export class RocksStore implements KvStore {
  readonly location: string
  readonly #db: RawDb

  private constructor (location: string, db: RawDb) {
    this.location = location
    this.#db = db
  }

  static async open (location: string): Promise<RocksStore> {
    // The binding compresses the WAL with ZSTD by default, on the writing thread: ~25 ms of a
    // block of 100 transfers' connect time. Tables are still compressed, in the background.
    // owner-only whatever the umask: RocksDB would create the directory 0755 & ~umask
    const db = new RocksLevel(location, { keyEncoding: 'buffer', valueEncoding: 'buffer', walCompression: false } as object) as unknown as RawDb
    try {
      mkdirSync(location, { recursive: true, mode: 0o700 })
      await db.open()
    } catch (err) {
      // abstract-level reports "Database is not open" and keeps RocksDB's reason in `cause`
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message
      if (/lock/i.test(cause)) throw new Error(`${location} is in use by another process (another ledger node on the same --data-dir?): ${cause}`)
      throw new Error(`cannot open ${location}: ${cause}`)
    }
    return new RocksStore(location, db)
  }

  getSync (key: string): Buffer | undefined {
    return this.#db._getManySync([Buffer.from(key)], {})[0]
  }

  getManySync (keys: string[]): Array<Buffer | undefined> {
    if (keys.length === 0) return []
    return this.#db._getManySync(keys.map((k) => Buffer.from(k)), {})
  }

  async get (key: string): Promise<Buffer | undefined> {
    const [v] = await this.#db.getMany([Buffer.from(key)])
    return v ?? undefined
  }

  async write (ops: KvOp[], opts: { sync?: boolean } = {}): Promise<void> {
    if (ops.length === 0) return
    const raw: RawOp[] = ops.map((op) => op.type === 'put'
      ? { type: 'put', key: Buffer.from(op.key), value: Buffer.from(op.value ?? new Uint8Array(0)) }
      : { type: 'del', key: Buffer.from(op.key) })
    await this.#db.batch(raw as Parameters<RawDb['batch']>[0], { sync: opts.sync === true } as object)
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
