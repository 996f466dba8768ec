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

/** why the data dir refuses a write: the operator's problem, never the client's or the block's */
export type StorageFault = 'disk full' | 'read-only' | 'no permission' | 'I/O error'

/**
 * A write the data dir refused (issue 31 item 5): nothing of it was committed, what was
 * committed before is intact, and the same write may succeed once the fault is gone. HTTP
 * answers it 503; block import logs it and leaves the block unjudged.
 */
export class StoreUnavailable extends Error {
  readonly fault: StorageFault
  readonly location: string
  constructor (location: string, fault: StorageFault, cause: unknown) {
    super(`cannot write to ${location}: ${fault} (${cause instanceof Error ? cause.message : String(cause)}); nothing was written`, { cause })
    this.fault = fault
    this.location = location
  }
}

const FAULT_BY_CODE: Readonly<Record<string, StorageFault>> = {
  ENOSPC: 'disk full',
  EDQUOT: 'disk full',
  EROFS: 'read-only',
  EACCES: 'no permission',
  EPERM: 'no permission',
  EIO: 'I/O error'
}

/** the storage fault behind an error from the file system or RocksDB, if it is one */
export function storageFault (err: unknown): StorageFault | undefined {
  if (err instanceof StoreUnavailable) return err.fault
  if (err === null || typeof err !== 'object') return undefined
  const e = err as { code?: unknown; message?: unknown; cause?: unknown }
  if (typeof e.code === 'string' && e.code in FAULT_BY_CODE) return FAULT_BY_CODE[e.code]
  // RocksDB (abstract-level) reports LEVEL_IO_ERROR with the OS's words in the message or its cause
  const text = `${String(e.message ?? '')} ${e.cause instanceof Error ? e.cause.message : ''}`
  if (/no space left on device|disk quota exceeded/i.test(text)) return 'disk full'
  if (/read-only file system/i.test(text)) return 'read-only'
  if (/permission denied/i.test(text) && e.code === 'LEVEL_IO_ERROR') return 'no permission'
  if (e.code === 'LEVEL_IO_ERROR') return 'I/O error'
  if (e.cause !== undefined && e.cause !== err) return storageFault(e.cause)
  return undefined
}
