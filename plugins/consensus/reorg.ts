// Where the tip moves: connecting a block onto the tip (one atomic batch: state, indexes,
// receipts, undo record, main-chain index and tip), disconnecting the tip, and reorganizing
// onto a heavier branch (fork choice decides when; chain.ts), going back to the branch left
// when the heavier one turns out invalid.
import type { Logger } from 'pino'
import type { KvOp, KvStore } from '../../core/kernel/kv.ts'
import { parseJson, jsonValue } from '../../core/kernel/kv.ts'
import type { Hooks } from '../../core/kernel/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import { StateOverlay, undoOps } from '../../core/chain/state.ts'
import type { UndoRecord } from '../../core/chain/state.ts'
import { chainKey } from '../../core/chain/keys.ts'
import type { BlockMeta } from '../../core/chain/keys.ts'
import { blockBodyOps } from '../../core/chain/block-body.ts'
import { applyBlock } from '../../core/chain/apply.ts'
import type { AppliedBlock } from '../../core/chain/apply.ts'
import { BlockError, BlockErrorCode } from '../../core/chain/errors.ts'
import type { BlockOrigin } from '../../core/chain/chain-service.ts'
import { linkOps, metaOf } from './block-records.ts'
import type { ChainQueries } from './chain-queries.ts'
import type { SideBranches } from './side-branches.ts'
import type { Started, VerifyPipeline } from './verify-pipeline.ts'
import type { Rejections } from './rejections.ts'
import type { ChainOptions } from './chain.ts'
import { notProcessed } from './rejections.ts'

/** one application of a block: its batch, or what it threw */
type Attempt = { applied: AppliedBlock; ops: KvOp[] } | { err: unknown }

/** the chain's own options it shares, and the parts of the chain service it moves the tip with */
export type TipMovesOptions = Pick<ChainOptions, 'db' | 'params' | 'hooks' | 'logger' | 'executor' | 'cores' | 'isVerified' | 'signatureVerifier'> & {
  queries: ChainQueries
  sides: SideBranches
  pipeline: VerifyPipeline
  rejections: Rejections
  /** the chain's one write path */
  write: (ops: KvOp[]) => Promise<void>
  /** blocks are connected as part of a bulk download (ChainService.setSyncing) */
  syncing: () => boolean
}

export class TipMoves {
  readonly params: NetworkParams
  readonly #opts: TipMovesOptions
  readonly #db: KvStore
  readonly #hooks: Hooks
  readonly #log: Logger
  #tip!: BlockMeta

  constructor (opts: TipMovesOptions) {
    this.#opts = opts
    this.params = opts.params
    this.#db = opts.db
    this.#hooks = opts.hooks
    this.#log = opts.logger
  }

  tip (): BlockMeta { return this.#tip }
  /** sets the tip loaded or written at start (Chain.init) */
  setTip (meta: BlockMeta): void { this.#tip = meta }

  /**
   * Applies `block` on top of the current tip (its parent) in one atomic batch.
   * `started`: what VerifyPipeline.validate began for a block on the tip: its signature checks; the
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
  async connect (block: Block, work: bigint, origin: BlockOrigin, reorg: boolean, started: Started = {}): Promise<AppliedBlock> {
    const { encoded, deferredChecks } = started
    const connectStart = performance.now()
    const pre = started.preverified ?? this.#opts.pipeline.preverify(block)
    const meta = metaOf(block, work, 'main')
    // nothing is written between the read ahead and this apply (blocks connect one at a time)
    const reads = started.reads === undefined ? null : await started.reads
    const attempt = (vouched: Map<string, string>): Attempt => {
      const isVerified = (tx: Transaction): boolean => vouched.get(tx.transaction_id) === tx.signature || this.#opts.isVerified?.(tx) === true
      const o = new StateOverlay(this.#db, reads ?? undefined)
      try {
        const applied = applyBlock(o, block, { params: this.params, executor: this.#opts.executor, isVerified, cores: this.#opts.cores, encoded: encoded?.txs, stateReadAhead: reads !== null })
        const { ops, undo } = o.commitOps()
        ops.push(...linkOps(block, meta, undo, this.#opts.cores.sha3, encoded))
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
    if (started.next !== undefined) this.#opts.pipeline.verifyAhead(started.next)
    await deferredChecks?.()
    if (verified.size !== pre.submitted.size) result = attempt(verified)
    if ('err' in result) {
      const { err } = result
      if (!(err instanceof BlockError)) throw notProcessed(this.#log, block, err)
      this.#opts.rejections.announce(block, err, origin)
      await this.#opts.write([
        ...blockBodyOps(block, encoded?.txs),
        { type: 'put', key: chainKey.blockMeta(block.hash), value: jsonValue(metaOf(block, work, 'invalid')) },
        { type: 'put', key: chainKey.invalidBlock(block.height, block.hash), value: new Uint8Array(0) }
      ])
      this.#opts.sides.noteInvalidStored(block.height)
      await this.#opts.sides.pruneInvalid()
      throw err
    }
    await this.#opts.write(result.ops)
    this.#tip = meta
    this.#announce(block, result.applied, reorg, (performance.now() - connectStart) / 1000)
    return result.applied
  }

  #announce (block: Block, applied: AppliedBlock, reorg: boolean, connectSeconds: number): void {
    const ref = { height: block.height, hash: block.hash }
    const receipts = applied.receipts.map((r) => ({ tx_id: r.tx_id, receipt: r.receipt }))
    this.#hooks.blockConnected.call({ block, receipts, reorg, syncing: this.#opts.syncing(), connectSeconds })
    block.transactions.forEach((tx, index) => {
      this.#hooks.txConfirmed.call({ tx, block: ref, index })
      if (typeof tx.data?.memo === 'string') this.#hooks.messageSeen.call({ tx, status: 'confirmed', block: ref })
    })
    for (const r of applied.receipts) this.#hooks.receiptWritten.call({ tx_id: r.tx_id, receipt: r.receipt, block: ref })
  }

  /** Undoes the tip block in one atomic batch; returns it. */
  async disconnectTip (): Promise<Block> {
    const tip = this.#tip
    if (tip.height === 0) throw new Error('cannot disconnect genesis')
    const block = await this.#opts.queries.getBlockByHash(tip.hash)
    const undo = parseJson<UndoRecord>(await this.#db.get(chainKey.undo(tip.hash)))
    const parent = this.#opts.queries.getBlockMeta(tip.previous_hash)
    if (block === undefined || undo === undefined || parent === undefined) throw new Error(`chain database corrupt: cannot undo block ${tip.hash}`)
    const ops = undoOps(undo)
    ops.push(
      { type: 'del', key: chainKey.undo(tip.hash) },
      { type: 'put', key: chainKey.blockMeta(tip.hash), value: jsonValue({ ...tip, status: 'side' }) },
      { type: 'put', key: chainKey.sideBlock(tip.height, tip.hash), value: new Uint8Array(0) },
      { type: 'del', key: chainKey.mainHash(tip.height) },
      { type: 'put', key: chainKey.tip(), value: jsonValue({ hash: parent.hash, height: parent.height }) }
    )
    await this.#opts.write(ops)
    this.#tip = parent
    this.#hooks.blockDisconnected.call(block)
    return block
  }

  async reorgTo (newTip: BlockMeta, origin: BlockOrigin): Promise<void> {
    const branch: BlockMeta[] = []
    let cur: BlockMeta | undefined = newTip
    while (cur !== undefined && cur.status !== 'main') {
      branch.unshift(cur)
      cur = this.#opts.queries.getBlockMeta(cur.previous_hash)
    }
    if (cur === undefined) throw new BlockError(BlockErrorCode.PARENT_UNKNOWN, 'branch does not reach the main chain')
    const fork = cur
    const depth = this.#tip.height - fork.height
    if (depth > this.params.maxReorgDepth) {
      throw new BlockError(BlockErrorCode.REORG_TOO_DEEP, `reorg of ${depth} blocks refused (limit ${this.params.maxReorgDepth})`)
    }
    const from = { height: this.#tip.height, hash: this.#tip.hash }
    const oldBranch: Block[] = []
    while (this.#tip.hash !== fork.hash) oldBranch.unshift(await this.disconnectTip())

    let connected = 0
    try {
      for (const meta of branch) {
        const block = await this.#opts.queries.getBlockByHash(meta.hash)
        if (block === undefined) throw new Error(`side block ${meta.hash} missing`)
        await this.connect(block, BigInt(meta.work), origin, true)
        connected++
      }
    } catch (err) {
      // The heavier branch turned out invalid: return to the branch we left.
      this.#log.warn({ err: (err as Error).message }, 'reorg aborted, restoring previous branch')
      while (this.#tip.hash !== fork.hash) await this.disconnectTip()
      for (const block of oldBranch) await this.connect(block, BigInt(this.#opts.queries.getBlockMeta(block.hash)?.work ?? '0'), 'peer', true)
      this.#hooks.tipChanged.call({ height: this.#tip.height, hash: this.#tip.hash })
      throw err
    }
    this.#log.info({ depth, fork: fork.height, newHeight: this.#tip.height }, 'chain reorganized')
    this.#hooks.reorg.call({ from, to: { height: this.#tip.height, hash: this.#tip.hash }, forkPoint: { height: fork.height, hash: fork.hash }, disconnected: oldBranch.length, connected })
    this.#hooks.tipChanged.call({ height: this.#tip.height, hash: this.#tip.hash })
  }
}
