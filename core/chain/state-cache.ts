// A read cache of committed chain state, for the keys a block connect reads again block after
// block: accounts, public keys, VM-address mappings and address-history counters of the
// addresses that keep transacting. Through the RocksDB binding each key read costs the main
// thread ~2 µs (keys and results are converted one by one), the bulk of a block's state read;
// a hot sender's four keys are read from here instead. Filled only by reads (a payee seen once
// does not push out a sender seen every block), kept exact by every committed write (a written
// value replaces a cached one, a deletion drops it), bounded by entries and bytes.
import type { KvOp } from '../kernel/kv.ts'
import { BoundedCache } from '../kernel/bounded-cache.ts'

/** the prefixes cached: stateKey.account, publicKey, vmToWallet and chainKey.addressTxCount */
const CACHED_PREFIXES = ['acct:', 'pk:', 'vm2w:', 'ac:'] as const
/** what an entry costs besides its key's and value's bytes (the Map entry and the Buffer) */
const ENTRY_OVERHEAD = 96

export const cachedStateKey = (key: string): boolean => CACHED_PREFIXES.some((p) => key.startsWith(p))

export class StateCache {
  readonly #entries: BoundedCache<string, Buffer>

  constructor (opts: { maxEntries: number; maxBytes: number }) {
    this.#entries = new BoundedCache({ maxEntries: opts.maxEntries, maxSize: opts.maxBytes })
  }

  /** `keys` split into the values cached (read from here) and the keys still to be read */
  split (keys: readonly string[]): { found: Map<string, Buffer | undefined>; missing: string[] } {
    const found = new Map<string, Buffer | undefined>()
    const missing: string[] = []
    for (const k of keys) {
      const v = this.#entries.get(k)
      if (v === undefined) missing.push(k)
      else found.set(k, v)
    }
    return { found, missing }
  }

  /** a value just read from the committed state (absent values are not kept) */
  remember (key: string, value: Buffer | undefined): void {
    if (value !== undefined && cachedStateKey(key)) this.#entries.set(key, value, sizeOf(key, value))
  }

  /** a batch the database has just committed: cached keys take its values */
  committed (ops: readonly KvOp[]): void {
    for (const op of ops) {
      if (!cachedStateKey(op.key) || !this.#entries.has(op.key)) continue
      if (op.type === 'del' || op.value === undefined) this.#entries.delete(op.key)
      else this.#entries.set(op.key, Buffer.from(op.value), sizeOf(op.key, op.value))
    }
  }

  get entries (): number { return this.#entries.entries }
  get bytes (): number { return this.#entries.size }
}

const sizeOf = (key: string, value: Uint8Array): number => 2 * key.length + value.length + ENTRY_OVERHEAD
