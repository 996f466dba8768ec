// Chain followers (`ctx.follow`, issue 29): ordered commit / revert notifications from a durable
// cursor. A follower is a position (the last block it acknowledged, or none) and one loop that
// compares it with the best chain: a position off the best chain is reverted (its block, then
// its parent's ...), one behind the tip gets the next best block committed, one at the tip
// waits for the tip to move. Every step reads the chain database as it is at that moment, so
// a follower that lags reads old blocks from the database instead of holding a queue (memory
// stays one block per follower), a reorg during a backfill is seen at the next step (revert
// then commit, never a stale position), and import never waits on a follower: the chain only
// sets a wake-up flag. No write-ahead log: the chain database is the log, and it keeps the side
// blocks a follower may still have to revert (keepSideFrom).
import type { Logger } from 'pino'
import type { ChainService, StoredReceipt } from '../../core/chain/chain-service.ts'
import { CONTRACT_RECIPIENT } from '../../core/chain/types.ts'
import type { BlockRef } from '../../core/kernel/hooks.ts'
import type { HookCatalogue } from '../../core/kernel/hooks.ts'
import type { KvStore } from '../../core/kernel/kv.ts'
import { jsonValue, parseJson } from '../../core/kernel/kv.ts'
import type { ChainFollowService, FollowHandler, FollowOptions, FollowCursorStore, Follower } from '../../core/kernel/follow.ts'

const CURSOR_PREFIX = 'fw:'

/** a handler that throws is called again with the same notification after this long (doubling) */
const RETRY_MS = { first: 100, max: 10_000 }

/** the default cursor: a key of the chain database per follower, written after each handled notification */
function chainDbCursor (db: KvStore, id: string): FollowCursorStore {
  const key = `${CURSOR_PREFIX}${id}`
  return {
    load: () => parseJson<BlockRef | null>(db.getSync(key)) ?? null,
    save: async (ref) => { await db.write([{ type: 'put', key, value: jsonValue(ref) }]) }
  }
}

interface FollowerOptions {
  chain: ChainService
  handler: FollowHandler
  cursor: NonNullable<FollowOptions['cursor']>
  /** the follower saves its position (the default cursor); false: the plugin does */
  autoSave: boolean
  logger: Logger
  from: 'genesis' | 'tip'
}

interface FollowersOptions { chain: ChainService; db: KvStore; hooks: Pick<HookCatalogue, 'tipChanged'>; logger: Logger }

class ChainFollower implements Follower {
  readonly id: string
  #position: BlockRef | null = null
  #wake: (() => void) | undefined
  #dirty = true
  #stopped = false
  #running: Promise<void> | undefined
  #delivered = 0
  readonly #o: FollowerOptions

  constructor (id: string, o: FollowerOptions) {
    this.id = id
    this.#o = o
  }

  get position (): BlockRef | null { return this.#position }
  get delivered (): number { return this.#delivered }

  async start (): Promise<void> {
    const saved = await this.#o.cursor.load()
    if (saved !== null && saved !== undefined) this.#position = saved
    else if (this.#o.from === 'tip') {
      const tip = this.#o.chain.tip()
      this.#position = { height: tip.height, hash: tip.hash }
      if (this.#o.autoSave) await this.#o.cursor.save?.(this.#position)
    }
    this.#running = this.#loop()
  }

  /** the tip moved: look again (a flag, never a queue) */
  poke (): void {
    this.#dirty = true
    const wake = this.#wake
    this.#wake = undefined
    wake?.()
  }

  async stop (): Promise<void> {
    this.#stopped = true
    this.poke()
    await this.#running
  }

  async #loop (): Promise<void> {
    let retryMs = RETRY_MS.first
    while (!this.#stopped) {
      if (!this.#dirty) await new Promise<void>((resolve) => { this.#wake = resolve })
      this.#dirty = false
      try {
        while (!this.#stopped && await this.#step()) { /* next */ }
        retryMs = RETRY_MS.first
      } catch (err) {
        if (this.#stopped) break
        this.#o.logger.error({ err, follower: this.id, position: this.#position }, `follower '${this.id}' failed; the same notification is delivered again in ${retryMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, retryMs).unref())
        retryMs = Math.min(retryMs * 2, RETRY_MS.max)
        this.#dirty = true
      }
    }
  }

  /** delivers one notification; false when the follower is at the tip */
  async #step (): Promise<boolean> {
    const chain = this.#o.chain
    const at = this.#position
    if (at !== null && chain.hashAtHeight(at.height) !== at.hash) {
      // off the best chain: revert the block at the position
      const block = await chain.getBlockByHash(at.hash)
      if (block === undefined) throw new Error(`block ${at.hash} at height ${at.height}, which follower '${this.id}' last acknowledged, is no longer stored; it cannot be reverted`)
      const parent: BlockRef | null = block.height === 0 ? null : { height: block.height - 1, hash: block.previous_hash }
      await this.#deliver({ kind: 'revert', block, cursor: parent }, parent)
      return true
    }
    const next = at === null ? 0 : at.height + 1
    if (next > chain.tip().height) return false
    const hash = chain.hashAtHeight(next)
    if (hash === undefined) return false
    const block = await chain.getBlockByHash(hash)
    if (block === undefined) return false
    // receipts are written for contract transactions only: no iterator for a block without one
    const receipts: StoredReceipt[] = block.transactions.some((tx) => tx.recipient === CONTRACT_RECIPIENT) ? await chain.receiptsOfBlock(next) : []
    // the chain may have moved while reading: deliver only what is still the best block there
    if (chain.hashAtHeight(next) !== hash) return true
    const ref = { height: block.height, hash: block.hash }
    await this.#deliver({ kind: 'commit', block, receipts, cursor: ref }, ref)
    return true
  }

  async #deliver (n: Parameters<FollowHandler>[0], after: BlockRef | null): Promise<void> {
    await this.#o.handler(n)
    // acknowledged: the plugin's handler returned; the position moves, and is saved unless the
    // plugin keeps it itself (in its own store, with what it wrote)
    if (this.#o.autoSave) await this.#o.cursor.save?.(after)
    this.#position = after
    this.#delivered++
  }
}

/** The `chainFollow` service: the followers of one chain. */
export class ChainFollowers implements ChainFollowService {
  readonly #followers = new Map<string, ChainFollower>()
  readonly #o: FollowersOptions
  #started = false

  constructor (o: FollowersOptions) {
    this.#o = o
    o.hooks.tipChanged.tap('consensus:followers', () => { for (const f of this.#followers.values()) f.poke() })
  }

  follow (id: string, handler: FollowHandler, opts: FollowOptions = {}): Follower {
    if (this.#followers.has(id)) throw new Error(`a follower named '${id}' exists already`)
    const own = opts.cursor
    const follower = new ChainFollower(id, {
      chain: this.#o.chain,
      handler,
      cursor: own ?? chainDbCursor(this.#o.db, id),
      // a plugin's own cursor store is written by the plugin, with its data (exactly once)
      autoSave: own === undefined,
      logger: this.#o.logger,
      from: opts.from ?? 'genesis'
    })
    this.#followers.set(id, follower)
    if (this.#started) void follower.start()
    return follower
  }

  /** the lowest height a follower may still have to revert from: side blocks from there on are kept */
  keepSideFrom (): number | undefined {
    let lowest: number | undefined
    for (const f of this.#followers.values()) {
      const h = f.position?.height
      if (h !== undefined && (lowest === undefined || h < lowest)) lowest = h
    }
    return lowest
  }

  async start (): Promise<void> {
    this.#started = true
    for (const f of this.#followers.values()) await f.start()
  }

  /** Stops delivering; waits for a handler in progress at most `boundMs` (a stuck one is left
   *  behind unacknowledged, so it is delivered again on the next start). */
  async stop (boundMs = 5000): Promise<void> {
    this.#started = false
    const all = Promise.all([...this.#followers.values()].map(async (f) => { await f.stop() }))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([all, new Promise((resolve) => { timer = setTimeout(resolve, boundMs) })])
    clearTimeout(timer)
  }
}
