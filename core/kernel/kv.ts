// Key-value store contract the storage plugin provides (RocksDB). Keys are strings so the
// layout stays readable (`b:<hash>`, `h:<height>`); values are bytes. Reads are available
// synchronously because the VM reads contract state from inside an interpreter loop.

export interface KvOp {
  type: 'put' | 'del'
  key: string
  value?: Uint8Array
}

export interface KvRange {
  gte?: string
  gt?: string
  lt?: string
  lte?: string
  reverse?: boolean
  limit?: number
}

export interface KvStore {
  getSync(key: string): Buffer | undefined
  getManySync(keys: string[]): Array<Buffer | undefined>
  get(key: string): Promise<Buffer | undefined>
  /** a multi-get off the calling thread (RocksDB's on libuv's pool) */
  getMany(keys: string[]): Promise<Array<Buffer | undefined>>
  /** atomic; `sync` makes it durable (fsync of the WAL) before resolving */
  write(ops: KvOp[], opts?: { sync?: boolean }): Promise<void>
  entries(range: KvRange): AsyncIterable<[string, Buffer]>
  keys(range: KvRange): AsyncIterable<string>
  close(): Promise<void>
  /** the engine's own size figures, for the operator's metrics (absent where it keeps none) */
  sizeStats?(): KvSizeStats
}

/** bytes, as the storage engine estimates them */
export interface KvSizeStats {
  /** table files that hold live data */
  liveFilesBytes: number
  /** all table files, obsolete ones not yet deleted included */
  totalFilesBytes: number
  /** the engine's estimate of the live data */
  liveDataBytes: number
  /** memtables not yet flushed */
  memtableBytes: number
}

export const utf8 = {
  encode: (s: string): Uint8Array => Buffer.from(s, 'utf8'),
  decode: (b: Uint8Array): string => Buffer.from(b).toString('utf8')
}

export function jsonValue (v: unknown): Uint8Array { return Buffer.from(JSON.stringify(v), 'utf8') }
export function parseJson<T> (b: Uint8Array | undefined): T | undefined {
  return b === undefined ? undefined : JSON.parse(Buffer.from(b).toString('utf8')) as T
}

/** Fixed-width decimal so lexicographic key order is numeric order. */
export function padHeight (n: number): string { return n.toString().padStart(12, '0') }
