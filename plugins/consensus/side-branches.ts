// Blocks off the main chain: which side blocks are admitted at all (before any validation or
// write), and the pruning of side blocks and invalid blocks no reorg can reach any more, with
// the bounded set of pruned invalid hashes still refused at once.
import type { Logger } from 'pino'
import type { KvOp, KvStore } from '../../core/kernel/kv.ts'
import { parseJson } from '../../core/kernel/kv.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Block } from '../../core/chain/types.ts'
import { chainKey } from '../../core/chain/keys.ts'
import type { BlockMeta } from '../../core/chain/keys.ts'
import { blockTxKeys } from '../../core/chain/block-body.ts'
import type { StoredBlockHead } from '../../core/chain/block-body.ts'
import { blockWork } from '../../core/chain/difficulty.ts'
import { BlockError, BlockErrorCode } from '../../core/chain/errors.ts'
import type { BlockOrigin, ProcessOptions } from '../../core/chain/chain-service.ts'
import type { ChainQueries } from './chain-queries.ts'

/** stale side blocks deleted per batch (a long-offline node catching up prunes over several blocks) */
const PRUNE_BATCH = 256
const SIDE_PREFIX = chainKey.sideBlockPrefix()
const INVALID_PREFIX = chainKey.invalidBlockPrefix()
/** invalid blocks kept stored (for the operator to look at) at most; beyond that the lowest go first */
export const MAX_INVALID_STORED = 1000
/** hashes of pruned invalid blocks still refused at once, never validated again (a bounded, insertion-ordered set) */
export const KNOWN_INVALID = 10_000
/** the height in an index key (`sd:<padded height>:<hash>`, `iv:…`) */
const invalidHeightOf = (key: string): number => Number(key.slice(INVALID_PREFIX.length, key.indexOf(':', INVALID_PREFIX.length)))
const sideHeightOf = (key: string): number => Number(key.slice(SIDE_PREFIX.length, key.indexOf(':', SIDE_PREFIX.length)))

export interface SideBranchesOptions {
  db: KvStore
  params: NetworkParams
  queries: ChainQueries
  logger: Logger
  /** the current main-chain tip */
  tip: () => BlockMeta
  /** the bits the schedule demands of a child of `parent` */
  expectedBits: (parent: BlockMeta) => number
  /** the chain's one write path (it reports back through noteWritten) */
  write: (ops: KvOp[]) => Promise<void>
  /** invalid blocks kept stored at most (MAX_INVALID_STORED) */
  maxInvalidStored?: number
  /** the lowest height a chain follower may still revert from (ChainOptions.keepSideFrom) */
  keepSideFrom?: () => number | undefined
}

export class SideBranches {
  readonly #o: SideBranchesOptions
  readonly #db: KvStore
  readonly #params: NetworkParams
  /** height of the lowest side block stored (Infinity: none); undefined until a prune has looked */
  #lowestSide: number | undefined
  /** invalid blocks stored (their `iv:` index entries); undefined until counted */
  #invalidStored: number | undefined
  /** the lowest height of a stored invalid block (Infinity: none); undefined until looked */
  #lowestInvalid: number | undefined
  readonly #knownInvalid = new Set<string>()

  constructor (opts: SideBranchesOptions) {
    this.#o = opts
    this.#db = opts.db
    this.#params = opts.params
  }

  /** a pruned invalid block's hash (refused at once, as its stored mark was) */
  isKnownInvalid (hash: string): boolean { return this.#knownInvalid.has(hash) }

  /** Follows what a write committed: the lowest side block stored. */
  noteWritten (ops: readonly KvOp[]): void {
    if (this.#lowestSide === undefined) return
    for (const op of ops) if (op.type === 'put' && op.key.startsWith(SIDE_PREFIX)) this.#lowestSide = Math.min(this.#lowestSide, sideHeightOf(op.key))
  }

  /** Counts a block just stored as invalid at `height` (its `iv:` entry written). */
  noteInvalidStored (height: number): void {
    if (this.#invalidStored !== undefined) this.#invalidStored++
    if (this.#lowestInvalid !== undefined) this.#lowestInvalid = Math.min(this.#lowestInvalid, height)
  }

  /**
   * Refuses, before any validation or disk write, a side block that could never become the
   * main chain: one whose branch leaves the main chain deeper than a reorg may undo, and (from
   * a peer) one lighter than the tip unless a checked header chain that outweighs the tip
   * vouches for it (headers-first sync). Otherwise a child of genesis at the initial
   * difficulty would be stored for ever.
   */
  admit (block: Block, parent: BlockMeta, origin: BlockOrigin, opts: ProcessOptions): void {
    const tip = this.#o.tip()
    const lowest = tip.height - this.#params.maxReorgDepth
    // Walk down the branch to the main chain; heights fall, so this stops within
    // parent.height - lowest steps.
    let cur: BlockMeta | undefined = parent
    while (cur !== undefined && cur.status !== 'main' && cur.height > lowest) cur = this.#o.queries.getBlockMeta(cur.previous_hash)
    if (cur === undefined || cur.status !== 'main' || cur.height < lowest) {
      throw new BlockError(BlockErrorCode.REORG_TOO_DEEP, `side block ${block.height} forks more than ${this.#params.maxReorgDepth} blocks below the tip; not stored`)
    }
    if (origin !== 'peer') return
    const tipWork = BigInt(tip.work)
    // the target the block must carry (checked by validation next), not the one it claims
    const work = BigInt(parent.work) + blockWork(this.#o.expectedBits(parent))
    if (work >= tipWork || (opts.branchWork !== undefined && opts.branchWork > tipWork)) return
    throw new BlockError(BlockErrorCode.LIGHT_BRANCH, `side block ${block.height} is lighter than the tip and no heavier header chain backs it; not stored`)
  }

  /** Deletes side blocks so far below the tip that no reorg could reach them. */
  async pruneStale (): Promise<void> {
    // a side block at height h forks at h - 1 or lower: out of reach once h - 1 < tip - limit
    const keep = this.#o.keepSideFrom?.()
    const below = Math.min(this.#o.tip().height, keep ?? Infinity) - this.#params.maxReorgDepth + 1
    if (below <= 1) return
    // most blocks: no side block at all, or none low enough (no iterator opened, ~0.2 ms a block)
    if (this.#lowestSide !== undefined && this.#lowestSide >= below) return
    const ops: KvOp[] = []
    const pruned = { blocks: [] as string[], txs: [] as string[] }
    let seen = 0
    for await (const key of this.#db.keys({ gte: SIDE_PREFIX, lt: chainKey.sideBlockBelow(below), limit: PRUNE_BATCH })) {
      seen++
      ops.push({ type: 'del', key })
      const hash = key.slice(key.lastIndexOf(':') + 1)
      const meta = this.#o.queries.getBlockMeta(hash)
      if (meta === undefined || meta.status === 'main') continue // reconnected since: only the index entry goes
      const head = parseJson<StoredBlockHead>(await this.#db.get(chainKey.block(hash)))
      if (head !== undefined) for (const k of blockTxKeys(hash, head)) { ops.push({ type: 'del', key: k }); pruned.txs.push(k) }
      pruned.blocks.push(hash)
      ops.push({ type: 'del', key: chainKey.block(hash) }, { type: 'del', key: chainKey.header(hash) }, { type: 'del', key: chainKey.blockMeta(hash) }, { type: 'del', key: chainKey.undo(hash) })
    }
    if (ops.length > 0) {
      // a pruned block is gone for every reader, the caches included (after the write: a read
      // racing it could otherwise put the block back)
      const evict = (): void => { this.#o.queries.forget(pruned.blocks, pruned.txs) }
      evict()
      await this.#o.write(ops)
      evict()
      this.#o.logger.debug({ below, deleted: ops.length }, 'pruned stale side blocks')
    }
    // none left below `below` unless the batch was full: the lowest is then the first at or above it
    if (seen < PRUNE_BATCH) {
      this.#lowestSide = Infinity
      for await (const key of this.#db.keys({ gte: chainKey.sideBlockBelow(below), lt: `${SIDE_PREFIX}~`, limit: 1 })) this.#lowestSide = sideHeightOf(key)
    } else {
      this.#lowestSide = undefined
    }
  }

  /**
   * Deletes invalid blocks out of any reorg's reach (at or below tip − reorg limit) and, past
   * MAX_INVALID_STORED, the lowest ones; their hashes stay in a bounded set refused at once.
   */
  async pruneInvalid (): Promise<void> {
    if (this.#invalidStored === undefined) {
      let n = 0
      let lowest = Infinity
      for await (const key of this.#db.keys({ gte: INVALID_PREFIX, lt: `${INVALID_PREFIX}~` })) { if (n === 0) lowest = invalidHeightOf(key); n++ }
      this.#invalidStored = n
      this.#lowestInvalid = lowest
    }
    const below = this.#o.tip().height - this.#params.maxReorgDepth + 1
    const max = this.#o.maxInvalidStored ?? MAX_INVALID_STORED
    if (this.#invalidStored <= max && (this.#lowestInvalid ?? 0) >= below) return
    const ops: KvOp[] = []
    const pruned: string[] = []
    const txs: string[] = []
    let next = Infinity
    for await (const key of this.#db.keys({ gte: INVALID_PREFIX, lt: `${INVALID_PREFIX}~`, limit: PRUNE_BATCH })) {
      const height = invalidHeightOf(key)
      if (height >= below && this.#invalidStored - pruned.length <= max) { next = height; break }
      const hash = key.slice(key.lastIndexOf(':') + 1)
      ops.push({ type: 'del', key })
      if (this.#o.queries.getBlockMeta(hash)?.status === 'invalid') {
        const head = parseJson<StoredBlockHead>(await this.#db.get(chainKey.block(hash)))
        if (head !== undefined) for (const k of blockTxKeys(hash, head)) { ops.push({ type: 'del', key: k }); txs.push(k) }
        ops.push({ type: 'del', key: chainKey.block(hash) }, { type: 'del', key: chainKey.header(hash) }, { type: 'del', key: chainKey.blockMeta(hash) })
      }
      pruned.push(hash)
    }
    if (pruned.length === 0) { this.#lowestInvalid = next; return }
    // refused at once from now on, as the stored mark did (the oldest forgotten past the bound)
    for (const h of pruned) {
      this.#knownInvalid.add(h)
      if (this.#knownInvalid.size > KNOWN_INVALID) this.#knownInvalid.delete(this.#knownInvalid.values().next().value as string)
    }
    const evict = (): void => { this.#o.queries.forget(pruned, txs) }
    evict()
    await this.#o.write(ops)
    evict()
    this.#invalidStored -= pruned.length
    // a full batch may have left more to prune: look again next time
    this.#lowestInvalid = pruned.length === PRUNE_BATCH ? 0 : next
    this.#o.logger.debug({ pruned: pruned.length, stored: this.#invalidStored }, 'pruned invalid blocks')
  }
}
