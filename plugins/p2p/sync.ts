// Header-first sync from the peer claiming the most work. Headers come in batches and are
// checked (hash, proof-of-work, difficulty schedule, linkage) before any body is asked for;
// bodies are fetched only once the checked headers outweigh our chain, then pass through
// chain.processBlock (which validates everything again, and does fork choice and reorgs).
// The same routine heals partitions: the locator finds the common ancestor.
import type { Logger } from 'pino'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { BlockMeta } from '../../core/chain/keys.ts'
import type { CoreKind } from '../../core/crypto/sha3.ts'
import { checkBlockFormat } from '../../core/chain/validate.ts'
import { BlockError, BlockErrorCode } from '../../core/chain/errors.ts'
import type { Block } from '../../core/chain/types.ts'
import { decodeHeaderHex } from './header-codec.ts'
import { FutureHeaderError, HeaderError, verifyHeaderBatch } from './header-chain.ts'
import type { HeaderNode } from './header-chain.ts'
import { buildLocator } from './locator.ts'
import { LIMITS, WireError } from './protocol.ts'
import type { HeadersRequest } from './protocol.ts'
import { PENALTY } from './misbehaviour.ts'
import type { PeerRecord, PeerTable } from './peer-table.ts'
import { RequestTimeoutError } from './reqresp.ts'
import { formatSyncLine, RateMeter } from './progress.ts'

export interface SyncClient {
  headers(peerId: string, req: HeadersRequest): Promise<string[]>
  blocks(peerId: string, hashes: string[]): Promise<unknown[]>
}

export interface SyncOptions {
  params: NetworkParams
  chain: ChainService
  powCore: CoreKind
  logger: Logger
  table: PeerTable
  client: SyncClient
  penalize(peerId: string, points: number, reason: string): void
  /** called for each body before it is processed, so the gossip layer does not re-announce it */
  markReceived(hash: string): void
  signal: AbortSignal
  progressIntervalMs: number
  /** headers per request (protocol maximum by default) */
  headersPerRequest?: number
  /** bodies per request */
  blocksPerRequest?: number
  /** most checked headers held while they do not yet outweigh our chain */
  maxPendingHeaders?: number
}

/** A peer sent something no honest node sends; the sync from it stops. */
class PeerFault extends Error {
  override name = 'PeerFault'
  readonly points: number
  constructor (points: number, reason: string) {
    super(reason)
    this.points = points
  }
}

/** The sync from this peer stops without blame (it went away, lacks a block, …). */
class SyncStop extends Error { override name = 'SyncStop' }

// Block errors a peer can trigger honestly: clocks that disagree, a reorg we refuse by depth.
const BENIGN_BLOCK_ERRORS = new Set<string>([BlockErrorCode.BAD_TIMESTAMP, BlockErrorCode.REORG_TOO_DEEP, BlockErrorCode.ALREADY_KNOWN])

/** body requests kept in flight, so the peer's reads overlap our block processing */
const PREFETCH_REQUESTS = 3

const hasSyncFlag = (chain: ChainService): chain is ChainService & { syncing: boolean } =>
  typeof (chain as { syncing?: unknown }).syncing === 'boolean'
const canPreverifyBeacons = (chain: ChainService): chain is ChainService & { preverifyBeacons(blocks: Block[]): Promise<void> } =>
  typeof (chain as { preverifyBeacons?: unknown }).preverifyBeacons === 'function'

const metaNode = (m: BlockMeta | undefined): HeaderNode | undefined => m === undefined || m.status === 'invalid'
  ? undefined
  : { hash: m.hash, height: m.height, timestamp: m.timestamp, previous_hash: m.previous_hash, difficulty: m.difficulty, work: BigInt(m.work) }

export class Syncer {
  readonly #o: SyncOptions
  #run: Promise<void> | null = null
  #again = false
  #active: PeerRecord | null = null
  /** peers a sync made no progress from, with the tip they claimed then */
  readonly #fruitless = new Map<string, string>()

  constructor (o: SyncOptions) { this.#o = o }

  /** true while downloading from a peer that is ahead of us */
  get active (): boolean { return this.#active !== null }

  /** Starts a sync round if a peer is ahead; while one runs, asks it to look again when done. */
  trigger (): void {
    if (this.#o.signal.aborted) return
    if (this.#run !== null) { this.#again = true; return }
    this.#run = this.#loop().finally(() => { this.#run = null })
  }

  /** resolves when no sync round is running (tests, shutdown) */
  async idle (): Promise<void> { while (this.#run !== null) await this.#run }

  forget (peerId: string): void { this.#fruitless.delete(peerId) }

  async #loop (): Promise<void> {
    do {
      this.#again = false
      for (let peer = this.#pick(); peer !== undefined && !this.#o.signal.aborted; peer = this.#pick()) {
        const claimed = peer.bestHash
        const progressed = await this.#syncFrom(peer)
        if (!progressed) this.#fruitless.set(peer.peerId, claimed)
      }
    } while (this.#again && !this.#o.signal.aborted)
  }

  /** The peer with the most work above ours, unless syncing from it at that tip led nowhere. */
  #pick (): PeerRecord | undefined {
    const ours = BigInt(this.#o.chain.tip().work)
    let best: PeerRecord | undefined
    for (const p of this.#o.table.all()) {
      if (p.bestWork <= ours || this.#fruitless.get(p.peerId) === p.bestHash) continue
      if (best === undefined || p.bestWork > best.bestWork) best = p
    }
    return best
  }

  async #syncFrom (peer: PeerRecord): Promise<boolean> {
    const { logger } = this.#o
    this.#active = peer
    const meter = new RateMeter()
    const startHeight = this.#o.chain.tip().height
    const started = Date.now()
    let stored = 0
    const timer = setInterval(() => {
      logger.info(formatSyncLine({ current: this.#o.chain.tip().height, target: peer.bestHeight, blocksPerSecond: meter.take(), peers: this.#o.table.size }))
    }, this.#o.progressIntervalMs)
    timer.unref()
    logger.info({ peer: peer.peerId, from: startHeight, to: peer.bestHeight }, 'sync started')
    try {
      // counted as blocks connect, so a sync cut short still reports (and counts) its progress
      await this.#download(peer, (n) => { stored += n; meter.add(n) })
    } catch (err) {
      this.#onSyncError(peer, err)
    } finally {
      clearInterval(timer)
      this.#active = null
      if (hasSyncFlag(this.#o.chain)) this.#o.chain.syncing = false
    }
    const secs = (Date.now() - started) / 1000
    const tip = this.#o.chain.tip()
    logger.info({ peer: peer.peerId, height: tip.height, blocks: stored, seconds: Number(secs.toFixed(1)), blocksPerSecond: secs > 0 ? Math.round(stored / secs) : stored },
      `sync finished at height ${tip.height.toLocaleString('en-US')} (${stored.toLocaleString('en-US')} blocks)`)
    return stored > 0
  }

  #onSyncError (peer: PeerRecord, err: unknown): void {
    const id = peer.peerId
    if (err instanceof PeerFault) {
      this.#o.logger.warn({ peer: id, reason: err.message }, 'sync: peer misbehaved')
      this.#o.penalize(id, err.points, err.message)
    } else if (err instanceof WireError) {
      this.#o.logger.warn({ peer: id, reason: err.message }, 'sync: malformed response')
      this.#o.penalize(id, PENALTY.malformed, err.message)
    } else if (err instanceof RequestTimeoutError) {
      this.#o.logger.warn({ peer: id, reason: err.message }, 'sync: peer unresponsive')
      this.#o.penalize(id, PENALTY.unresponsive, err.message)
    } else if (err instanceof SyncStop) {
      this.#o.logger.info({ peer: id, reason: err.message }, 'sync stopped')
    } else if (!this.#o.signal.aborted) {
      this.#o.logger.warn({ peer: id, err: (err as Error).message }, 'sync from peer failed')
    }
  }

  /** Downloads what the peer has beyond our chain; `onBlocks` hears how many blocks each chunk stored. */
  async #download (peer: PeerRecord, onBlocks: (n: number) => void): Promise<void> {
    const o = this.#o
    const perRequest = o.headersPerRequest ?? LIMITS.maxHeadersPerResponse
    const maxPending = o.maxPendingHeaders ?? 100_000
    const checked = new Map<string, HeaderNode>()
    const lookup = (hash: string): HeaderNode | undefined => checked.get(hash) ?? metaNode(o.chain.getBlockMeta(hash))
    let pending: HeaderNode[] = []
    let next = this.#requestHeaders(peer, buildLocator(o.chain), perRequest)
    for (;;) {
      const hexes = await next
      if (o.signal.aborted || hexes.length === 0) break
      let batch: HeaderNode[]
      try {
        const wire = hexes.map((x) => decodeHeaderHex(x, o.powCore))
        batch = verifyHeaderBatch(o.params, wire, lookup, Date.now() / 1000)
      } catch (err) {
        if (err instanceof FutureHeaderError) throw new SyncStop(err.message)
        if (err instanceof HeaderError) throw new PeerFault(PENALTY.invalidBlock, `invalid headers: ${err.message}`)
        throw err
      }
      for (const n of batch) checked.set(n.hash, n)
      pending.push(...batch)
      if (pending.length > maxPending) throw new SyncStop(`more than ${maxPending} headers without outweighing our chain`)
      const more = hexes.length >= perRequest
      const last = batch[batch.length - 1] as HeaderNode
      // Ask for the next headers while this batch's bodies download.
      next = more ? this.#requestHeaders(peer, [last.hash, ...buildLocator(o.chain)].slice(0, LIMITS.maxLocatorLength), perRequest) : Promise.resolve([])
      next.catch(() => undefined)
      if (last.work > BigInt(o.chain.tip().work)) {
        await this.#fetchBodies(peer, pending, onBlocks)
        o.table.noteBlock(peer.peerId, last.height, last.hash, last.work)
        pending = []
        checked.clear()
      }
      if (!more) break
    }
  }

  async #requestHeaders (peer: PeerRecord, locator: string[], max: number): Promise<string[]> {
    return await this.#o.client.headers(peer.peerId, { locator, max })
  }

  /** Downloads and processes the bodies of checked headers, a few requests ahead. */
  async #fetchBodies (peer: PeerRecord, headers: HeaderNode[], onBlocks: (n: number) => void): Promise<void> {
    const size = this.#o.blocksPerRequest ?? 64
    const chunks: HeaderNode[][] = []
    for (let i = 0; i < headers.length; i += size) chunks.push(headers.slice(i, i + size))
    const fetch = (chunk: HeaderNode[]): Promise<unknown[]> => {
      const p = this.#o.client.blocks(peer.peerId, chunk.map((h) => h.hash))
      p.catch(() => undefined) // awaited below; this only keeps an abandoned prefetch quiet
      return p
    }
    const inFlight: Array<Promise<unknown[]>> = []
    let requested = 0
    const refill = (): void => {
      while (requested < chunks.length && inFlight.length < PREFETCH_REQUESTS) inFlight.push(fetch(chunks[requested++] as HeaderNode[]))
    }
    refill()
    for (const chunk of chunks) {
      const bodies = await (inFlight.shift() as Promise<unknown[]>)
      refill()
      await this.#process(chunk, bodies, onBlocks)
      if (bodies.length < chunk.length) throw new SyncStop(`peer did not send block ${chunk[bodies.length]?.height ?? '?'}`)
      if (this.#o.signal.aborted) break
    }
  }

  async #process (chunk: HeaderNode[], bodies: unknown[], onBlocks: (n: number) => void): Promise<void> {
    const { chain } = this.#o
    if (hasSyncFlag(chain)) chain.syncing = true
    // the chunk's beacon rounds in one batch (random linear combination) before block by block
    if (canPreverifyBeacons(chain)) await chain.preverifyBeacons(bodies.filter((b): b is Block => b !== null && typeof b === 'object'))
    for (const [i, body] of bodies.entries()) {
      const expected = chunk[i] as HeaderNode
      try {
        checkBlockFormat(body)
      } catch (err) {
        throw new PeerFault(PENALTY.malformed, `block ${expected.height}: ${(err as Error).message}`)
      }
      const block: Block = body
      if (block.hash !== expected.hash) throw new PeerFault(PENALTY.malformed, `sent block ${block.hash.slice(0, 16)}… for requested ${expected.hash.slice(0, 16)}…`)
      this.#o.markReceived(block.hash)
      try {
        const result = await chain.processBlock(block, 'peer')
        if (result.status !== 'known') onBlocks(1)
      } catch (err) {
        if (!(err instanceof BlockError)) throw err
        if (BENIGN_BLOCK_ERRORS.has(err.code)) throw new SyncStop(`block ${block.height}: ${err.message}`)
        throw new PeerFault(PENALTY.invalidBlock, `invalid block ${block.height}: ${err.code} ${err.message}`)
      }
    }
  }
}
