// Minimal typings for the parts of @nxtedition/rocksdb (abstract-level API) the storage plugin uses.
declare module '@nxtedition/rocksdb' {
  interface RangeOptions { gte?: Buffer; gt?: Buffer; lt?: Buffer; lte?: Buffer; reverse?: boolean; limit?: number }
  /** abstract-level's chained batch: `write()` writes it and closes it (detaching it from the database) */
  interface ChainedBatch<K, V> {
    put (key: K, value: V): this
    del (key: K): this
    write (options?: { sync?: boolean }): Promise<void>
    close (): Promise<void>
  }
  export class RocksLevel<K = Buffer, V = Buffer> {
    constructor (location: string, options?: { keyEncoding?: string; valueEncoding?: string })
    readonly status: 'opening' | 'open' | 'closing' | 'closed'
    open (): Promise<void>
    close (): Promise<void>
    getMany (keys: K[]): Promise<Array<V | undefined>>
    // only the chained form: the array form `batch(ops)` never closes the chained batch it builds
    // internally and so keeps every native WriteBatch until the database closes (issue 15)
    batch (): ChainedBatch<K, V>
    iterator (options?: RangeOptions | object): AsyncIterable<[K, V]>
    keys (options?: RangeOptions | object): AsyncIterable<K>
  }
}
