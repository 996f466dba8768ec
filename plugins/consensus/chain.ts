// The `chain` service: the one door blocks come in through, and fork choice by cumulative work.
// It composes the parts, each with one job: reads (chain-queries.ts), side-branch admission
// and pruning (side-branches.ts), validation spread over the verify pool (verify-pipeline.ts),
// and moving the tip: connect, disconnect, reorg (reorg.ts). Every block that connects is one
// atomic RocksDB batch: state, indexes, receipts, undo record, main-chain index and tip.
import type { Logger } from 'pino'
import type { KvOp, KvStore } from '../../core/kernel/kv.ts'
import { parseJson, jsonValue } from '../../core/kernel/kv.ts'
import type { Hooks } from '../../core/kernel/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import { genesisBlock } from '../../core/chain/genesis.ts'
import { StateOverlay } from '../../core/chain/state.ts'
import type { AccountState } from '../../core/chain/state.ts'
import { chainKey } from '../../core/chain/keys.ts'
import { blockBodyOps } from '../../core/chain/block-body.ts'
import type { BlockMeta } from '../../core/chain/keys.ts'
import { applyGenesis } from '../../core/chain/apply.ts'
import type { ContractExecutor } from '../../core/chain/apply.ts'
import { checkBlockFormat } from '../../core/chain/validate.ts'
import { blockWork, nextBits, retargetTimestampCount } from '../../core/chain/difficulty.ts'
import { difficultyOfBits } from '../../core/chain/target.ts'
import { BlockError, BlockErrorCode } from '../../core/chain/errors.ts'
import type { BlockOrigin, ChainService, ConfirmedTx, ProcessOptions, ProcessResult, StoredReceipt } from '../../core/chain/chain-service.ts'
import type { Cores } from '../../core/cores/cores.ts'
import { StateCache } from '../../core/chain/state-cache.ts'
import type { SignatureVerifier } from '../../core/crypto/verify-pool.ts'
import type { BeaconEvidenceView } from '../../core/chain/attestation.ts'
import { headerOp, linkOps, metaOf } from './block-records.ts'
import { ChainQueries } from './chain-queries.ts'
import { SideBranches } from './side-branches.ts'
import { VerifyPipeline } from './verify-pipeline.ts'
import { TipMoves } from './reorg.ts'
import { Rejections } from './rejections.ts'

// callers (tests, the p2p plugin) catch it by this module's name
export { BlockNotProcessedError } from './rejections.ts'
export { MAX_INVALID_STORED, KNOWN_INVALID } from './side-branches.ts'

// Committed state of addresses that keep transacting (state-cache.ts): ~40 KB for a hundred
// hot senders with their public keys; the byte bound keeps it small whatever the traffic.
const STATE_CACHE = { maxEntries: 16384, maxBytes: 4 << 20 }

export interface ChainOptions {
  db: KvStore
  params: NetworkParams
  hooks: Hooks
  logger: Logger
  executor: ContractExecutor | null
  /** the kernel's cores: every hash, signature check and contract run of this chain uses them */
  cores: Pick<Cores, 'pow' | 'sha3' | 'mldsa' | 'bls'>
  /** lets the mempool vouch for signatures it already verified */
  isVerified?: (tx: Transaction) => boolean
  /** verifies a block's signatures in parallel before it is applied; without it, inline */
  signatureVerifier?: SignatureVerifier
  /** invalid blocks kept stored at most (MAX_INVALID_STORED) */
  maxInvalidStored?: number
  now?: () => number
  /** the lowest height a chain follower may still revert from (follower.ts): side blocks a
   *  reorg depth below it are kept for it, beyond the node's own horizon */
  keepSideFrom?: () => number | undefined
}

export class Chain implements ChainService {
  readonly params: NetworkParams
  readonly #db: KvStore
  readonly #queries: ChainQueries
  readonly #stateCache = new StateCache(STATE_CACHE)
  readonly #sides: SideBranches
  readonly #pipeline: VerifyPipeline
  readonly #moves: TipMoves
  readonly #rejections: Rejections
  readonly #hooks: Hooks
  readonly #log: Logger
  readonly #opts: ChainOptions
  #genesis!: string
  #lock: Promise<unknown> = Promise.resolve()
  /** true while connecting a branch of blocks received in bulk (initial sync) */
  #syncing = false

  constructor (opts: ChainOptions) {
    this.#opts = opts
    this.params = opts.params
    this.#db = opts.db
    this.#hooks = opts.hooks
    this.#log = opts.logger
    const write = (ops: KvOp[]): Promise<void> => this.#write(ops)
    this.#queries = new ChainQueries(opts.db)
    this.#rejections = new Rejections(opts.hooks, opts.logger)
    this.#sides = new SideBranches({
      db: opts.db,
      params: opts.params,
      queries: this.#queries,
      logger: opts.logger,
      tip: () => this.tip(),
      expectedBits: (parent) => this.#expectedBits(parent),
      write,
      maxInvalidStored: opts.maxInvalidStored,
      keepSideFrom: opts.keepSideFrom
    })
    this.#pipeline = new VerifyPipeline({
      db: opts.db,
      params: opts.params,
      logger: opts.logger,
      cores: opts.cores,
      stateCache: this.#stateCache,
      isVerified: opts.isVerified,
      signatureVerifier: opts.signatureVerifier
    })
    this.#moves = new TipMoves({
      db: opts.db,
      params: opts.params,
      hooks: opts.hooks,
      logger: opts.logger,
      executor: opts.executor,
      cores: opts.cores,
      isVerified: opts.isVerified,
      signatureVerifier: opts.signatureVerifier,
      queries: this.#queries,
      sides: this.#sides,
      pipeline: this.#pipeline,
      rejections: this.#rejections,
      write,
      syncing: () => this.#syncing
    })
  }

  /** Loads the tip, writing genesis on an empty database. */
  async init (): Promise<void> {
    // beacon pairings run inline when no pool takes them: the BLS core must be instantiated
    // (with a pool, this thread instantiates it only if the pool fails: see VerifyPipeline)
    if (this.#opts.signatureVerifier?.verifyBeacons === undefined) await this.#opts.cores.bls.ready()
    const genesis = genesisBlock(this.params, this.#opts.cores)
    const tip = parseJson<{ hash: string }>(this.#db.getSync(chainKey.tip()))
    if (tip === undefined) {
      const o = new StateOverlay(this.#db)
      applyGenesis(o, genesis, this.#opts.cores.sha3)
      const meta = metaOf(genesis, blockWork(genesis.bits), 'main')
      const { ops, undo } = o.commitOps()
      ops.push(...linkOps(genesis, meta, undo, this.#opts.cores.sha3))
      await this.#write(ops, { sync: true })
      this.#moves.setTip(meta)
      this.#log.info({ hash: genesis.hash }, 'wrote genesis block')
    } else {
      const stored = this.hashAtHeight(0)
      if (stored !== genesis.hash) throw new Error(`the chain database holds another network's chain (genesis ${stored ?? 'missing'}); use another --data-dir or run 'ledger resync'`)
      const meta = this.getBlockMeta(tip.hash)
      if (meta === undefined) throw new Error('chain database corrupt: tip block meta missing')
      this.#moves.setTip(meta)
    }
    this.#genesis = genesis.hash
  }

  // ---- reads (chain-queries.ts)

  tip (): BlockMeta { return this.#moves.tip() }
  genesisHash (): string { return this.#genesis }
  getBlockMeta (hash: string): BlockMeta | undefined { return this.#queries.getBlockMeta(hash) }
  getHeader (hash: string): Uint8Array | undefined { return this.#queries.getHeader(hash) }
  hashAtHeight (height: number): string | undefined { return this.#queries.hashAtHeight(height) }
  /** Callers share the cached object: a block read here must not be modified. */
  getBlockByHash (hash: string): Promise<Block | undefined> { return this.#queries.getBlockByHash(hash) }
  getBlockBinary (hash: string): Promise<Uint8Array | undefined> { return this.#queries.getBlockBinary(hash) }
  getBlockByHeight (height: number): Promise<Block | undefined> { return this.#queries.getBlockByHeight(height) }
  totalSupply (): bigint { return this.#queries.totalSupply() }
  stateView (): StateOverlay { return this.#queries.stateView() }
  getAccount (address: string): AccountState { return this.#queries.getAccount(address) }
  walletOfVm (vmAddress: string): string | undefined { return this.#queries.walletOfVm(vmAddress) }
  getTransaction (txId: string): Promise<ConfirmedTx | undefined> { return this.#queries.getTransaction(txId) }
  txIdsWithPrefix (prefix: string, limit: number): Promise<string[]> { return this.#queries.txIdsWithPrefix(prefix, limit) }
  addressHistory (address: string, offset: number, limit: number): Promise<{ total: number; txIds: string[] }> { return this.#queries.addressHistory(address, offset, limit) }
  getReceipt (txId: string): Promise<StoredReceipt | undefined> { return this.#queries.getReceipt(txId) }
  receiptsOfBlock (height: number): Promise<StoredReceipt[]> { return this.#queries.receiptsOfBlock(height) }
  recentMessageTxs (limit: number): Promise<ConfirmedTx[]> { return this.#queries.recentMessageTxs(limit) }

  nextBits (): number { return this.#expectedBits(this.tip()) }
  nextDifficulty (): number { return difficultyOfBits(this.nextBits()) }

  /** the bits the schedule demands of a child of `parent` (on whichever branch it lies) */
  #expectedBits (parent: BlockMeta): number {
    return nextBits(this.params, parent.height + 1, parent.bits, () => {
      const ts: number[] = []
      let cur: BlockMeta | undefined = parent
      const count = retargetTimestampCount(this.params)
      while (cur !== undefined && ts.length < count) {
        ts.unshift(cur.timestamp)
        cur = cur.height === 0 ? undefined : this.getBlockMeta(cur.previous_hash)
      }
      return ts
    })
  }

  // ---- writes

  processBlock (block: Block, origin: BlockOrigin, opts: ProcessOptions = {}): Promise<ProcessResult> {
    const run = this.#lock.then(() => this.#process(block, origin, opts))
    this.#lock = run.catch(() => undefined)
    return run
  }

  async #process (block: Block, origin: BlockOrigin, opts: ProcessOptions): Promise<ProcessResult> {
    let result: ProcessResult
    try {
      result = await this.#processOne(block, origin, opts)
      // not connected on the tip (known, side, reorg): the next block's checks start now
      if (opts.next !== undefined) this.#pipeline.verifyAhead(opts.next)
    } catch (err) {
      // every refusal is announced once: format, known-invalid, side-branch admission, rules,
      // reorg depth. An orphan is not judged yet (p2p fetches its parent and offers it again).
      if (err instanceof BlockError && err.code !== BlockErrorCode.PARENT_UNKNOWN && opts.announceRejection !== false && !this.#rejections.wasAnnounced(err)) {
        this.#rejections.announce(block, err, origin)
      }
      throw err
    }
    if (result.status === 'connected' || result.status === 'reorg') {
      await this.#sides.pruneStale()
      await this.#sides.pruneInvalid()
    }
    return result
  }

  /** Fork choice: a block on the tip connects; a side block is stored, and reorganized onto only when strictly heavier. */
  async #processOne (block: Block, origin: BlockOrigin, opts: ProcessOptions): Promise<ProcessResult> {
    checkBlockFormat(block)
    const known = this.getBlockMeta(block.hash)
    if (known !== undefined) {
      if (known.status === 'invalid') throw new BlockError(BlockErrorCode.BAD_TX, 'block was already found invalid')
      return { status: 'known', hash: block.hash, height: block.height }
    }
    if (this.#sides.isKnownInvalid(block.hash)) throw new BlockError(BlockErrorCode.BAD_TX, 'block was already found invalid')
    const parent = this.getBlockMeta(block.previous_hash)
    if (parent === undefined && this.#sides.isKnownInvalid(block.previous_hash)) throw new BlockError(BlockErrorCode.BAD_TX, 'parent block is invalid')
    if (parent === undefined) throw new BlockError(BlockErrorCode.PARENT_UNKNOWN, `parent ${block.previous_hash.slice(0, 16)}… unknown`)
    if (parent.status === 'invalid') throw new BlockError(BlockErrorCode.BAD_TX, 'parent block is invalid')
    if (parent.hash !== this.tip().hash) this.#sides.admit(block, parent, origin, opts)
    // the pool verifies signatures (from when the proof of work has passed) while this thread
    // checks the merkle root and the attestation and applies the block
    const onTip = parent.hash === this.tip().hash
    // validation is handed its context as data, read inside validate (a failed read is not a rule)
    const started = await this.#pipeline.validate(block, () => ({
      parent,
      expectedBits: this.#expectedBits(parent),
      now: (this.#opts.now ?? (() => Date.now() / 1000))(),
      onTip,
      txForms: opts.txForms,
      next: opts.next
    }))
    const work = BigInt(parent.work) + blockWork(block.bits)
    const tipWork = BigInt(this.tip().work)

    if (parent.hash === this.tip().hash) {
      await this.#moves.connect(block, work, origin, false, started)
      this.#hooks.tipChanged.call({ height: block.height, hash: block.hash })
      return { status: 'connected', hash: block.hash, height: block.height }
    }

    // A side branch: store it; switch only when strictly heavier.
    const meta = metaOf(block, work, 'side')
    await this.#write([
      ...blockBodyOps(block, started.encoded?.txs),
      headerOp(block, this.#opts.cores.sha3, started.encoded?.header),
      { type: 'put', key: chainKey.blockMeta(block.hash), value: jsonValue(meta) },
      { type: 'put', key: chainKey.sideBlock(block.height, block.hash), value: new Uint8Array(0) }
    ])
    if (work <= tipWork) return { status: 'side', hash: block.hash, height: block.height }
    await this.#moves.reorgTo(meta, origin)
    return { status: 'reorg', hash: block.hash, height: block.height }
  }

  /** Every write to the chain database: the state cache and the lowest side block follow what it committed. */
  async #write (ops: KvOp[], opts?: { sync?: boolean }): Promise<void> {
    await this.#db.write(ops, opts)
    this.#stateCache.committed(ops)
    this.#sides.noteWritten(ops)
  }

  setSyncing (syncing: boolean): void { this.#syncing = syncing }

  /** see VerifyPipeline.preverifyBeacons */
  preverifyBeacons (blocks: readonly BeaconEvidenceView[]): Promise<void> { return this.#pipeline.preverifyBeacons(blocks) }
}
