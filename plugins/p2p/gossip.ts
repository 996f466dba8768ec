// Gossip of new blocks over gossipsub (docs/p2p.md "Block relay"). Blocks are announced
// compact (compact.ts) on the cmpctblock topic and relayed once their work is proven: the
// topic validator checks the header's proof of work before anything else, then what needs no
// state (linkage to a known parent, time, the scheduled target on the tip, the envelope and its entropy
// evidence), rebuilds the block from the mempool and recent transactions (asking the peer it
// came from for the rest, or for the whole block), checks the merkle root, and accepts: gossipsub
// relays the announcement while the chain applies the transactions. A body that then fails is
// held against the block's originator (the signed message's author), not the relays, which
// could not have checked it. Whole blocks and transactions published on the older topics
// (blocks/2, txs/2) are still checked (work first) and relayed, but this node publishes there
// no more: transactions go by announcement (tx-relay.ts).
import type { Logger } from 'pino'
import type { GossipSub, Message } from '@libp2p/gossipsub'
import { TopicValidatorResult } from '@libp2p/gossipsub'
import type { PeerId } from '@libp2p/interface'
import { performance } from 'node:perf_hooks'
import type { BlockRelayedEvent } from '../../core/kernel/hooks.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import { checkBlockFormat } from '../../core/chain/validate.ts'
import { checkAttestation } from '../../core/chain/attestation.ts'
import { BlockError, BlockErrorCode, refusalClassOf, TxError, TxErrorCode } from '../../core/chain/errors.ts'
import type { TxRefusalClass } from '../../core/chain/errors.ts'
import { encodeHeader } from '../../core/chain/header.ts'
import { leavesOfEncoded, merkleRootOfLeaves } from '../../core/chain/merkle.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'
import type { MldsaCore } from '../../core/crypto/mldsa.ts'
import { decodeBlockFrame, decodeTxFrame, WireError } from './protocol.ts'
import type { BlockTxnRequest, Topics } from './protocol.ts'
import { encodeBlock, encodeTx, txFormsOfDecodedBlock } from '../../core/chain/tx-codec.ts'
import { PENALTY } from './misbehaviour.ts'
import { assemble, decodeCompact, encodeCompact, envelopeMatches, matchesShortId, reconstruct } from './compact.ts'
import type { CompactBlock } from './compact.ts'
import { blockWorkFault, workFault } from './work-first.ts'
import { LruMap, LruSet } from './peer-budget.ts'
import type { RecentTxs } from './tx-relay.ts'

export interface GossipClient {
  blocktxn(peerId: string, req: BlockTxnRequest): Promise<Uint8Array[]>
  blocks(peerId: string, hashes: string[]): Promise<Uint8Array[]>
}

/** What a peer's refused message is reported as (the caller rate-limits reports per peer). */
export interface Refusal { hash: string; code: string; reason: string; block: boolean }

export interface GossipOptions {
  pubsub: GossipSub
  topics: Topics
  params: NetworkParams
  chain: ChainService
  mempool: MempoolService | undefined
  cores: { pow: PowCore; sha3: Sha3Core; mldsa: MldsaCore }
  client: GossipClient
  recent: RecentTxs
  logger: Logger
  penalize(peerId: string, points: number, reason: string): void
  /** what a refused transaction of class `cls` costs the peer now (TxRefusalScore) */
  refusalPoints(peerId: string, cls: TxRefusalClass): number
  isBanned(peerId: string): boolean
  /** a peer's block or transaction was refused: log it and raise the node event, rate-limited per peer */
  report(peerId: string, refusal: Refusal): void
  /** a relayed block was stored: the peer has at least this chain */
  onPeerBlock(peerId: string, block: Block, work: bigint): void
  /** a relayed transaction was admitted (the peer is useful: eviction protects it) */
  onPeerTx?(peerId: string): void
  /** a relayed block with valid work does not connect to anything we have: fetch its ancestors */
  onOrphan(peerId: string): void
  /** a block announcement arrived from a peer (first-seen timing) */
  onBlockReceived?(hash: string, peerId: string): void
  /** a peer's compact block was accepted for relay (the time it spent here) */
  onBlockRelayed?(relayed: BlockRelayedEvent): void
}

// Side blocks that could never win, which the chain refuses to store: cheap to make (a child
// of genesis costs a few hundred hashes), so they cost the sender points, but they break no
// rule and an honest node on the far side of a partition may relay one: dropped, not rejected.
const USELESS_BLOCK_PENALTY: Partial<Record<string, number>> = {
  [BlockErrorCode.REORG_TOO_DEEP]: PENALTY.staleBlock,
  [BlockErrorCode.LIGHT_BRANCH]: PENALTY.lightBlock,
  [BlockErrorCode.BAD_TIMESTAMP]: PENALTY.uselessBlock
}

/** Remembers recent block hashes that came from peers (a bounded insertion-ordered set). */
export class RecentSet {
  readonly #set: LruSet
  constructor (max: number) { this.#set = new LruSet(max) }
  add (v: string): void { this.#set.add(v) }
  has (v: string): boolean { return this.#set.has(v) }
}

/** How the compact blocks this node received were rebuilt (issue 28's "no extra round trip" figure). */
export interface CompactStats {
  /** from the mempool and recent transactions alone */
  rebuilt: number
  /** after asking the announcer for some transactions (blocktxn) */
  withRequest: number
  /** from the whole block (collision, failed request, wrong merkle root) */
  wholeBlock: number
}

/** A block rebuilt (or produced) here, with its transactions' binary forms: what blocktxn serves before the chain stored it. */
interface HeldBlock { block: Block; forms: Buffer[]; rebuilt: BlockRelayedEvent['rebuilt'] }

/** How one compact announcement turned out. */
type Rebuilt = HeldBlock | { fault: number; reason: string; code: string } | null
/** An announcement relayed while its missing transactions are being fetched: how that ends. */
interface Filling { filling: Promise<Rebuilt> }

export class Gossip {
  readonly #o: GossipOptions
  readonly fromPeers = new RecentSet(4096)
  /** blocks announced or rebuilt lately (a few: they are relayed within seconds) */
  readonly #held = new LruMap<HeldBlock>(16)
  /** per peer: block hashes it announced (an honest peer announces each once) */
  readonly #announcedBy = new LruMap<LruSet>(1024)
  /** compact blocks being rebuilt or applied, settled when the chain is done with them: a child
   *  announced meanwhile (the next block, relayed fast) waits for its parent instead of being
   *  taken for an orphan */
  readonly #inProgress = new Map<string, Promise<void>>()
  /** blocks relayed before all their transactions were here: their rebuild, which a peer's
   *  blocktxn or blocks request for them waits on (bounded by our own requests' timeouts) */
  readonly #filling = new Map<string, Promise<Rebuilt>>()
  #running = false
  readonly stats: CompactStats = { rebuilt: 0, withRequest: 0, wholeBlock: 0 }

  constructor (o: GossipOptions) { this.#o = o }

  start (): void {
    const { pubsub, topics } = this.#o
    pubsub.topicValidators.set(topics.compact, async (peer, msg) => await this.#validateCompact(peer, msg))
    pubsub.topicValidators.set(topics.blocks, async (peer, msg) => await this.#validateBlock(peer, msg))
    pubsub.subscribe(topics.compact)
    pubsub.subscribe(topics.blocks)
    if (this.#o.mempool !== undefined) {
      pubsub.topicValidators.set(topics.txs, (peer, msg) => this.#validateTx(peer, msg))
      pubsub.subscribe(topics.txs)
    }
    this.#running = true
  }

  stop (): void { this.#running = false }

  /** A block this node produced or was handed locally: announced compact, once. */
  announceBlock (block: Block): void {
    if (!this.#running || this.fromPeers.has(block.hash) || this.#held.has(block.hash)) return
    const forms = block.transactions.map(encodeTx)
    this.#held.set(block.hash, { block, forms, rebuilt: 'held' })
    this.#publish(this.#o.topics.compact, encodeCompact(block, encodeHeader(block, this.#o.cores.sha3)))
  }

  /** A block announced or rebuilt here lately, once rebuilt (before the chain stored it). */
  async #heldOrFilling (hash: string): Promise<HeldBlock | undefined> {
    const held = this.#held.get(hash)
    if (held !== undefined) return held
    const filled = await this.#filling.get(hash)
    return filled !== undefined && filled !== null && 'block' in filled ? filled : undefined
  }

  /** The binary form of a block announced or rebuilt here lately (before the chain stored it). */
  async heldBlockBinary (hash: string): Promise<Uint8Array | undefined> {
    const held = await this.#heldOrFilling(hash)
    return held === undefined ? undefined : encodeBlock(held.block)
  }

  /** The transactions at `indexes` of a block announced or held here (none when unknown). */
  async blockTxn (req: BlockTxnRequest): Promise<Uint8Array[]> {
    let forms = (await this.#heldOrFilling(req.hash))?.forms
    if (forms === undefined) {
      const bytes = await this.#o.chain.getBlockBinary(req.hash)
      forms = bytes === undefined ? undefined : txFormsOfDecodedBlock(bytes)
    }
    if (forms === undefined) return []
    const last = req.indexes[req.indexes.length - 1] as number
    if (last >= forms.length) throw new WireError(`blocktxn index ${last} beyond the block's ${forms.length} transactions`)
    return req.indexes.map((i) => forms[i] as Buffer)
  }

  #publish (topic: string, bytes: Uint8Array): void {
    this.#o.pubsub.publish(topic, bytes).catch((err: unknown) => {
      this.#o.logger.debug({ topic, err: (err as Error).message }, 'gossip publish failed')
    })
  }

  #reject (peerId: string, points: number, refusal: Refusal): TopicValidatorResult {
    this.#o.penalize(peerId, points, refusal.reason)
    this.#o.report(peerId, refusal)
    return TopicValidatorResult.Reject
  }

  #noWork (peerId: string, hash: string, reason: string): TopicValidatorResult {
    return this.#reject(peerId, PENALTY.invalidBlock, { hash, code: BlockErrorCode.BAD_POW, reason: `${BlockErrorCode.BAD_POW} block without proof of work: ${reason}`, block: true })
  }

  /** true when the peer announced this block before (and pays for it) */
  #repeated (peerId: string, hash: string): boolean {
    let seen = this.#announcedBy.get(peerId)
    if (seen === undefined) { seen = new LruSet(256); this.#announcedBy.set(peerId, seen) }
    if (seen.add(hash)) return false
    this.#o.penalize(peerId, PENALTY.duplicateBlock, `announced block ${hash.slice(0, 16)}… again`)
    return true
  }

  /** A peer's block with valid work whose parent we lack: it costs a little; the status request back is the caller's to rate-limit. */
  #orphan (peerId: string, hash: string, height: number): TopicValidatorResult {
    this.#o.penalize(peerId, PENALTY.orphanBlock, `block ${height} with an unknown parent`)
    this.#o.onOrphan(peerId)
    this.#o.logger.debug({ peer: peerId, hash: hash.slice(0, 16), height }, 'orphan block from peer; asking for its status')
    return TopicValidatorResult.Ignore
  }

  // ---- compact blocks

  async #validateCompact (peer: PeerId, msg: Message): Promise<TopicValidatorResult> {
    const arrived = performance.now()
    const peerId = peer.toString()
    const o = this.#o
    if (o.isBanned(peerId)) return TopicValidatorResult.Reject
    let c: CompactBlock
    try {
      c = decodeCompact(msg.data, o.cores.pow, o.params.maxTxPerBlock)
    } catch (err) {
      if (!(err instanceof WireError)) throw err
      return this.#reject(peerId, PENALTY.malformed, { hash: '', code: BlockErrorCode.BAD_FORMAT, reason: `compact block: ${err.message}`, block: true })
    }
    const h = c.header
    // work first: one hash of 272 bytes decides whether anything else is looked at
    const fault = workFault(o.params, h)
    if (fault !== null) return this.#noWork(peerId, h.hash, fault)
    o.onBlockReceived?.(h.hash, peerId)
    if (this.#repeated(peerId, h.hash)) return TopicValidatorResult.Ignore
    if (o.chain.getBlockMeta(h.hash) !== undefined || this.fromPeers.has(h.hash) || this.#inProgress.has(h.hash)) return TopicValidatorResult.Ignore
    const { promise, resolve } = Promise.withResolvers<void>()
    this.#inProgress.set(h.hash, promise)
    const settle = (): void => { this.#inProgress.delete(h.hash); resolve() }
    let built: Rebuilt | Filling
    try {
      built = await this.#rebuild(peerId, c)
    } catch (err) {
      settle()
      throw err
    }
    const origin = msg.type === 'signed' ? msg.from.toString() : peerId
    if (built !== null && 'filling' in built) {
      // Relayed now, on its header, work, linkage, envelope and entropy evidence (issue 28's
      // "relay once the work is proven"): the transactions we lack come from the announcer
      // meanwhile, and a peer asking us for them waits for that. Downstream nodes that hold
      // them already need not wait for our round trip.
      this.fromPeers.add(h.hash)
      const filling = built.filling
      this.#filling.set(h.hash, filling)
      filling.then(async (r) => {
        if (r === null) return
        if ('fault' in r) { this.#penalizeFill(peerId, h.hash, r); return }
        this.#held.set(h.hash, r)
        await this.#apply(r, peerId, origin)
      }).catch((err: unknown) => {
        o.logger.error({ err, hash: h.hash }, 'rebuilding a relayed block failed')
      }).finally(() => {
        this.#filling.delete(h.hash)
        settle()
      })
      o.onBlockRelayed?.({ hash: h.hash, height: h.height, peerId, relayMs: performance.now() - arrived, rebuilt: 'request' })
      return TopicValidatorResult.Accept
    }
    if (built === null || 'fault' in built) settle()
    if (built === null) return TopicValidatorResult.Ignore
    if ('fault' in built) {
      if (built.fault === 0) return TopicValidatorResult.Ignore
      if (built.fault < 0) {
        o.penalize(peerId, -built.fault, built.reason)
        o.report(peerId, { hash: h.hash, code: built.code, reason: built.reason, block: true })
        return TopicValidatorResult.Ignore
      }
      return this.#reject(peerId, built.fault, { hash: h.hash, code: built.code, reason: built.reason, block: true })
    }
    // the work and everything that needs no state checked out: relay now, apply meanwhile
    this.fromPeers.add(h.hash)
    this.#held.set(h.hash, built)
    // Applying starts on the next turn of the event loop: the chain's first synchronous steps
    // (format, attestation, encoding) would otherwise run before gossipsub forwards the
    // announcement, adding their milliseconds to every hop.
    setImmediate(() => {
      this.#apply(built, peerId, origin).catch((err: unknown) => {
        o.logger.error({ err, hash: h.hash }, 'applying a relayed block failed')
      }).finally(settle)
    })
    o.onBlockRelayed?.({ hash: h.hash, height: h.height, peerId, relayMs: performance.now() - arrived, rebuilt: built.rebuilt })
    return TopicValidatorResult.Accept
  }

  /**
   * Checks what needs no state and rebuilds the block. `fault` > 0: reject (the peer relayed
   * what every relay checks); < 0: drop and charge that many points; 0 or null: drop quietly.
   */
  async #rebuild (peerId: string, c: CompactBlock): Promise<Rebuilt | Filling> {
    const o = this.#o
    const h = c.header
    if (!envelopeMatches(c)) return { fault: PENALTY.malformed, code: BlockErrorCode.BAD_HASH, reason: 'compact block envelope is not the one its header commits to' }
    await this.#inProgress.get(h.previous_hash)
    const parent = o.chain.getBlockMeta(h.previous_hash)
    if (parent === undefined) { this.#orphan(peerId, h.hash, h.height); return null }
    if (parent.status === 'invalid') return { fault: PENALTY.invalidBlock, code: BlockErrorCode.BAD_TX, reason: 'block extends an invalid block' }
    if (h.height !== parent.height + 1) return { fault: PENALTY.invalidBlock, code: BlockErrorCode.BAD_HEIGHT, reason: `height ${h.height} after parent ${parent.height}` }
    if (h.timestamp <= parent.timestamp || h.timestamp > Date.now() / 1000 + o.params.maxFutureDrift) {
      return { fault: -PENALTY.uselessBlock, code: BlockErrorCode.BAD_TIMESTAMP, reason: `block ${h.height} timestamp is not after its parent's or too far ahead` }
    }
    if (parent.hash === o.chain.tip().hash && h.bits !== o.chain.nextBits()) {
      return { fault: PENALTY.invalidBlock, code: BlockErrorCode.BAD_DIFFICULTY, reason: `target bits 0x${h.bits.toString(16)}, the schedule demands 0x${o.chain.nextBits().toString(16)}` }
    }
    const shell = assemble(c, [c.coinbase as Transaction])
    try {
      checkBlockFormat(shell)
      // the entropy evidence, but for its beacon pairings (the chain's verify pool settles those)
      checkAttestation(o.params, shell, { cores: o.cores })
    } catch (err) {
      if (!(err instanceof BlockError)) throw err
      return { fault: err.code === BlockErrorCode.BAD_FORMAT ? PENALTY.malformed : PENALTY.invalidBlock, code: err.code, reason: `block ${h.height}: ${err.message}` }
    }
    return await this.#fill(peerId, c)
  }

  /** The block's transactions from what we hold, else the fetch of the rest from the peer (the
   *  whole block when that fails) to finish after the relay; the whole block first on a short-id collision. */
  async #fill (peerId: string, c: CompactBlock): Promise<Rebuilt | Filling> {
    const o = this.#o
    const candidates = (function * (mempool: MempoolService | undefined, recent: RecentTxs) {
      if (mempool !== undefined) yield * mempool.list()
      yield * recent.values()
    })(o.mempool, o.recent)
    const r = reconstruct(c, candidates, o.cores.sha3)
    if (!r.ok) return await this.#wholeBlock(peerId, c, r.reason)
    if (r.missing.length > 0) return { filling: this.#complete(peerId, c, r.txs, r.missing) }
    return await this.#complete(peerId, c, r.txs, [])
  }

  /** Asks the peer for the `missing` transactions (if any), checks the merkle root, and falls back to the whole block. */
  async #complete (peerId: string, c: CompactBlock, found: Array<Transaction | undefined>, missing: number[]): Promise<Rebuilt> {
    const o = this.#o
    if (missing.length > 0) {
      let frames: Uint8Array[]
      try {
        frames = await o.client.blocktxn(peerId, { hash: c.header.hash, indexes: missing })
      } catch (err) {
        return await this.#wholeBlock(peerId, c, `blocktxn failed: ${(err as Error).message}`)
      }
      if (frames.length !== missing.length) return await this.#wholeBlock(peerId, c, `blocktxn sent ${frames.length} of ${missing.length} transactions`)
      for (const [k, i] of missing.entries()) {
        let tx: unknown
        try { tx = decodeTxFrame(frames[k] as Uint8Array) } catch (err) {
          if (!(err instanceof WireError)) throw err
          return { fault: PENALTY.malformed, code: BlockErrorCode.BAD_FORMAT, reason: `blocktxn: ${err.message}` }
        }
        if (tx === null || typeof tx !== 'object' || Array.isArray(tx) || !matchesShortId(c, i, tx as Transaction)) {
          return { fault: PENALTY.malformed, code: BlockErrorCode.BAD_FORMAT, reason: `blocktxn sent a transaction for index ${i} that its short id does not name` }
        }
        found[i] = tx as Transaction
      }
    }
    const txs = found as Transaction[]
    const forms = txs.map((tx, i) => i === 0 ? c.coinbaseForm : encodeTx(tx))
    // a short-id collision (or a peer's lie) shows here: the transactions are not the header's
    if (merkleRootOfLeaves(leavesOfEncoded(forms, o.cores.sha3), o.cores.sha3) !== c.header.merkle_root) {
      return await this.#wholeBlock(peerId, c, 'rebuilt transactions do not match the merkle root')
    }
    if (missing.length > 0) this.stats.withRequest++
    else this.stats.rebuilt++
    return { block: assemble(c, txs), forms, rebuilt: missing.length > 0 ? 'request' : 'held' }
  }

  /** Falls back to fetching the block (blocks/2) from the peer that announced it. */
  async #wholeBlock (peerId: string, c: CompactBlock, why: string): Promise<Rebuilt> {
    const o = this.#o
    o.logger.debug({ peer: peerId, hash: c.header.hash.slice(0, 16), why }, 'compact block not rebuilt; fetching the whole block')
    let frame: Uint8Array | undefined
    try {
      [frame] = await o.client.blocks(peerId, [c.header.hash])
    } catch (err) {
      o.logger.debug({ peer: peerId, err: (err as Error).message }, 'fetching an announced block failed')
      return null
    }
    if (frame === undefined) return null
    let block: unknown
    try {
      block = decodeBlockFrame(frame)
      checkBlockFormat(block)
    } catch (err) {
      if (!(err instanceof WireError) && !(err instanceof BlockError)) throw err
      return { fault: PENALTY.malformed, code: BlockErrorCode.BAD_FORMAT, reason: `announced block: ${err.message}` }
    }
    if (block.hash !== c.header.hash || blockWorkFault(o.params, block, o.cores) !== null) {
      return { fault: PENALTY.malformed, code: BlockErrorCode.BAD_HASH, reason: 'sent a block that is not the one it announced' }
    }
    const forms = txFormsOfDecodedBlock(frame)
    if (forms === undefined) return { fault: PENALTY.malformed, code: BlockErrorCode.BAD_FORMAT, reason: 'announced block has no transactions' }
    this.stats.wholeBlock++
    return { block, forms, rebuilt: 'whole' }
  }

  /** A peer's answer for a block we already relayed was bad: it costs that peer (it answered us directly). */
  #penalizeFill (peerId: string, hash: string, f: { fault: number; reason: string; code: string }): void {
    if (f.fault === 0) return
    this.#o.penalize(peerId, Math.abs(f.fault), f.reason)
    this.#o.report(peerId, { hash, code: f.code, reason: f.reason, block: true })
  }

  /** Applies a relayed block; a body that fails is the originator's fault (relays could not check it). */
  async #apply (held: HeldBlock, peerId: string, origin: string): Promise<void> {
    const { block, forms } = held
    const { chain } = this.#o
    await chain.processBlock(block, 'peer', { txForms: forms, announceRejection: false }).then(() => {
      const meta = chain.getBlockMeta(block.hash)
      if (meta !== undefined && meta.status !== 'invalid') this.#o.onPeerBlock(peerId, block, BigInt(meta.work))
    }, (err: unknown) => {
      if (!(err instanceof BlockError)) {
        this.#o.logger.error({ err, hash: block.hash }, 'processing a relayed block failed')
        return
      }
      if (err.code === BlockErrorCode.ALREADY_KNOWN) return
      if (err.code === BlockErrorCode.PARENT_UNKNOWN) { this.#o.onOrphan(peerId); return }
      const useless = USELESS_BLOCK_PENALTY[err.code]
      const refusal = { hash: block.hash, code: err.code, reason: `block ${block.height}: ${err.code} ${err.message}`, block: true }
      if (useless !== undefined) this.#o.penalize(origin, useless, refusal.reason)
      else this.#o.penalize(origin, PENALTY.invalidBlock, `originated an invalid block: ${refusal.reason}`)
      this.#o.report(origin, refusal)
    })
  }

  // ---- whole blocks and transactions (the /2 topics)

  #decode (peerId: string, msg: Message, what: 'block' | 'transaction'): unknown {
    try {
      return what === 'block' ? decodeBlockFrame(msg.data) : decodeTxFrame(msg.data)
    } catch (err) {
      if (!(err instanceof WireError)) throw err
      this.#reject(peerId, PENALTY.malformed, { hash: '', code: what === 'block' ? BlockErrorCode.BAD_FORMAT : TxErrorCode.BAD_FORMAT, reason: `gossiped ${what} is malformed: ${err.message}`, block: what === 'block' })
      return undefined
    }
  }

  async #validateBlock (peer: PeerId, msg: Message): Promise<TopicValidatorResult> {
    const peerId = peer.toString()
    const o = this.#o
    if (o.isBanned(peerId)) return TopicValidatorResult.Reject
    const value = this.#decode(peerId, msg, 'block')
    if (value === undefined) return TopicValidatorResult.Reject
    try {
      checkBlockFormat(value)
    } catch (err) {
      const claimed = (value as { hash?: unknown } | null)?.hash
      return this.#reject(peerId, PENALTY.malformed, { hash: typeof claimed === 'string' ? claimed.slice(0, 128) : '', code: BlockErrorCode.BAD_FORMAT, reason: `gossiped block: ${(err as Error).message}`, block: true })
    }
    const block: Block = value
    const fault = blockWorkFault(o.params, block, o.cores)
    if (fault !== null) return this.#noWork(peerId, block.hash, fault)
    o.onBlockReceived?.(block.hash, peerId)
    if (this.#repeated(peerId, block.hash)) return TopicValidatorResult.Ignore
    if (o.chain.getBlockMeta(block.hash)?.status === 'main') return TopicValidatorResult.Ignore
    if (o.chain.getBlockMeta(block.previous_hash) === undefined) return this.#orphan(peerId, block.hash, block.height)
    this.fromPeers.add(block.hash)
    try {
      await o.chain.processBlock(block, 'peer', { announceRejection: false })
    } catch (err) {
      if (!(err instanceof BlockError)) {
        o.logger.error({ err, hash: block.hash }, 'processing a gossiped block failed')
        return TopicValidatorResult.Ignore
      }
      if (err.code === BlockErrorCode.PARENT_UNKNOWN) return this.#orphan(peerId, block.hash, block.height)
      if (err.code === BlockErrorCode.ALREADY_KNOWN) return TopicValidatorResult.Ignore
      const refusal = { hash: block.hash, code: err.code, reason: `block ${block.height}: ${err.code} ${err.message}`, block: true }
      const points = USELESS_BLOCK_PENALTY[err.code]
      if (points !== undefined) {
        o.penalize(peerId, points, refusal.reason)
        o.report(peerId, refusal)
        return TopicValidatorResult.Ignore
      }
      return this.#reject(peerId, PENALTY.invalidBlock, refusal)
    }
    const meta = o.chain.getBlockMeta(block.hash)
    if (meta !== undefined) o.onPeerBlock(peerId, block, BigInt(meta.work))
    return TopicValidatorResult.Accept
  }

  #validateTx (peer: PeerId, msg: Message): TopicValidatorResult {
    const peerId = peer.toString()
    const mempool = this.#o.mempool
    if (mempool === undefined || this.#o.isBanned(peerId)) return TopicValidatorResult.Ignore
    const value = this.#decode(peerId, msg, 'transaction')
    if (value === undefined) return TopicValidatorResult.Reject
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return this.#reject(peerId, PENALTY.malformed, { hash: '', code: TxErrorCode.BAD_FORMAT, reason: 'gossiped transaction is not an object', block: false })
    }
    try {
      // an orphan (its sender's earlier nonces have not reached us) is held, free, and not passed on yet
      if (mempool.offer(value as Transaction, peerId) === 'orphan') return TopicValidatorResult.Ignore
      this.#o.onPeerTx?.(peerId)
      return TopicValidatorResult.Accept
    } catch (err) {
      if (err instanceof TxError) {
        // invalid: rejected (no honest node relays it); stale: free within the peer's budget, a
        // point beyond (failing transactions are free junk otherwise); our own limits or news: dropped quietly
        const cls = refusalClassOf(err)
        const points = this.#o.refusalPoints(peerId, cls)
        if (cls === 'invalid') return this.#reject(peerId, points, { hash: '', code: err.code, reason: `invalid transaction: ${err.code} ${err.message}`, block: false })
        if (points > 0) this.#o.penalize(peerId, points, `transaction: ${err.code}`)
        return TopicValidatorResult.Ignore
      }
      // mempool.add reports every fault of the input as a TxError: anything else is ours
      this.#o.logger.error({ err }, 'admitting a gossiped transaction failed')
      return TopicValidatorResult.Ignore
    }
  }
}
