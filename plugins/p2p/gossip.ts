// Gossip of new blocks and transactions over gossipsub. A message is relayed only after it
// passed the same door a local one does (chain.processBlock / mempool.add): the topic
// validator answers accept (relay), ignore (drop quietly) or reject (drop and penalize).
import type { Logger } from 'pino'
import type { GossipSub, Message } from '@libp2p/gossipsub'
import { TopicValidatorResult } from '@libp2p/gossipsub'
import type { PeerId } from '@libp2p/interface'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import { checkBlockFormat } from '../../core/chain/validate.ts'
import { BlockError, BlockErrorCode, TxError, txRefusalClass } from '../../core/chain/errors.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import { decodeBlockFrame, decodeTxFrame, WireError } from './protocol.ts'
import { encodeBlock, encodeTx } from '../../core/chain/tx-codec.ts'
import type { Topics } from './protocol.ts'
import type { PeerItemEvent } from '../../core/kernel/hooks.ts'
import { PENALTY, TX_REFUSAL_PENALTY } from './misbehaviour.ts'

export interface GossipOptions {
  pubsub: GossipSub
  topics: Topics
  chain: ChainService
  mempool: MempoolService | undefined
  logger: Logger
  penalize(peerId: string, points: number, reason: string): void
  /** a relayed block was stored: the peer has at least this chain */
  onPeerBlock(peerId: string, block: Block, work: bigint): void
  /** a relayed transaction was admitted (the peer is useful: eviction protects it) */
  onPeerTx?(peerId: string): void
  /** a relayed block does not connect to anything we have: fetch its ancestors */
  onOrphan(peerId: string, block: Block): void
  /** a relayed block was refused before it reached the chain (undecodable or malformed) */
  onMalformedBlock(value: unknown, reason: string): void
  /** a well-formed block or transaction arrived from a peer, before validation (peerItemReceived) */
  onReceived(item: PeerItemEvent): void
}

// Block errors an honest peer can cause: its clock, a race.
const BENIGN_BLOCK_ERRORS = new Set<string>([BlockErrorCode.BAD_TIMESTAMP, BlockErrorCode.ALREADY_KNOWN])
// Side blocks that could never win, which the chain refuses to store: cheap to make (a child
// of genesis costs a few hundred hashes), so they cost the sender points, but they break no
// rule and an honest node on the far side of a partition may relay one: dropped, not rejected.
const USELESS_BLOCK_PENALTY: Partial<Record<string, number>> = {
  [BlockErrorCode.REORG_TOO_DEEP]: PENALTY.staleBlock,
  [BlockErrorCode.LIGHT_BRANCH]: PENALTY.lightBlock
}

/** Remembers recent block hashes that came from peers (a bounded insertion-ordered set). */
export class RecentSet {
  readonly #max: number
  readonly #set = new Set<string>()
  constructor (max: number) { this.#max = max }
  add (v: string): void {
    this.#set.delete(v)
    this.#set.add(v)
    if (this.#set.size > this.#max) this.#set.delete(this.#set.values().next().value as string)
  }

  has (v: string): boolean { return this.#set.has(v) }
}

export class Gossip {
  readonly #o: GossipOptions
  readonly fromPeers = new RecentSet(4096)
  /** true while mempool.add runs for a gossiped transaction (its txAdmitted must not re-publish) */
  #admittingFromPeer = false
  #running = false

  constructor (o: GossipOptions) { this.#o = o }

  start (): void {
    const { pubsub, topics } = this.#o
    pubsub.topicValidators.set(topics.blocks, async (peer, msg) => await this.#validateBlock(peer, msg))
    pubsub.subscribe(topics.blocks)
    if (this.#o.mempool !== undefined) {
      pubsub.topicValidators.set(topics.txs, (peer, msg) => this.#validateTx(peer, msg))
      pubsub.subscribe(topics.txs)
    }
    this.#running = true
  }

  stop (): void { this.#running = false }

  /** A block this node produced or was handed locally: announce it. */
  announceBlock (block: Block): void {
    if (!this.#running || this.fromPeers.has(block.hash)) return
    this.#publish(this.#o.topics.blocks, encodeBlock(block))
  }

  /** A transaction admitted locally (API, wallet, reorg return): announce it. */
  announceTx (tx: Transaction): void {
    if (!this.#running || this.#admittingFromPeer || this.#o.mempool === undefined) return
    this.#publish(this.#o.topics.txs, encodeTx(tx))
  }

  #publish (topic: string, bytes: Uint8Array): void {
    this.#o.pubsub.publish(topic, bytes).catch((err: unknown) => {
      this.#o.logger.debug({ topic, err: (err as Error).message }, 'gossip publish failed')
    })
  }

  #decode (peerId: string, msg: Message, what: 'block' | 'transaction'): unknown {
    try {
      return what === 'block' ? decodeBlockFrame(msg.data) : decodeTxFrame(msg.data)
    } catch (err) {
      if (!(err instanceof WireError)) throw err
      if (what === 'block') this.#o.onMalformedBlock(undefined, err.message)
      this.#reject(peerId, PENALTY.malformed, `gossiped ${what} is malformed: ${err.message}`)
      return undefined
    }
  }

  #reject (peerId: string, points: number, reason: string): TopicValidatorResult {
    this.#o.logger.warn({ peer: peerId, reason }, 'rejected gossip from peer')
    this.#o.penalize(peerId, points, reason)
    return TopicValidatorResult.Reject
  }

  async #validateBlock (peer: PeerId, msg: Message): Promise<TopicValidatorResult> {
    const peerId = peer.toString()
    const value = this.#decode(peerId, msg, 'block')
    if (value === undefined) return TopicValidatorResult.Reject
    try {
      checkBlockFormat(value)
    } catch (err) {
      this.#o.onMalformedBlock(value, (err as Error).message)
      return this.#reject(peerId, PENALTY.malformed, `gossiped block: ${(err as Error).message}`)
    }
    const block: Block = value
    this.#o.onReceived({ kind: 'block', id: block.hash, peerId, height: block.height, previousHash: block.previous_hash })
    const { chain } = this.#o
    if (chain.getBlockMeta(block.hash)?.status === 'main') return TopicValidatorResult.Ignore
    this.fromPeers.add(block.hash)
    try {
      await chain.processBlock(block, 'peer')
    } catch (err) {
      if (err instanceof BlockError) {
        if (err.code === BlockErrorCode.PARENT_UNKNOWN) {
          this.#o.onOrphan(peerId, block)
          return TopicValidatorResult.Ignore
        }
        if (BENIGN_BLOCK_ERRORS.has(err.code)) return TopicValidatorResult.Ignore
        const points = USELESS_BLOCK_PENALTY[err.code]
        if (points !== undefined) {
          this.#o.logger.debug({ peer: peerId, code: err.code, height: block.height }, 'dropped a gossiped side block that cannot win')
          this.#o.penalize(peerId, points, `side block ${block.height}: ${err.code}`)
          return TopicValidatorResult.Ignore
        }
        return this.#reject(peerId, PENALTY.invalidBlock, `invalid block ${block.height}: ${err.code} ${err.message}`)
      }
      this.#o.logger.error({ err, hash: block.hash }, 'processing a gossiped block failed')
      return TopicValidatorResult.Ignore
    }
    const meta = chain.getBlockMeta(block.hash)
    if (meta !== undefined) this.#o.onPeerBlock(peerId, block, BigInt(meta.work))
    return TopicValidatorResult.Accept
  }

  #validateTx (peer: PeerId, msg: Message): TopicValidatorResult {
    const peerId = peer.toString()
    const mempool = this.#o.mempool
    if (mempool === undefined) return TopicValidatorResult.Ignore
    const value = this.#decode(peerId, msg, 'transaction')
    if (value === undefined) return TopicValidatorResult.Reject
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return this.#reject(peerId, PENALTY.malformed, 'gossiped transaction is not an object')
    const id = (value as { transaction_id?: unknown }).transaction_id
    if (typeof id === 'string') this.#o.onReceived({ kind: 'tx', id, peerId })
    this.#admittingFromPeer = true
    try {
      mempool.add(value as Transaction)
      this.#o.onPeerTx?.(peerId)
      return TopicValidatorResult.Accept
    } catch (err) {
      if (err instanceof TxError) {
        // invalid: rejected (no honest node relays it); stale: dropped for a few points (failing
        // transactions are free junk otherwise); our own limits: dropped quietly
        const cls = txRefusalClass(err.code)
        if (cls === 'invalid') return this.#reject(peerId, TX_REFUSAL_PENALTY.invalid, `invalid transaction: ${err.code} ${err.message}`)
        if (cls === 'stale') this.#o.penalize(peerId, TX_REFUSAL_PENALTY.stale, `transaction: ${err.code}`)
        return TopicValidatorResult.Ignore
      }
      // mempool.add reports every fault of the input as a TxError: anything else is ours
      this.#o.logger.error({ err }, 'admitting a gossiped transaction failed')
      return TopicValidatorResult.Ignore
    } finally {
      this.#admittingFromPeer = false
    }
  }
}
