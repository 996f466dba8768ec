// The chain's reads: block, header and meta lookups, the main-chain index, transactions,
// receipts, the address and message indexes and state views. Nothing here writes; the chain
// evicts what it prunes (forget) so no reader hands out a block that is gone.
import type { KvStore } from '../../core/kernel/kv.ts'
import { parseJson } from '../../core/kernel/kv.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import { StateOverlay, stateKey } from '../../core/chain/state.ts'
import type { AccountState } from '../../core/chain/state.ts'
import { chainKey } from '../../core/chain/keys.ts'
import type { BlockMeta, TxLocation } from '../../core/chain/keys.ts'
import { assembleStoredBlock, blockTxKeys, headOfStored, storedTx } from '../../core/chain/block-body.ts'
import type { StoredBlockHead } from '../../core/chain/block-body.ts'
import { encodeBlockFromStored } from '../../core/chain/tx-codec.ts'
import { normalizeAddress } from '../../core/chain/address.ts'
import { BoundedCache } from '../../core/kernel/bounded-cache.ts'
import type { ConfirmedTx, StoredReceipt } from '../../core/chain/chain-service.ts'

// Decoded blocks and transactions by content key (a block hash; a block hash and an index),
// which never change meaning: the explorer's block and tx lookups of buried blocks skip the
// reads and decoding. Sizes count the decoded form (hex strings), about twice the stored bytes.
const BLOCK_CACHE = { maxEntries: 512, maxSize: 16 << 20 }
const TX_CACHE = { maxEntries: 4096, maxSize: 8 << 20 }

export class ChainQueries {
  readonly #db: KvStore
  readonly #blocks = new BoundedCache<string, Block>(BLOCK_CACHE)
  readonly #txs = new BoundedCache<string, Transaction>(TX_CACHE)

  constructor (db: KvStore) { this.#db = db }

  /** Drops pruned blocks and their transactions (blockTx keys) from the caches. */
  forget (hashes: readonly string[], txKeys: readonly string[]): void {
    for (const h of hashes) this.#blocks.delete(h)
    for (const k of txKeys) this.#txs.delete(k)
  }

  getBlockMeta (hash: string): BlockMeta | undefined {
    return parseJson<BlockMeta>(this.#db.getSync(chainKey.blockMeta(hash)))
  }

  getHeader (hash: string): Uint8Array | undefined {
    return this.#db.getSync(chainKey.header(hash))
  }

  hashAtHeight (height: number): string | undefined {
    if (!Number.isSafeInteger(height) || height < 0) return undefined
    return this.#db.getSync(chainKey.mainHash(height))?.toString('utf8')
  }

  /**
   * The stored head and transactions of a block: one read of the head with its first
   * transaction (every block has a coinbase), a second only for the rest of a block with more.
   * Synchronous on purpose: a point read from the block or page cache costs ~10 µs, less than
   * handing it to libuv's threads and back (the explorer's cold block route, issue 15).
   */
  #readStored (hash: string): { head: StoredBlockHead; txs: Array<Buffer | undefined>; bytes: number } | undefined {
    const [rawHead, rawFirst] = this.#db.getManySync([chainKey.block(hash), chainKey.blockTx(hash, 0)])
    const head = parseJson<StoredBlockHead>(rawHead)
    if (head === undefined) return undefined
    const txs = head.tx_count === 0 ? [] : [rawFirst, ...this.#db.getManySync(blockTxKeys(hash, head, 1))]
    return { head, txs, bytes: txs.reduce((n, r) => n + (r?.length ?? 0), rawHead?.length ?? 0) }
  }

  /** Callers share the cached object: a block read here must not be modified. */
  async getBlockByHash (hash: string): Promise<Block | undefined> {
    const cached = this.#blocks.get(hash)
    if (cached !== undefined) return cached
    const stored = this.#readStored(hash)
    if (stored === undefined) return undefined
    const block = assembleStoredBlock(stored.head, stored.txs)
    if (block !== undefined) this.#blocks.set(hash, block, 2 * stored.bytes)
    return block
  }

  /** The block's binary form (tx-codec.ts) from the stored bytes, without decoding its transactions. */
  async getBlockBinary (hash: string): Promise<Uint8Array | undefined> {
    const stored = this.#readStored(hash)
    if (stored === undefined || stored.txs.some((t) => t === undefined)) return undefined
    return encodeBlockFromStored(headOfStored(stored.head), stored.txs as Buffer[])
  }

  async getBlockByHeight (height: number): Promise<Block | undefined> {
    const hash = this.hashAtHeight(height)
    return hash === undefined ? undefined : await this.getBlockByHash(hash)
  }

  totalSupply (): bigint { return new StateOverlay(this.#db).getBigint(stateKey.supply()) }
  stateView (): StateOverlay { return new StateOverlay(this.#db) }
  getAccount (address: string): AccountState { return this.stateView().getAccount(address) }

  walletOfVm (vmAddress: string): string | undefined {
    return this.#db.getSync(stateKey.vmToWallet(vmAddress))?.toString('utf8')
  }

  #location (txId: string): TxLocation | undefined {
    const loc = parseJson<{ height: number; index: number }>(this.#db.getSync(chainKey.txLocation(txId)))
    if (loc === undefined) return undefined
    const hash = this.hashAtHeight(loc.height)
    return hash === undefined ? undefined : { ...loc, hash }
  }

  async getTransaction (txId: string): Promise<ConfirmedTx | undefined> {
    const location = this.#location(txId)
    if (location === undefined) return undefined
    const key = chainKey.blockTx(location.hash, location.index)
    let tx = this.#txs.get(key)
    if (tx === undefined) {
      const raw = this.#db.getSync(key)
      tx = storedTx(raw)
      if (tx !== undefined) this.#txs.set(key, tx, 2 * (raw?.length ?? 0))
    }
    return tx === undefined || tx.transaction_id !== txId ? undefined : { tx, location, blockHash: location.hash }
  }

  async txIdsWithPrefix (prefix: string, limit: number): Promise<string[]> {
    if (!/^[0-9a-f]{1,64}$/.test(prefix) || limit < 1) return []
    const out: string[] = []
    const from = chainKey.txLocation(prefix)
    // the index keeps side-branch entries until overwritten: only main-chain ones count, so a
    // bounded number of keys is read past the ones that do not
    for await (const key of this.#db.keys({ gte: from, lt: `${from}\xff`, limit: limit + 16 })) {
      const id = key.slice(from.length - prefix.length)
      if (this.#location(id) !== undefined) out.push(id)
      if (out.length >= limit) break
    }
    return out
  }

  async addressHistory (address: string, offset: number, limit: number): Promise<{ total: number; txIds: string[] }> {
    const norm = normalizeAddress(address)
    if (norm === null) return { total: 0, txIds: [] }
    const addr = norm.address
    const total = Number(this.stateView().getBigint(chainKey.addressTxCount(addr)))
    if (offset >= total || limit <= 0) return { total, txIds: [] }
    // newest first: offset 0 is ordinal total-1; one range read of exactly the page
    const newest = total - 1 - offset
    const oldest = Math.max(0, newest - limit + 1)
    const txIds: string[] = []
    for await (const [, v] of this.#db.entries({ gte: chainKey.addressTxOrdinal(addr, oldest), lte: chainKey.addressTxOrdinal(addr, newest), reverse: true })) {
      txIds.push(v.toString('utf8'))
    }
    return { total, txIds }
  }

  async getReceipt (txId: string): Promise<StoredReceipt | undefined> {
    return parseJson<StoredReceipt>(await this.#db.get(chainKey.receipt(txId)))
  }

  async receiptsOfBlock (height: number): Promise<StoredReceipt[]> {
    const out: StoredReceipt[] = []
    const prefix = chainKey.blockReceiptPrefix(height)
    for await (const [, v] of this.#db.entries({ gte: prefix, lt: prefix + '\xff' })) {
      const r = await this.getReceipt(v.toString('utf8'))
      if (r !== undefined) out.push(r)
    }
    return out
  }

  async recentMessageTxs (limit: number): Promise<ConfirmedTx[]> {
    const out: ConfirmedTx[] = []
    const prefix = chainKey.messagePrefix()
    for await (const [, v] of this.#db.entries({ gte: prefix, lt: prefix + '\xff', reverse: true, limit })) {
      const c = await this.getTransaction(v.toString('utf8'))
      if (c !== undefined) out.push(c)
    }
    return out
  }
}
