// Chain state as key-value writes over the chain database, with a journal for nested
// snapshots (the VM reverts failed frames) and an undo record per block (the prior value of
// every key it touched), so a reorg restores state, indexes and receipts alike.
import type { KvOp, KvStore } from '../kernel/kv.ts'

export interface AccountState {
  balance: bigint
  nonce: number
  publicKey: string | null
}

/**
 * `acct:<addr>`: balance and nonce only. The ML-DSA-87 public key (2,592 bytes) is stored once,
 * as its bytes, under `pk:<addr>` when the account first reveals it, so the transfers after it
 * rewrite (and keep undo data for) a ~50-byte record, not a 5 KB one. A record written before
 * that split may still hold `public_key` (hex): it is read as the account's key and moved to
 * `pk:` the next time the account is written.
 */
interface StoredAccount { balance: string; nonce: number; public_key?: string }

/** balance and nonce: what a transfer changes */
export interface AccountCore { balance: bigint; nonce: number }

export const stateKey = {
  account: (addr: string) => `acct:${addr}`,
  code: (vm: string) => `code:${vm}`,
  storage: (vm: string, slot: bigint) => `st:${vm}:${slot.toString(16).padStart(64, '0')}`,
  vmNonce: (vm: string) => `vmn:${vm}`,
  vmToWallet: (vm: string) => `vm2w:${vm}`,
  publicKey: (addr: string) => `pk:${addr}`,
  supply: () => 'stat:supply'
}

const EMPTY_ACCOUNT: AccountState = { balance: 0n, nonce: 0, publicKey: null }

export type UndoRecord = Array<[string, string | null]>

type Entry = Uint8Array | null

export class StateOverlay {
  readonly #db: KvStore
  readonly #writes = new Map<string, Entry>()
  /** journal of [key, value before this write in the overlay (undefined = not in overlay)] */
  readonly #journal: Array<[string, Entry | undefined]> = []

  /** database values read ahead by prefetch (only there: a long-lived view must not go stale) */
  readonly #prefetched = new Map<string, Buffer | undefined>()

  /**
   * `reads`: database values already read for this overlay (a block's accounts, read ahead off
   * the main thread); the caller guarantees nothing was written to the database since.
   */
  constructor (db: KvStore, reads?: ReadonlyMap<string, Buffer | undefined>) {
    this.#db = db
    if (reads !== undefined) for (const [k, v] of reads) this.#prefetched.set(k, v)
  }

  get (key: string): Uint8Array | undefined {
    const w = this.#writes.get(key)
    if (w !== undefined) return w === null ? undefined : w
    if (this.#prefetched.has(key)) return this.#prefetched.get(key)
    return this.#db.getSync(key)
  }

  /**
   * Reads `keys` from the database in one multi-get, for an overlay about to read them one by
   * one (a block's accounts and index counters); they also serve as the undo record's priors.
   */
  prefetch (keys: Iterable<string>): void {
    const missing = [...new Set(keys)].filter((k) => !this.#prefetched.has(k) && !this.#writes.has(k))
    if (missing.length === 0) return
    const values = this.#db.getManySync(missing)
    missing.forEach((k, i) => { this.#prefetched.set(k, values[i]) })
  }

  put (key: string, value: Uint8Array): void { this.#set(key, value) }

  /**
   * A put of a key the caller knows the database does not hold (an index entry named by a new
   * block's height, or by an address's next ordinal): its undo entry is "absent" without the
   * read commitOps would make for it.
   */
  putNew (key: string, value: Uint8Array): void {
    if (!this.#writes.has(key) && !this.#prefetched.has(key)) this.#prefetched.set(key, undefined)
    this.#set(key, value)
  }

  del (key: string): void { this.#set(key, null) }

  #set (key: string, value: Entry): void {
    this.#journal.push([key, this.#writes.get(key)])
    this.#writes.set(key, value)
  }

  snapshot (): number { return this.#journal.length }

  revert (id: number): void {
    while (this.#journal.length > id) {
      const [key, prev] = this.#journal.pop() as [string, Entry | undefined]
      if (prev === undefined) this.#writes.delete(key)
      else this.#writes.set(key, prev)
    }
  }

  get size (): number { return this.#writes.size }

  /**
   * Batch ops for the writes, plus the undo record (prior database values), in key order:
   * the record depends only on what the block changed, not on the order it was written in
   * (the two VM cores reach the same storage through different write orders).
   */
  commitOps (): { ops: KvOp[]; undo: UndoRecord } {
    const keys = [...this.#writes.keys()].sort()
    const unread = keys.filter((k) => !this.#prefetched.has(k))
    const read = this.#db.getManySync(unread)
    const priorOf = new Map(unread.map((k, i) => [k, read[i]]))
    const prior = keys.map((k) => this.#prefetched.has(k) ? this.#prefetched.get(k) : priorOf.get(k))
    const ops: KvOp[] = []
    const undo: UndoRecord = []
    keys.forEach((key, i) => {
      const value = this.#writes.get(key) as Entry
      const before = prior[i]
      undo.push([key, before === undefined ? null : before.toString('hex')])
      ops.push(value === null ? { type: 'del', key } : { type: 'put', key, value })
    })
    return { ops, undo }
  }

  // typed helpers

  #stored (addr: string): StoredAccount | undefined {
    const raw = this.get(stateKey.account(addr))
    return raw === undefined ? undefined : JSON.parse(Buffer.from(raw).toString('utf8')) as StoredAccount
  }

  getAccount (addr: string): AccountState {
    const s = this.#stored(addr)
    const pk = this.get(stateKey.publicKey(addr))
    const publicKey = pk !== undefined ? Buffer.from(pk).toString('hex') : s?.public_key ?? null
    if (s === undefined) return { ...EMPTY_ACCOUNT, publicKey }
    return { balance: BigInt(s.balance), nonce: s.nonce, publicKey }
  }

  /** writes balance and nonce; the key too when the account has none stored yet */
  putAccount (addr: string, a: AccountState): void {
    this.putAccountCore(addr, a)
    if (a.publicKey !== null && this.get(stateKey.publicKey(addr)) === undefined) this.put(stateKey.publicKey(addr), Buffer.from(a.publicKey, 'hex'))
  }

  /** balance and nonce, without the public key */
  getAccountCore (addr: string): AccountCore {
    const s = this.#stored(addr)
    return s === undefined ? { balance: 0n, nonce: 0 } : { balance: BigInt(s.balance), nonce: s.nonce }
  }

  /** writes balance and nonce, keeping the stored key (a record from before the split moves it to `pk:`) */
  putAccountCore (addr: string, a: AccountCore): void {
    const legacy = this.#stored(addr)?.public_key
    if (legacy !== undefined && this.get(stateKey.publicKey(addr)) === undefined) this.put(stateKey.publicKey(addr), Buffer.from(legacy, 'hex'))
    this.put(stateKey.account(addr), Buffer.from(`{"balance":"${a.balance.toString()}","nonce":${a.nonce}}`))
  }

  /** the account's public key bytes, or undefined while it has revealed none */
  getPublicKey (addr: string): Uint8Array | undefined {
    const pk = this.get(stateKey.publicKey(addr))
    if (pk !== undefined) return pk
    const legacy = this.#stored(addr)?.public_key
    return legacy === undefined ? undefined : Buffer.from(legacy, 'hex')
  }

  /** records the key an account reveals (once: a key never changes) */
  putPublicKey (addr: string, key: Uint8Array): void { this.put(stateKey.publicKey(addr), key) }

  credit (addr: string, amount: bigint): void {
    if (amount === 0n) return
    const a = this.getAccountCore(addr)
    a.balance += amount
    this.putAccountCore(addr, a)
  }

  getBigint (key: string): bigint {
    const raw = this.get(key)
    return raw === undefined ? 0n : BigInt(Buffer.from(raw).toString('utf8'))
  }

  putBigint (key: string, v: bigint): void { this.put(key, Buffer.from(v.toString())) }

  putJson (key: string, v: unknown): void { this.put(key, Buffer.from(JSON.stringify(v))) }
  putText (key: string, v: string): void { this.put(key, Buffer.from(v)) }
  getText (key: string): string | undefined {
    const v = this.get(key)
    return v === undefined ? undefined : Buffer.from(v).toString('utf8')
  }

  /** the account holding a VM address's balance: the wallet `vm2w:` maps it to, else itself */
  accountKeyOfVm (vm: string): string { return this.getText(stateKey.vmToWallet(vm)) ?? vm }
}

/** Ops that restore the state an undo record describes. */
export function undoOps (undo: UndoRecord): KvOp[] {
  return undo.map(([key, prior]) => prior === null ? { type: 'del', key } : { type: 'put', key, value: Buffer.from(prior, 'hex') })
}
