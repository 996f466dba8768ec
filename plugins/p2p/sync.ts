// Header-first sync from the peer claiming the most work. Headers come in batches and are
// checked (hash, proof-of-work, difficulty schedule, linkage) before any body is asked for;
// bodies are fetched only once the checked headers outweigh our chain, then pass through
// chain.processBlock (which validates everything again, and does fork choice and reorgs).
// The same routine heals partitions: the locator finds the common ancestor.
//
// A claim must be delivered: a peer whose status claims more work than ours but whose sync
// brings us nothing (no headers, headers that do not outweigh our chain, a fork beyond the
// reorg limit) is penalized and benched — not chosen again, whatever it claims next, for a
// cooldown that doubles with each such failure. `active` (the node's "syncing" state, which
// idles the miner) holds for one stall window while the first headers are awaited, then only
// while a checked header chain heavier than ours is downloading and blocks keep connecting:
// claims alone cannot keep the node "syncing".
import type { Logger } from 'pino'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { BlockMeta } from '../../core/chain/keys.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import { checkBlockFormat } from '../../core/chain/validate.ts'
import { BlockError, BlockErrorCode } from '../../core/chain/errors.ts'
import type { Block } from '../../core/chain/types.ts'
import { txFormsOfDecodedBlock } from '../../core/chain/tx-codec.ts'
import type { BeaconEvidenceView } from '../../core/chain/attestation.ts'
import { decodeHeaderHex } from './header-codec.ts'
import { FutureHeaderError, HeaderError, verifyHeaderBatch } from './header-chain.ts'
import type { HeaderNode } from './header-chain.ts'
import { buildLocator } from './locator.ts'
import { checkBlockFrame, decodeBlockFrame, LIMITS, WireError } from './protocol.ts'
import type { HeadersRequest } from './protocol.ts'
import { PENALTY } from './misbehaviour.ts'
import type { PeerRecord, PeerTable } from './peer-table.ts'
import { RequestTimeoutError } from './reqresp.ts'
import type { BlocksResponse } from './reqresp.ts'
import { formatSyncLine, RateMeter } from './progress.ts'

export interface SyncClient {
  headers(peerId: string, req: HeadersRequest): Promise<string[]>
  blocks(peerId: string, hashes: string[]): Promise<BlocksResponse>
}

export interface SyncOptions {
  params: NetworkParams
  chain: ChainService
  /** the kernel's PoW core (its `cores.pow`) */
  powCore: PowCore
  logger: Logger
  table: PeerTable
  client: SyncClient
  penalize(peerId: string, points: number, reason: string): void
  /** called for each body before it is processed, so the gossip layer does not re-announce it */
  markReceived(hash: string): void
  /** a body was refused before it reached the chain (malformed) */
  onMalformedBlock(value: unknown, reason: string): void
  signal: AbortSignal
  progressIntervalMs: number
  /** headers per request (protocol maximum by default) */
  headersPerRequest?: number
  /** bodies per request */
  blocksPerRequest?: number
  /** most checked headers held while they do not yet outweigh our chain */
  maxPendingHeaders?: number
  /** a sync that connects nothing for this long no longer counts as syncing (the miner resumes) */
  stallMs?: number
  /** a peer's headers must outweigh our chain within this long, or its claim counts as not backed */
  proveWithinMs?: number
  /** first cooldown for a peer whose claim was not backed (doubles per failure, up to 64×) */
  benchMs?: number
  now?: () => number
}

/** How one sync round from a peer ended. */
interface SyncOutcome { stored: number; penalized: boolean }

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
// A lighter side block here means our tip moved on while we downloaded (a race, not a fault).
const BENIGN_BLOCK_ERRORS = new Set<string>([BlockErrorCode.BAD_TIMESTAMP, BlockErrorCode.REORG_TOO_DEEP, BlockErrorCode.ALREADY_KNOWN, BlockErrorCode.LIGHT_BRANCH])

/** body requests kept in flight, so the peer's reads overlap our block processing */
const PREFETCH_REQUESTS = 3
/**
 * Wire bytes of block bodies requested ahead of the response being processed (issue 15): a
 * syncing node held 3 × 64 blocks of 20 transfers ahead, ~45 MiB of decoded blocks, and V8
 * keeps a heap's high-water mark resident. Small blocks still get PREFETCH_REQUESTS ahead.
 */
export const PREFETCH_BYTES = 8 << 20

/**
 * Whether one more blocks request of `size` blocks may go out with `inFlight` already
 * requested ahead: at most PREFETCH_REQUESTS, and (once a response showed the blocks' size,
 * `bytesPerBlock` > 0) within PREFETCH_BYTES; one request is always allowed.
 */
export function mayPrefetch (inFlight: number, size: number, bytesPerBlock: number): boolean {
  if (inFlight === 0) return true
  if (inFlight >= PREFETCH_REQUESTS) return false
  return (inFlight + 1) * size * bytesPerBlock <= PREFETCH_BYTES
}
/** blocks a request asks for when the node's configuration does not say (its schema's default too) */
export const DEFAULT_BLOCKS_PER_REQUEST = 64
/** the first blocks request of a round asks for this many at most (rampedChunks) */
export const FIRST_REQUEST_BLOCKS = 8

/**
 * `items` cut into requests that start small and double up to `size` (8, 16, 32, 64, 64, …):
 * the first block connects once 8 bodies arrived instead of 64 (of 20 transfers: 6.4 MB to
 * read, encrypt, send, decrypt and decode first), and the later, full-size requests are
 * fetched while the first ones connect.
 */
export function rampedChunks<T> (items: readonly T[], size: number): T[][] {
  const chunks: T[][] = []
  let next = Math.min(size, FIRST_REQUEST_BLOCKS)
  for (let i = 0; i < items.length; i += next, next = Math.min(size, 2 * next)) chunks.push(items.slice(i, i + next))
  return chunks
}
const DEFAULT_STALL_MS = 10_000
const DEFAULT_BENCH_MS = 30_000
const DEFAULT_PROVE_WITHIN_MS = 60_000
const MAX_BENCH_DOUBLINGS = 6

/** a frame already checked (checkBlockFrame), decoded: a well-formed block and its transactions' binary forms, or why it is not one */
type PreparedBlock = { block: Block; txForms: Buffer[] | undefined } | { body: unknown; malformed: string }

function prepareBlock (frame: Uint8Array): PreparedBlock {
  const body = decodeBlockFrame(frame) // checked: cannot fail
  try {
    checkBlockFormat(body)
  } catch (err) {
    return { body, malformed: (err as Error).message }
  }
  return { block: body, txForms: txFormsOfDecodedBlock(frame) }
}

/** a blocks response, its frames checked (#received) */
interface ReceivedBodies {
  frames: BlocksResponse
  /** the envelope of each frame up to the first that is no block */
  envelopes: BeaconEvidenceView[]
  /** why the frame after the last envelope is no block (null: every frame is one) */
  undecodable: unknown
  /** the batch verification of the response's beacon rounds (the chain's cache then holds them) */
  beacons: Promise<void>
}

const metaNode = (m: BlockMeta | undefined): HeaderNode | undefined => m === undefined || m.status === 'invalid'
  ? undefined
  : { hash: m.hash, height: m.height, timestamp: m.timestamp, previous_hash: m.previous_hash, bits: m.bits, work: BigInt(m.work) }

export class Syncer {
  readonly #o: SyncOptions
  #run: Promise<void> | null = null
  #again = false
  #active: PeerRecord | null = null
  /** peers a sync made no progress from, with the tip they claimed then */
  readonly #fruitless = new Map<string, string>()
  /** peers whose claimed work went undelivered: not picked before `until` */
  readonly #benched = new Map<string, { until: number; strikes: number }>()
  /** the running sync has checked headers that outweigh our chain */
  #proven = false
  #startedAt = 0
  #lastProgress = 0
  readonly #now: () => number

  constructor (o: SyncOptions) {
    this.#o = o
    this.#now = o.now ?? Date.now
  }

  /**
   * True for a short grace after a sync starts, then only while downloading a checked header
   * chain heavier than ours that keeps delivering: claims alone, or a download that stalls,
   * do not keep the node "syncing".
   */
  get active (): boolean {
    if (this.#active === null) return false
    const stall = this.#o.stallMs ?? DEFAULT_STALL_MS
    // An unproven claim counts as syncing for one stall window (so a node joining late does not
    // mine on its stale tip while the first headers are on their way, even on a loaded machine);
    // a claim that never delivers idles the miner that long once, then the peer is benched.
    if (this.#proven) return this.#now() - this.#lastProgress < stall
    return this.#now() - this.#startedAt < stall
  }

  /** The peer is benched (its claimed work was not delivered) until this time, else undefined. */
  benchedUntil (peerId: string): number | undefined {
    const b = this.#benched.get(peerId)
    return b !== undefined && b.until > this.#now() ? b.until : undefined
  }

  /** Starts a sync round if a peer is ahead; while one runs, asks it to look again when done. */
  trigger (): void {
    if (this.#o.signal.aborted) return
    if (this.#run !== null) { this.#again = true; return }
    this.#run = this.#loop().finally(() => { this.#run = null })
  }

  /** resolves when no sync round is running (tests, shutdown) */
  async idle (): Promise<void> { while (this.#run !== null) await this.#run }

  /** A peer (re)connected: what we learned of its old claims no longer applies, except a bench. */
  forget (peerId: string): void { this.#fruitless.delete(peerId) }

  async #loop (): Promise<void> {
    do {
      this.#again = false
      for (let peer = this.#pick(); peer !== undefined && !this.#o.signal.aborted; peer = this.#pick()) {
        const claimedHash = peer.bestHash
        const claimedWork = peer.bestWork
        const outcome = await this.#syncFrom(peer)
        if (outcome.stored > 0) {
          this.#benched.delete(peer.peerId)
          continue
        }
        this.#fruitless.set(peer.peerId, claimedHash)
        // Nothing came, and our chain still has less work than the peer claimed: the claim
        // was not backed. (An honest peer we simply caught up with by other means is not.)
        if (BigInt(this.#o.chain.tip().work) < claimedWork) this.#bench(peer.peerId, outcome.penalized)
      }
    } while (this.#again && !this.#o.signal.aborted)
  }

  #bench (peerId: string, penalized: boolean): void {
    const strikes = (this.#benched.get(peerId)?.strikes ?? 0) + 1
    const ms = (this.#o.benchMs ?? DEFAULT_BENCH_MS) * 2 ** Math.min(strikes - 1, MAX_BENCH_DOUBLINGS)
    if (this.#benched.size >= 10_000) this.#benched.clear() // bounded; peers are far fewer
    this.#benched.set(peerId, { until: this.#now() + ms, strikes })
    this.#o.logger.warn({ peer: peerId, seconds: ms / 1000, strikes }, 'sync: peer claimed more work than it delivered; not syncing from it for a while')
    if (!penalized) this.#o.penalize(peerId, PENALTY.unbackedClaim, 'claimed more work than it delivered')
  }

  /** The peer with the most work above ours, unless syncing from it at that tip led nowhere or it is benched. */
  #pick (): PeerRecord | undefined {
    const ours = BigInt(this.#o.chain.tip().work)
    let best: PeerRecord | undefined
    for (const p of this.#o.table.all()) {
      if (p.bestWork <= ours || this.#fruitless.get(p.peerId) === p.bestHash || this.benchedUntil(p.peerId) !== undefined) continue
      if (best === undefined || p.bestWork > best.bestWork) best = p
    }
    return best
  }

  async #syncFrom (peer: PeerRecord): Promise<SyncOutcome> {
    const { logger } = this.#o
    this.#active = peer
    this.#proven = false
    this.#startedAt = this.#lastProgress = this.#now()
    let penalized = false
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
      await this.#download(peer, (n) => { stored += n; meter.add(n); this.#lastProgress = this.#now() })
    } catch (err) {
      penalized = this.#onSyncError(peer, err)
    } finally {
      clearInterval(timer)
      this.#active = null
      this.#proven = false
      this.#o.chain.setSyncing(false)
    }
    const secs = (Date.now() - started) / 1000
    const tip = this.#o.chain.tip()
    logger.info({ peer: peer.peerId, height: tip.height, blocks: stored, seconds: Number(secs.toFixed(1)), blocksPerSecond: secs > 0 ? Math.round(stored / secs) : stored },
      `sync finished at height ${tip.height.toLocaleString('en-US')} (${stored.toLocaleString('en-US')} blocks)`)
    return { stored, penalized }
  }

  /** Logs why a sync ended early and penalizes the peer when it is to blame; true when it was. */
  #onSyncError (peer: PeerRecord, err: unknown): boolean {
    const id = peer.peerId
    if (err instanceof PeerFault) {
      this.#o.logger.warn({ peer: id, reason: err.message }, 'sync: peer misbehaved')
      this.#o.penalize(id, err.points, err.message)
      return true
    } else if (err instanceof WireError) {
      this.#o.logger.warn({ peer: id, reason: err.message }, 'sync: malformed response')
      this.#o.penalize(id, PENALTY.malformed, err.message)
      return true
    } else if (err instanceof RequestTimeoutError) {
      this.#o.logger.warn({ peer: id, reason: err.message }, 'sync: peer unresponsive')
      this.#o.penalize(id, PENALTY.unresponsive, err.message)
      return true
    } else if (err instanceof SyncStop) {
      this.#o.logger.info({ peer: id, reason: err.message }, 'sync stopped')
    } else if (!this.#o.signal.aborted) {
      this.#o.logger.warn({ peer: id, err: (err as Error).message }, 'sync from peer failed')
    }
    return false
  }

  /** Downloads what the peer has beyond our chain; `onBlocks` hears how many blocks each chunk stored. */
  async #download (peer: PeerRecord, onBlocks: (n: number) => void): Promise<void> {
    const o = this.#o
    const perRequest = o.headersPerRequest ?? LIMITS.maxHeadersPerResponse
    const maxPending = o.maxPendingHeaders ?? 100_000
    const proveBy = this.#now() + (o.proveWithinMs ?? DEFAULT_PROVE_WITHIN_MS)
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
      if (pending.length === 0) this.#checkForkDepth(batch[0] as HeaderNode)
      this.#lastProgress = this.#now()
      for (const n of batch) checked.set(n.hash, n)
      pending.push(...batch)
      if (pending.length > maxPending) throw new SyncStop(`more than ${maxPending} headers without outweighing our chain`)
      if (!this.#proven && this.#now() > proveBy) throw new SyncStop('headers did not outweigh our chain in time')
      const more = hexes.length >= perRequest
      const last = batch[batch.length - 1] as HeaderNode
      // Ask for the next headers while this batch's bodies download.
      next = more ? this.#requestHeaders(peer, [last.hash, ...buildLocator(o.chain)].slice(0, LIMITS.maxLocatorLength), perRequest) : Promise.resolve([])
      next.catch(() => undefined)
      if (last.work > BigInt(o.chain.tip().work)) {
        this.#proven = true
        await this.#fetchBodies(peer, pending, onBlocks, last.work)
        o.table.noteBlock(peer.peerId, last.height, last.hash, last.work)
        pending = []
        checked.clear()
      }
      if (!more) break
    }
  }

  /** Bodies of a branch we could never switch to are not worth a request. */
  #checkForkDepth (first: HeaderNode): void {
    const tip = this.#o.chain.tip()
    const fork = this.#o.chain.getBlockMeta(first.previous_hash)
    if (fork === undefined) return // it extends headers checked in this round
    // a fork point off our main chain lies at least as deep as its height says
    if (tip.height - fork.height > this.#o.params.maxReorgDepth) {
      throw new SyncStop(`the peer's chain forks from ours at height ${fork.height}, more than ${this.#o.params.maxReorgDepth} blocks below our tip`)
    }
  }

  async #requestHeaders (peer: PeerRecord, locator: string[], max: number): Promise<string[]> {
    return await this.#o.client.headers(peer.peerId, { locator, max })
  }

  /** Downloads and processes the bodies of checked headers, a few requests ahead. */
  async #fetchBodies (peer: PeerRecord, headers: HeaderNode[], onBlocks: (n: number) => void, branchWork: bigint): Promise<void> {
    const size = this.#o.blocksPerRequest ?? DEFAULT_BLOCKS_PER_REQUEST
    const chunks = rampedChunks(headers, size)
    // each response is checked as it arrives and its beacon rounds go to the verifier then, so
    // a prefetched response's rounds are verified while the blocks before it connect
    const fetch = (chunk: HeaderNode[]): Promise<ReceivedBodies> => {
      const p = this.#o.client.blocks(peer.peerId, chunk.map((h) => h.hash)).then((frames) => this.#received(frames))
      p.catch(() => undefined) // awaited below; this only keeps an abandoned prefetch quiet
      return p
    }
    const inFlight: Array<Promise<ReceivedBodies>> = []
    let requested = 0
    /** wire bytes per block of the last response (0: not known yet) */
    let bytesPerBlock = 0
    const refill = (): void => {
      while (requested < chunks.length && mayPrefetch(inFlight.length, size, bytesPerBlock)) inFlight.push(fetch(chunks[requested++] as HeaderNode[]))
    }
    refill()
    for (const chunk of chunks) {
      let bodies = await (inFlight.shift() as Promise<ReceivedBodies>)
      const { frames } = bodies
      if (frames.bytes !== undefined && frames.length > 0) bytesPerBlock = frames.bytes / frames.length
      refill()
      // A response may stop short at the server's byte budget: ask again for the rest.
      for (let rest = chunk; ;) {
        await this.#process(rest, bodies, onBlocks, branchWork)
        if (this.#o.signal.aborted) return
        if (bodies.frames.length === 0) throw new SyncStop(`peer did not send block ${rest[0]?.height ?? '?'}`)
        rest = rest.slice(bodies.frames.length)
        if (rest.length === 0) break
        bodies = await fetch(rest)
      }
    }
  }

  /**
   * A response as it arrives: every frame checked first, only its envelope decoded (each block
   * is decoded when the one before it starts connecting, so a response's blocks, 64 of 20
   * transfers: ~20 MB of strings, are not all alive at once, outliving the young generation and
   * filling the old one), and the beacon rounds its blocks quote sent to the verifier in one
   * batch (random linear combination). A frame that is no block ends the response: the blocks
   * before it still connect, then the peer answers for it (WireError: malformed).
   */
  #received (frames: BlocksResponse): ReceivedBodies {
    const envelopes: BeaconEvidenceView[] = []
    let undecodable: unknown = null
    for (const frame of frames) {
      try {
        envelopes.push(checkBlockFrame(frame))
      } catch (err) {
        undecodable = err
        break
      }
    }
    const beacons = this.#o.chain.preverifyBeacons(envelopes)
    beacons.catch(() => undefined) // awaited by #process; quiet if the response is abandoned
    return { frames, envelopes, undecodable, beacons }
  }

  async #process (chunk: HeaderNode[], received: ReceivedBodies, onBlocks: (n: number) => void, branchWork: bigint): Promise<void> {
    const { chain } = this.#o
    const { frames, envelopes, undecodable } = received
    chain.setSyncing(true)
    await received.beacons
    // Each block is decoded one step ahead: while it connects, the chain checks the next
    // one's signatures on its threads (ProcessOptions.next).
    let next = envelopes.length > 0 ? prepareBlock(frames[0] as Uint8Array) : undefined
    for (let k = 0; k < envelopes.length; k++) {
      const current = next as PreparedBlock
      const expected = chunk[k] as HeaderNode
      if ('malformed' in current) {
        this.#o.onMalformedBlock(current.body, current.malformed)
        throw new PeerFault(PENALTY.malformed, `block ${expected.height}: ${current.malformed}`)
      }
      const { block, txForms } = current
      if (block.hash !== expected.hash) throw new PeerFault(PENALTY.malformed, `sent block ${block.hash.slice(0, 16)}… for requested ${expected.hash.slice(0, 16)}…`)
      this.#o.markReceived(block.hash)
      next = k + 1 < envelopes.length ? prepareBlock(frames[k + 1] as Uint8Array) : undefined
      // only a well-formed next block that is the one requested is worth checking ahead
      const ahead = next !== undefined && 'block' in next && next.block.hash === chunk[k + 1]?.hash ? next : undefined
      try {
        // the transactions' binary forms as the frame holds them: the chain hashes and stores
        // those instead of encoding the transactions again
        const result = await chain.processBlock(block, 'peer', { branchWork, txForms, next: ahead })
        if (result.status !== 'known') onBlocks(1)
      } catch (err) {
        if (!(err instanceof BlockError)) throw err
        if (BENIGN_BLOCK_ERRORS.has(err.code)) throw new SyncStop(`block ${block.height}: ${err.message}`)
        throw new PeerFault(PENALTY.invalidBlock, `invalid block ${block.height}: ${err.code} ${err.message}`)
      }
    }
    if (undecodable !== null) throw undecodable
  }
}
