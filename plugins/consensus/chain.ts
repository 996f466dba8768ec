// Block processing, fork choice by cumulative work, and reorgs. Every block that connects is
// one atomic RocksDB batch: state, indexes, receipts, undo record, main-chain index and tip.
import { entropyEvidenceOf } from '../../core/chain/entropy-evidence.ts'
import type { Logger } from 'pino'
import type { KvOp, KvStore } from '../../core/kernel/kv.ts'
import { parseJson, jsonValue } from '../../core/kernel/kv.ts'
import type { Hooks } from '../../core/kernel/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import { genesisBlock } from '../../core/chain/genesis.ts'
import { StateOverlay, stateKey, undoOps } from '../../core/chain/state.ts'
import type { AccountState, UndoRecord } from '../../core/chain/state.ts'
import { chainKey } from '../../core/chain/keys.ts'
import { assembleStoredBlock, blockBodyOps, blockTxKeys, headOfStored, storedTx } from '../../core/chain/block-body.ts'
import { encodeBlockFromStored } from '../../core/chain/tx-codec.ts'
import { memberHexBytes } from '../../core/chain/binary-json.ts'
import type { StoredBlockHead } from '../../core/chain/block-body.ts'
import type { BlockMeta, TxLocation } from '../../core/chain/keys.ts'
import { applyBlock, applyGenesis, blockStateKeys } from '../../core/chain/apply.ts'
import type { AppliedBlock, ContractExecutor } from '../../core/chain/apply.ts'
import { checkBlockFormat, checkMerkleRoot, validateBlockContext } from '../../core/chain/validate.ts'
import { leavesOfEncoded } from '../../core/chain/merkle.ts'
import type { DeferredPairings } from '../../core/chain/validate.ts'
import { blockWork, nextBits, retargetTimestampCount } from '../../core/chain/difficulty.ts'
import { difficultyOfBits } from '../../core/chain/target.ts'
import { encodeHeader } from '../../core/chain/header.ts'
import { BlockError, BlockErrorCode } from '../../core/chain/errors.ts'
import type { BlockOrigin, ChainService, ConfirmedTx, ProcessOptions, ProcessResult, StoredReceipt } from '../../core/chain/chain-service.ts'
import type { Cores } from '../../core/cores/cores.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'
import { normalizeAddress } from '../../core/chain/address.ts'
import { BoundedCache } from '../../core/kernel/bounded-cache.ts'
import { StateCache } from '../../core/chain/state-cache.ts'
import { senderPublicKey } from '../../core/chain/tx-rules.ts'
import type { SignatureCheck, SignatureVerifier } from '../../core/crypto/verify-pool.ts'
import { beaconPairingsOf, settlePairings } from '../../core/chain/attestation.ts'
import type { BeaconEvidenceView } from '../../core/chain/attestation.ts'
import { verifyPairings } from '../../core/entropy/beacon-batch.ts'
import { verifiedBeacons } from '../../core/entropy/beacon-cache.ts'
import type { BeaconPairingInput } from '../../core/entropy/beacon-verify.ts'

// Decoded blocks and transactions by content key (a block hash; a block hash and an index),
// which never change meaning: the explorer's block and tx lookups of buried blocks skip the
// reads and decoding. Sizes count the decoded form (hex strings), about twice the stored bytes.
const BLOCK_CACHE = { maxEntries: 512, maxSize: 16 << 20 }
const TX_CACHE = { maxEntries: 4096, maxSize: 8 << 20 }
// Committed state of addresses that keep transacting (state-cache.ts): ~40 KB for a hundred
// hot senders with their public keys; the byte bound keeps it small whatever the traffic.
const STATE_CACHE = { maxEntries: 16384, maxBytes: 4 << 20 }

/** below this many signatures a block verifies faster inline than through the threads */
const PARALLEL_VERIFY_MIN = 4
/** stale side blocks deleted per batch (a long-offline node catching up prunes over several blocks) */
const PRUNE_BATCH = 256
const SIDE_PREFIX = chainKey.sideBlockPrefix()
/** the height in a side-block index key (`sd:<padded height>:<hash>`) */
const INVALID_PREFIX = chainKey.invalidBlockPrefix()
/** invalid blocks kept stored (for the operator to look at) at most; beyond that the lowest go first */
export const MAX_INVALID_STORED = 1000
/** hashes of pruned invalid blocks still refused at once, never validated again (a bounded, insertion-ordered set) */
export const KNOWN_INVALID = 10_000
const invalidHeightOf = (key: string): number => Number(key.slice(INVALID_PREFIX.length, key.indexOf(':', INVALID_PREFIX.length)))
const sideHeightOf = (key: string): number => Number(key.slice(SIDE_PREFIX.length, key.indexOf(':', SIDE_PREFIX.length)))

/** the bytes of even-length lower-case hex text; undefined for anything else */
function hexBytes (s: unknown): Buffer | undefined {
  if (typeof s !== 'string' || s.length % 2 !== 0) return undefined
  // one decode, kept: the round trip isLowerHex makes (its bytes are what is verified)
  const bytes = Buffer.from(s, 'hex')
  return bytes.toString('hex') === s ? bytes : undefined
}

/** `bytes`: the header as validation encoded it (else encoded here) */
const headerOp = (block: Block, sha3: Sha3Core, bytes?: Uint8Array): KvOp => ({ type: 'put', key: chainKey.header(block.hash), value: bytes ?? encodeHeader(block, sha3) })

/** what validation already encoded, kept for the write */
interface EncodedBlock { txs: readonly Uint8Array[]; header: Uint8Array }
/** a block's state values read ahead (off this thread), or null when that read failed */
type ReadAhead = Promise<ReadonlyMap<string, Buffer | undefined> | null>
/** what #processOne started for a block on the tip, for #connect to finish */
interface Started {
  preverified?: Preverify
  /** the block processed next (ProcessOptions.next): its checks start once this block's verdicts are in */
  next?: ProcessOptions['next']
  encoded?: EncodedBlock
  /** validation's checks left to the pool (merkle root, beacon pairings) */
  deferredChecks?: () => Promise<void>
  reads?: ReadAhead
}

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

/** a block's signature checks on the pool: those sent (id -> signature), and those that verified */
interface Preverify { submitted: Map<string, string>; verified: Promise<Map<string, string>>; /** `submitted` is complete */ ready: Promise<void> }
/** one application of a block: its batch, or what it threw */
type Attempt = { applied: AppliedBlock; ops: KvOp[] } | { err: unknown }

/** Processing a block failed for a reason other than a consensus rule: retry it later. */
export class BlockNotProcessedError extends Error { override name = 'BlockNotProcessedError' }

const metaOf = (block: Block, work: bigint, status: BlockMeta['status']): BlockMeta => ({
  hash: block.hash,
  height: block.height,
  previous_hash: block.previous_hash,
  timestamp: block.timestamp,
  difficulty: block.difficulty,
  bits: block.bits,
  tx_count: block.transactions.length,
  miner: block.miner,
  work: work.toString(),
  status,
  entropy_evidence: entropyEvidenceOf(block.quantum_signature)
})

export class Chain implements ChainService {
  readonly params: NetworkParams
  readonly #db: KvStore
  readonly #blocks = new BoundedCache<string, Block>(BLOCK_CACHE)
  readonly #txs = new BoundedCache<string, Transaction>(TX_CACHE)
  readonly #stateCache = new StateCache(STATE_CACHE)
  readonly #hooks: Hooks
  readonly #log: Logger
  readonly #opts: ChainOptions
  /** errors already announced on blockRejected, so #process does not announce them twice */
  readonly #announcedRejections = new WeakSet<BlockError>()
  #tip!: BlockMeta
  #genesis!: string
  #lock: Promise<unknown> = Promise.resolve()
  /** height of the lowest side block stored (Infinity: none); undefined until a prune has looked */
  #lowestSide: number | undefined
  /** invalid blocks stored (their `iv:` index entries); undefined until counted */
  #invalidStored: number | undefined
  /** the lowest height of a stored invalid block (Infinity: none); undefined until looked */
  #lowestInvalid: number | undefined
  readonly #knownInvalid = new Set<string>()
  /** true while connecting a branch of blocks received in bulk (initial sync) */
  #syncing = false
  /** signature checks started for a block before it is processed (ProcessOptions.next), by block object */
  readonly #ahead = new WeakMap<Block, Preverify>()

  constructor (opts: ChainOptions) {
    this.#opts = opts
    this.params = opts.params
    this.#db = opts.db
    this.#hooks = opts.hooks
    this.#log = opts.logger
  }

  /** Loads the tip, writing genesis on an empty database. */
  async init (): Promise<void> {
    // beacon pairings run inline when no pool takes them: the BLS core must be instantiated
    // (with a pool, this thread instantiates it only if the pool fails: see #pairOnPool)
    if (this.#opts.signatureVerifier?.verifyBeacons === undefined) await this.#opts.cores.bls.ready()
    const genesis = genesisBlock(this.params, this.#opts.cores)
    const tip = parseJson<{ hash: string }>(this.#db.getSync(chainKey.tip()))
    if (tip === undefined) {
      const o = new StateOverlay(this.#db)
      applyGenesis(o, genesis, this.#opts.cores.sha3)
      const meta = metaOf(genesis, blockWork(genesis.bits), 'main')
      const { ops, undo } = o.commitOps()
      ops.push(...this.#linkOps(genesis, meta, undo))
      await this.#write(ops, { sync: true })
      this.#tip = meta
      this.#log.info({ hash: genesis.hash }, 'wrote genesis block')
    } else {
      const stored = this.hashAtHeight(0)
      if (stored !== genesis.hash) throw new Error(`the chain database holds another network's chain (genesis ${stored ?? 'missing'}); use another --data-dir or run 'ledger resync'`)
      const meta = this.getBlockMeta(tip.hash)
      if (meta === undefined) throw new Error('chain database corrupt: tip block meta missing')
      this.#tip = meta
    }
    this.#genesis = genesis.hash
  }

  #linkOps (block: Block, meta: BlockMeta, undo: UndoRecord, encoded?: EncodedBlock): KvOp[] {
    return [
      ...blockBodyOps(block, encoded?.txs),
      headerOp(block, this.#opts.cores.sha3, encoded?.header),
      { type: 'put', key: chainKey.blockMeta(block.hash), value: jsonValue(meta) },
      { type: 'put', key: chainKey.undo(block.hash), value: jsonValue(undo) },
      { type: 'put', key: chainKey.mainHash(block.height), value: Buffer.from(block.hash) },
      { type: 'put', key: chainKey.tip(), value: jsonValue({ hash: block.hash, height: block.height }) }
    ]
  }

  // ---- reads

  tip (): BlockMeta { return this.#tip }
  genesisHash (): string { return this.#genesis }

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

  nextBits (): number { return this.#expectedBits(this.#tip) }
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
      if (opts.next !== undefined) this.#verifyAhead(opts.next)
    } catch (err) {
      // every refusal is announced once: format, known-invalid, side-branch admission, rules,
      // reorg depth. An orphan is not judged yet (p2p fetches its parent and offers it again).
      if (err instanceof BlockError && err.code !== BlockErrorCode.PARENT_UNKNOWN && opts.announceRejection !== false && !this.#announcedRejections.has(err)) {
        this.#rejected(block, err, origin)
      }
      throw err
    }
    if (result.status === 'connected' || result.status === 'reorg') {
      await this.#pruneStaleSide()
      await this.#pruneInvalid()
    }
    return result
  }

  async #processOne (block: Block, origin: BlockOrigin, opts: ProcessOptions): Promise<ProcessResult> {
    checkBlockFormat(block)
    const known = this.getBlockMeta(block.hash)
    if (known !== undefined) {
      if (known.status === 'invalid') throw new BlockError(BlockErrorCode.BAD_TX, 'block was already found invalid')
      return { status: 'known', hash: block.hash, height: block.height }
    }
    if (this.#knownInvalid.has(block.hash)) throw new BlockError(BlockErrorCode.BAD_TX, 'block was already found invalid')
    const parent = this.getBlockMeta(block.previous_hash)
    if (parent === undefined && this.#knownInvalid.has(block.previous_hash)) throw new BlockError(BlockErrorCode.BAD_TX, 'parent block is invalid')
    if (parent === undefined) throw new BlockError(BlockErrorCode.PARENT_UNKNOWN, `parent ${block.previous_hash.slice(0, 16)}… unknown`)
    if (parent.status === 'invalid') throw new BlockError(BlockErrorCode.BAD_TX, 'parent block is invalid')
    if (parent.hash !== this.#tip.hash) this.#admitSide(block, parent, origin, opts)
    // the pool verifies signatures (from when the proof of work has passed) while this thread
    // checks the merkle root and the attestation and applies the block
    const onTip = parent.hash === this.#tip.hash
    // a block on the tip with more than a coinbase: worth reading ahead and hashing on the pool
    const bulk = onTip && block.transactions.length >= PARALLEL_VERIFY_MIN
    const verifier = this.#opts.signatureVerifier
    // on the tip, the pool also hashes the merkle leaves and pairs the beacon rounds, and this
    // thread checks their verdicts only once it has applied the block (#connect, before any write)
    const deferMerkle = bulk && verifier?.digestAll !== undefined
    let preverified: Preverify | undefined
    let encoded: EncodedBlock | undefined
    let leaves: Promise<Uint8Array[] | null> | undefined
    let pairings: Promise<unknown> | undefined
    let reads: ReadAhead | undefined
    try {
      const deferred = validateBlockContext(this.params, block, {
        parent,
        expectedBits: this.#expectedBits(parent),
        now: (this.#opts.now ?? (() => Date.now() / 1000))(),
        cores: this.#opts.cores,
        deferPairings: verifier?.verifyBeacons !== undefined,
        deferMerkle,
        txForms: opts.txForms,
        // the block's accounts and indexes are read on libuv's threads while this one encodes,
        // packs the checks and finishes validation
        onProofOfWork: () => { if (bulk) reads = this.#readAhead(block) },
        // on the tip the pairings start now and are settled in #connect; what they throw is
        // kept (not left unhandled) until it asks
        onPairings: (owed) => { if (onTip && owed.pending.length > 0) pairings = this.#settlePairings(owed).then(() => null, (err: unknown) => err) },
        onEncoded: (txs, header) => {
          encoded = { txs, header }
          if (deferMerkle) leaves = this.#leavesOnPool(txs)
          if (onTip) preverified = this.#takeAhead(block) ?? this.#preverify(block, txs)
        }
      })
      if (!onTip && deferred !== null && deferred.pending.length > 0) await this.#settlePairings(deferred)
    } catch (err) {
      if (!(err instanceof BlockError)) throw this.#notProcessed(block, err)
      throw err
    }
    const deferredChecks = async (): Promise<void> => {
      try {
        if (leaves !== undefined && encoded !== undefined) {
          const sha3 = this.#opts.cores.sha3
          checkMerkleRoot(block, (await leaves) ?? leavesOfEncoded(encoded.txs, sha3), sha3)
        }
        const failed = await pairings
        if (failed !== undefined && failed !== null) throw failed
      } catch (err) {
        if (!(err instanceof BlockError)) throw this.#notProcessed(block, err)
        throw err
      }
    }
    const work = BigInt(parent.work) + blockWork(block.bits)
    const tipWork = BigInt(this.#tip.work)

    if (parent.hash === this.#tip.hash) {
      await this.#connect(block, work, origin, false, { preverified, encoded, deferredChecks, reads, next: opts.next })
      this.#hooks.tipChanged.call({ height: block.height, hash: block.hash })
      return { status: 'connected', hash: block.hash, height: block.height }
    }

    // A side branch: store it; switch only when strictly heavier.
    const meta = metaOf(block, work, 'side')
    await this.#write([
      ...blockBodyOps(block, encoded?.txs),
      headerOp(block, this.#opts.cores.sha3, encoded?.header),
      { type: 'put', key: chainKey.blockMeta(block.hash), value: jsonValue(meta) },
      { type: 'put', key: chainKey.sideBlock(block.height, block.hash), value: new Uint8Array(0) }
    ])
    if (work <= tipWork) return { status: 'side', hash: block.hash, height: block.height }
    await this.#reorgTo(meta, origin)
    return { status: 'reorg', hash: block.hash, height: block.height }
  }

  /**
   * The state applying `block` reads (blockStateKeys): what the state cache holds, the rest
   * read off this thread; null if that read fails.
   */
  #readAhead (block: Block): ReadAhead {
    const { found, missing } = this.#stateCache.split([...new Set(blockStateKeys(block, this.#opts.cores.sha3))])
    return this.#db.getMany(missing).then((values) => {
      missing.forEach((k, i) => {
        found.set(k, values[i])
        this.#stateCache.remember(k, values[i])
      })
      return found
    }, (err: unknown) => {
      this.#log.warn({ err }, 'reading a block\'s state ahead failed; reading it when applying')
      return null
    })
  }

  /** Every write to the chain database: the state cache and the lowest side block follow what it committed. */
  async #write (ops: KvOp[], opts?: { sync?: boolean }): Promise<void> {
    await this.#db.write(ops, opts)
    this.#stateCache.committed(ops)
    if (this.#lowestSide === undefined) return
    for (const op of ops) if (op.type === 'put' && op.key.startsWith(SIDE_PREFIX)) this.#lowestSide = Math.min(this.#lowestSide, sideHeightOf(op.key))
  }

  /** The merkle leaves hashed on the verify pool; null when the pool fails (then hashed inline). */
  #leavesOnPool (txs: readonly Uint8Array[]): Promise<Uint8Array[] | null> {
    const verifier = this.#opts.signatureVerifier as Required<SignatureVerifier>
    return verifier.digestAll(txs).catch((err: unknown) => {
      this.#log.warn({ err }, 'hashing merkle leaves on the pool failed; hashing inline')
      return null
    })
  }

  /** Pairs the beacon rounds validation left owed and settles the attestation with the verdicts (throws its error). */
  async #settlePairings (owed: DeferredPairings): Promise<void> {
    settlePairings(owed.env, owed.pending, await this.#pairOnPool(owed.pending.map((p) => p.input)))
  }

  /** Beacon pairings on the verify pool (beside the ML-DSA checks); inline when the pool fails. */
  async #pairOnPool (inputs: BeaconPairingInput[]): Promise<boolean[]> {
    const verifier = this.#opts.signatureVerifier
    if (verifier?.verifyBeacons !== undefined) {
      try {
        return await verifier.verifyBeacons(inputs)
      } catch (err) {
        this.#log.warn({ err }, 'beacon verification on the pool failed; verifying inline')
      }
    }
    await this.#opts.cores.bls.ready()
    return verifyPairings(this.#opts.cores.bls, inputs)
  }

  setSyncing (syncing: boolean): void { this.#syncing = syncing }

  /**
   * Batch-verifies the beacon rounds of a run of blocks before they are processed one by one
   * (sync): runs of one beacon cost two pairings per batch instead of two per round. Only
   * successes are remembered; a bad round is found again, and named, by its block's validation.
   */
  async preverifyBeacons (blocks: readonly BeaconEvidenceView[]): Promise<void> {
    const wanted = beaconPairingsOf(this.params, blocks)
    if (wanted.length === 0) return
    const results = await this.#pairOnPool(wanted.map((w) => w.input))
    wanted.forEach((w, i) => { if (results[i] === true) verifiedBeacons.add(w.cacheKey) })
  }

  /**
   * A failure that is not a rule the block broke (a trap in the VM host, an I/O error, out of
   * memory) says nothing about the block: it is not marked invalid and nothing is written, so
   * it can be processed again later; the error reaches the caller as a plain Error, which p2p
   * never holds against the peer.
   */
  #notProcessed (block: Block, err: unknown): BlockNotProcessedError {
    const reason = err instanceof Error ? err.message : String(err)
    this.#log.error({ hash: block.hash.slice(0, 16), height: block.height, err }, `block not processed (not a consensus failure, will retry): ${reason}`)
    return new BlockNotProcessedError(`block ${block.height} could not be processed: ${reason}`, { cause: err })
  }

  /**
   * Refuses, before any validation or disk write, a side block that could never become the
   * main chain: one whose branch leaves the main chain deeper than a reorg may undo, and (from
   * a peer) one lighter than the tip unless a checked header chain that outweighs the tip
   * vouches for it (headers-first sync). Otherwise a child of genesis at the initial
   * difficulty would be stored for ever.
   */
  #admitSide (block: Block, parent: BlockMeta, origin: BlockOrigin, opts: ProcessOptions): void {
    const tip = this.#tip
    const lowest = tip.height - this.params.maxReorgDepth
    // Walk down the branch to the main chain; heights fall, so this stops within
    // parent.height - lowest steps.
    let cur: BlockMeta | undefined = parent
    while (cur !== undefined && cur.status !== 'main' && cur.height > lowest) cur = this.getBlockMeta(cur.previous_hash)
    if (cur === undefined || cur.status !== 'main' || cur.height < lowest) {
      throw new BlockError(BlockErrorCode.REORG_TOO_DEEP, `side block ${block.height} forks more than ${this.params.maxReorgDepth} blocks below the tip; not stored`)
    }
    if (origin !== 'peer') return
    const tipWork = BigInt(tip.work)
    // the target the block must carry (checked by validation next), not the one it claims
    const work = BigInt(parent.work) + blockWork(this.#expectedBits(parent))
    if (work >= tipWork || (opts.branchWork !== undefined && opts.branchWork > tipWork)) return
    throw new BlockError(BlockErrorCode.LIGHT_BRANCH, `side block ${block.height} is lighter than the tip and no heavier header chain backs it; not stored`)
  }

  /** Deletes side blocks so far below the tip that no reorg could reach them. */
  async #pruneStaleSide (): Promise<void> {
    // a side block at height h forks at h - 1 or lower: out of reach once h - 1 < tip - limit
    const keep = this.#opts.keepSideFrom?.()
    const below = Math.min(this.#tip.height, keep ?? Infinity) - this.params.maxReorgDepth + 1
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
      const meta = this.getBlockMeta(hash)
      if (meta === undefined || meta.status === 'main') continue // reconnected since: only the index entry goes
      const head = parseJson<StoredBlockHead>(await this.#db.get(chainKey.block(hash)))
      if (head !== undefined) for (const k of blockTxKeys(hash, head)) { ops.push({ type: 'del', key: k }); pruned.txs.push(k) }
      pruned.blocks.push(hash)
      ops.push({ type: 'del', key: chainKey.block(hash) }, { type: 'del', key: chainKey.header(hash) }, { type: 'del', key: chainKey.blockMeta(hash) }, { type: 'del', key: chainKey.undo(hash) })
    }
    if (ops.length > 0) {
      // a pruned block is gone for every reader, the caches included (after the write: a read
      // racing it could otherwise put the block back)
      const evict = (): void => { for (const h of pruned.blocks) this.#blocks.delete(h); for (const k of pruned.txs) this.#txs.delete(k) }
      evict()
      await this.#write(ops)
      evict()
      this.#log.debug({ below, deleted: ops.length }, 'pruned stale side blocks')
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
  async #pruneInvalid (): Promise<void> {
    if (this.#invalidStored === undefined) {
      let n = 0
      let lowest = Infinity
      for await (const key of this.#db.keys({ gte: INVALID_PREFIX, lt: `${INVALID_PREFIX}~` })) { if (n === 0) lowest = invalidHeightOf(key); n++ }
      this.#invalidStored = n
      this.#lowestInvalid = lowest
    }
    const below = this.#tip.height - this.params.maxReorgDepth + 1
    const max = this.#opts.maxInvalidStored ?? MAX_INVALID_STORED
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
      if (this.getBlockMeta(hash)?.status === 'invalid') {
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
    const evict = (): void => { for (const h of pruned) this.#blocks.delete(h); for (const k of txs) this.#txs.delete(k) }
    evict()
    await this.#write(ops)
    evict()
    this.#invalidStored -= pruned.length
    // a full batch may have left more to prune: look again next time
    this.#lowestInvalid = pruned.length === PRUNE_BATCH ? 0 : next
    this.#log.debug({ pruned: pruned.length, stored: this.#invalidStored }, 'pruned invalid blocks')
  }

  /** Announces a refused block (a reorg's invalid branch block is announced under its own hash). */
  #rejected (block: Block, err: BlockError, origin: BlockOrigin): void {
    this.#announcedRejections.add(err)
    // a block that failed the format check may be anything, and carry anything as its hash
    const claimed = block as Partial<Block> | null
    const hash = typeof claimed?.hash === 'string' ? claimed.hash.slice(0, 128) : ''
    this.#hooks.blockRejected.call({ hash, code: err.code, reason: err.message, origin })
    this.#log.warn({ hash: hash.slice(0, 16), height: claimed?.height, code: err.code, origin }, `block rejected: ${err.message}`)
  }

  /**
   * Starts the signature checks of the block processed next (once), for #processOne to take.
   * They run against the keys known now: a sender whose key the block being connected reveals
   * is left out (its transaction is verified inline, as one the pool did not check), and a
   * stored key is the one its address hashes from, so a verdict holds whenever it is used.
   */
  #verifyAhead (next: NonNullable<ProcessOptions['next']>): void {
    const { block, txForms } = next
    if (this.#ahead.has(block) || this.#opts.signatureVerifier === undefined) return
    if (!Array.isArray(block.transactions) || block.transactions.length < PARALLEL_VERIFY_MIN) return
    this.#ahead.set(block, this.#preverify(block, txForms))
  }

  /** the checks #verifyAhead started for this very block object, taken once */
  #takeAhead (block: Block): Preverify | undefined {
    const started = this.#ahead.get(block)
    this.#ahead.delete(block)
    return started
  }

  /**
   * Verifies the block's signatures on the verifier's threads, each against the key block
   * application will use (the state's, else the first one the sender carries in this block),
   * and returns transaction id -> signature for those that verified. Anything not returned is
   * verified inline by applyBlock, which also reports the precise error for a bad one.
   */
  #preverify (block: Block, encodedTxs?: readonly Uint8Array[]): Preverify {
    const submitted = new Map<string, string>()
    const verified = new Map<string, string>()
    const verifier = this.#opts.signatureVerifier
    if (verifier === undefined) return { submitted, verified: Promise.resolve(verified), ready: Promise.resolve() }
    const prepared = this.#checksOf(block, encodedTxs)
    // `submitted` is filled before the checks are sent (handlers run in the order they were added)
    const ready = prepared.then((p) => { for (const tx of p?.checked ?? []) submitted.set(tx.transaction_id, tx.signature) }, () => undefined)
    const done = prepared.then(async (p) => {
      if (p === null) return
      const results = await verifier.verifyAll(p.checks)
      results.forEach((ok, i) => { if (ok) verified.set(p.checked[i]!.transaction_id, p.checked[i]!.signature) })
    }).catch((err: unknown) => {
      this.#log.warn({ err }, 'parallel signature verification failed; verifying inline')
      verified.clear()
    })
    return { submitted, verified: done.then(() => verified), ready }
  }

  /**
   * The block's signature checks for the pool (null: too few to be worth it), each with the key
   * apply will use; the senders' stored keys come from the state cache (senders seen lately),
   * the rest from one multi-get, so the checks leave at once, without waiting for the read ahead.
   */
  async #checksOf (block: Block, encodedTxs?: readonly Uint8Array[]): Promise<{ checks: SignatureCheck[]; checked: Transaction[] } | null> {
    const isVerified = this.#opts.isVerified
    // each with its binary form from validation, whose signature bytes are already decoded
    const txs = block.transactions.flatMap((tx, i) => tx.signature !== '' && isVerified?.(tx) !== true && typeof tx.sender === 'string' ? [{ tx, encoded: encodedTxs?.[i] }] : [])
    if (txs.length < PARALLEL_VERIFY_MIN) return null
    const { found, missing } = this.#stateCache.split([...new Set(txs.map(({ tx }) => stateKey.publicKey(tx.sender)))])
    const state = new StateOverlay(this.#db, found)
    state.prefetch(missing)
    const keys = new Map<string, Uint8Array | null>()
    const checks: SignatureCheck[] = []
    const checked: Transaction[] = []
    for (const { tx, encoded } of txs) {
      // The signature goes as the bytes its binary form holds, else as its hex text, decoded by
      // the pool as it packs the check. It is not checked for lower-case hex here: apply refuses
      // a transaction whose signature is not (checkTxFormat) before it asks whether it verified.
      const message = hexBytes(tx.transaction_id)
      if (typeof tx.signature !== 'string' || message === undefined) continue
      // the key apply will use: the state's, else the one this sender revealed earlier in the block
      let known = keys.get(tx.sender)
      if (known === undefined) known = state.getPublicKey(tx.sender) ?? null
      let key: Uint8Array
      try {
        key = senderPublicKey(tx, { publicKey: known }, this.#opts.cores.sha3)
      } catch {
        keys.set(tx.sender, known)
        continue // no usable key: apply reports why
      }
      keys.set(tx.sender, key)
      checks.push({ publicKey: key, message, signature: (encoded !== undefined ? memberHexBytes(encoded, 1, 'signature') : undefined) ?? tx.signature })
      checked.push(tx)
    }
    return checks.length < PARALLEL_VERIFY_MIN ? null : { checks, checked }
  }

  /**
   * Applies `block` on top of the current tip (its parent) in one atomic batch.
   * `started`: what #processOne began for a block on the tip: its signature checks; the
   * transactions' binary forms and header as validation made them (else made here); validation's
   * checks left to the pool (merkle root, beacon pairings), awaited before anything is written,
   * so a block whose body is not the one its header commits to is refused without being marked
   * invalid; its state read ahead.
   *
   * While the pool verifies the signatures, this thread applies the block as if every check it
   * was sent will pass, and prepares the batch. Once the verdicts are in, that work is kept only
   * if they all passed, in which case it is exactly what applying with the verdicts in hand
   * gives; otherwise the block is applied again from a fresh overlay with the verdicts (the
   * failed ones verified inline, which names the error), so the outcome never depends on the
   * guess.
   */
  async #connect (block: Block, work: bigint, origin: BlockOrigin, reorg: boolean, started: Started = {}): Promise<AppliedBlock> {
    const { encoded, deferredChecks } = started
    const connectStart = performance.now()
    const pre = started.preverified ?? this.#preverify(block)
    const meta = metaOf(block, work, 'main')
    // nothing is written between the read ahead and this apply (blocks connect one at a time)
    const reads = started.reads === undefined ? null : await started.reads
    const attempt = (vouched: Map<string, string>): Attempt => {
      const isVerified = (tx: Transaction): boolean => vouched.get(tx.transaction_id) === tx.signature || this.#opts.isVerified?.(tx) === true
      const o = new StateOverlay(this.#db, reads ?? undefined)
      try {
        const applied = applyBlock(o, block, { params: this.params, executor: this.#opts.executor, isVerified, cores: this.#opts.cores, encoded: encoded?.txs, stateReadAhead: reads !== null })
        const { ops, undo } = o.commitOps()
        ops.push(...this.#linkOps(block, meta, undo, encoded))
        return { applied, ops }
      } catch (err) {
        return { err }
      }
    }
    await pre.ready
    let result = attempt(pre.submitted)
    // nothing left for this thread until the verdicts are in: verify beside the pool's threads
    this.#opts.signatureVerifier?.assist?.()
    const verified = await pre.verified
    // the threads are free: they check the next block's signatures while this one is written
    if (started.next !== undefined) this.#verifyAhead(started.next)
    await deferredChecks?.()
    if (verified.size !== pre.submitted.size) result = attempt(verified)
    if ('err' in result) {
      const { err } = result
      if (!(err instanceof BlockError)) throw this.#notProcessed(block, err)
      this.#rejected(block, err, origin)
      await this.#write([
        ...blockBodyOps(block, encoded?.txs),
        { type: 'put', key: chainKey.blockMeta(block.hash), value: jsonValue(metaOf(block, work, 'invalid')) },
        { type: 'put', key: chainKey.invalidBlock(block.height, block.hash), value: new Uint8Array(0) }
      ])
      if (this.#invalidStored !== undefined) this.#invalidStored++
      if (this.#lowestInvalid !== undefined) this.#lowestInvalid = Math.min(this.#lowestInvalid, block.height)
      await this.#pruneInvalid()
      throw err
    }
    await this.#write(result.ops)
    this.#tip = meta
    this.#announce(block, result.applied, reorg, (performance.now() - connectStart) / 1000)
    return result.applied
  }

  #announce (block: Block, applied: AppliedBlock, reorg: boolean, connectSeconds: number): void {
    const ref = { height: block.height, hash: block.hash }
    const receipts = applied.receipts.map((r) => ({ tx_id: r.tx_id, receipt: r.receipt }))
    this.#hooks.blockConnected.call({ block, receipts, reorg, syncing: this.#syncing, connectSeconds })
    block.transactions.forEach((tx, index) => {
      this.#hooks.txConfirmed.call({ tx, block: ref, index })
      if (typeof tx.data?.memo === 'string') this.#hooks.messageSeen.call({ tx, status: 'confirmed', block: ref })
    })
    for (const r of applied.receipts) this.#hooks.receiptWritten.call({ tx_id: r.tx_id, receipt: r.receipt, block: ref })
  }

  /** Undoes the tip block in one atomic batch; returns it. */
  async #disconnectTip (): Promise<Block> {
    const tip = this.#tip
    if (tip.height === 0) throw new Error('cannot disconnect genesis')
    const block = await this.getBlockByHash(tip.hash)
    const undo = parseJson<UndoRecord>(await this.#db.get(chainKey.undo(tip.hash)))
    const parent = this.getBlockMeta(tip.previous_hash)
    if (block === undefined || undo === undefined || parent === undefined) throw new Error(`chain database corrupt: cannot undo block ${tip.hash}`)
    const ops = undoOps(undo)
    ops.push(
      { type: 'del', key: chainKey.undo(tip.hash) },
      { type: 'put', key: chainKey.blockMeta(tip.hash), value: jsonValue({ ...tip, status: 'side' }) },
      { type: 'put', key: chainKey.sideBlock(tip.height, tip.hash), value: new Uint8Array(0) },
      { type: 'del', key: chainKey.mainHash(tip.height) },
      { type: 'put', key: chainKey.tip(), value: jsonValue({ hash: parent.hash, height: parent.height }) }
    )
    await this.#write(ops)
    this.#tip = parent
    this.#hooks.blockDisconnected.call(block)
    return block
  }

  async #reorgTo (newTip: BlockMeta, origin: BlockOrigin): Promise<void> {
    const branch: BlockMeta[] = []
    let cur: BlockMeta | undefined = newTip
    while (cur !== undefined && cur.status !== 'main') {
      branch.unshift(cur)
      cur = this.getBlockMeta(cur.previous_hash)
    }
    if (cur === undefined) throw new BlockError(BlockErrorCode.PARENT_UNKNOWN, 'branch does not reach the main chain')
    const fork = cur
    const depth = this.#tip.height - fork.height
    if (depth > this.params.maxReorgDepth) {
      throw new BlockError(BlockErrorCode.REORG_TOO_DEEP, `reorg of ${depth} blocks refused (limit ${this.params.maxReorgDepth})`)
    }
    const from = { height: this.#tip.height, hash: this.#tip.hash }
    const oldBranch: Block[] = []
    while (this.#tip.hash !== fork.hash) oldBranch.unshift(await this.#disconnectTip())

    let connected = 0
    try {
      for (const meta of branch) {
        const block = await this.getBlockByHash(meta.hash)
        if (block === undefined) throw new Error(`side block ${meta.hash} missing`)
        await this.#connect(block, BigInt(meta.work), origin, true)
        connected++
      }
    } catch (err) {
      // The heavier branch turned out invalid: return to the branch we left.
      this.#log.warn({ err: (err as Error).message }, 'reorg aborted, restoring previous branch')
      while (this.#tip.hash !== fork.hash) await this.#disconnectTip()
      for (const block of oldBranch) await this.#connect(block, BigInt(this.getBlockMeta(block.hash)?.work ?? '0'), 'peer', true)
      this.#hooks.tipChanged.call({ height: this.#tip.height, hash: this.#tip.hash })
      throw err
    }
    this.#log.info({ depth, fork: fork.height, newHeight: this.#tip.height }, 'chain reorganized')
    this.#hooks.reorg.call({ from, to: { height: this.#tip.height, hash: this.#tip.hash }, forkPoint: { height: fork.height, hash: fork.hash }, disconnected: oldBranch.length, connected })
    this.#hooks.tipChanged.call({ height: this.#tip.height, hash: this.#tip.hash })
  }
}
