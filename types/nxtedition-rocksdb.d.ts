// Minimal typings for the parts of @nxtedition/rocksdb (abstract-level API) the storage plugin uses.
declare module '@nxtedition/rocksdb' {
  interface RangeOptions { gte?: Buffer; gt?: Buffer; lt?: Buffer; lte?: Buffer; reverse?: boolean; limit?: number }
  interface BatchOp { type: 'put' | 'del'; key: Buffer; value?: Buffer }
  export class RocksLevel<K = Buffer, V = Buffer> {
    constructor (location: string, options?: { keyEncoding?: string; valueEncoding?: string })
    readonly status: 'opening' | 'open' | 'closing' | 'closed'
    open (): Promise<void>
    close (): Promise<void>
    getMany (keys: K[]): Promise<Array<V | undefined>>
    batch (ops: BatchOp[], options?: object): Promise<void>
    iterator (options?: RangeOptions | object): AsyncIterable<[K, V]>
    keys (options?: RangeOptions | object): AsyncIterable<K>
  }
}
