// The `peers` service: a libp2p node that handshakes with peers of the same chain, gossips
// blocks and transactions, serves and runs header-first sync, and drops peers that misbehave.
import path from 'node:path'
import { isIP } from 'node:net'
import type { Logger } from 'pino'
import type { PeerId } from '@libp2p/interface'
import type { Hooks } from '../../core/kernel/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'
import { DEFAULT_SHA3_CORE } from '../../core/crypto/sha3.ts'
import type { MldsaCore } from '../../core/crypto/mldsa.ts'
import { DEFAULT_MLDSA_CORE } from '../../core/crypto/mldsa.ts'
import type { PeerInfo, PeerService, PeerTraffic, SentBytesSnapshot, SyncState } from '../../core/kernel/services.ts'
import { TrafficMeter } from './traffic-meter.ts'
import { SentBytes } from './sent-bytes.ts'
import { announcedBlockHash } from './compact.ts'
import { loadOrCreateIdentity } from './identity.ts'
import { createLibp2pNode } from './libp2p-node.ts'
import type { LedgerLibp2p } from './libp2p-node.ts'
import { hostPort, parsePeerAddress } from './address.ts'
import { Misbehaviour, PENALTY } from './misbehaviour.ts'
import type { Ban } from './misbehaviour.ts'
import { PeerTable } from './peer-table.ts'
import { ReqRespClient, registerHandlers, RequestTimeoutError } from './reqresp.ts'
import { blocksByHash, headersAfter, ourStatus } from './chain-server.ts'
import { Gossip } from './gossip.ts'
import { Syncer } from './sync.ts'
import { Redialer } from './redialer.ts'
import { Slots } from './slots.ts'
import { TokenBuckets } from './token-bucket.ts'
import { TxRefusalScore } from './tx-refusal-score.ts'
import { ConnectionSlots, slotLimits } from './connection-slots.ts'
import type { SlotConnection } from './connection-slots.ts'
import { ipOf } from './netgroup.ts'
import { topics, WireError } from './protocol.ts'
import { RecentTxs, TxRelay } from './tx-relay.ts'
import { ReportLimiter } from './peer-budget.ts'
import type { CompactStats, Refusal } from './gossip.ts'
import { BlockErrorCode } from '../../core/chain/errors.ts'
import { protocolOfVersion } from '../../core/kernel/version.ts'
import type { StatusMessage } from './protocol.ts'

export interface P2pSettings {
  host: string
  port: number
  /** bootstrap peers: host:port or multiaddrs */
  peers: string[]
  maxPeers: number
  banSeconds: number
  statusIntervalMs: number
  requestTimeoutMs: number
  progressIntervalMs: number
  redialIntervalMs: number
  redialMaxMs: number
  headersPerRequest: number
  blocksPerRequest: number
}

export interface P2pOptions extends P2pSettings {
  params: NetworkParams
  chain: ChainService
  mempool: MempoolService | undefined
  hooks: Hooks
  logger: Logger
  dataDir: string
  /** the kernel's PoW core (its `cores.pow`) */
  powCore: PowCore
  /** the kernel's SHA3 and ML-DSA cores (the envelope checks before a block is relayed); defaults otherwise */
  verifyCores?: { sha3: Sha3Core; mldsa: MldsaCore }
  version: string
  signal: AbortSignal
}

export const BANS_FILE = 'p2p-bans.json'
/** how long before redialing a bootstrap peer that turned out to serve another chain */
const OTHER_NETWORK_HOLDOFF_MS = 10 * 60_000
/** blocks responses served at once across all peers (each at most its byte budget plus a block) */
const CONCURRENT_BLOCK_RESPONSES = 8
/**
 * Headers served per peer, in headers (a request costs what it asks for, at least
 * HEADERS_MIN_COST): a burst of 10 full requests, then 2 full requests a second. An honest
 * syncer asks for the next 2,000 while the last batch's bodies download, far below this.
 */
export const HEADERS_RATE = { capacity: 20_000, refillPerSecond: 4_000 } as const
const HEADERS_MIN_COST = 100
/** how long a peer may leave a response of ours unread before it loses the stream (and its serving slot) */
const MAX_DRAIN_MS = 5_000
/** how long a new peer may take to tell us its gossip subscriptions */
const SUBSCRIPTION_WAIT_MS = 5_000
/** what one peer may make us log and raise as node events: 5 at once, then one every 10 s */
export const REPORT_RATE = { capacity: 5, refillPerSecond: 0.1 } as const
/** status requests an orphan block may trigger per peer: one at once, then one every 2 s */
export const ORPHAN_STATUS_RATE = { capacity: 1, refillPerSecond: 0.5 } as const
/**
 * connections libp2p accepts beyond maxPeers: room for an inbound newcomer to reach the gater,
 * which evicts an inbound peer for it (ConnectionSlots); libp2p's pruner acts only past this
 */
const EVICTION_HEADROOM = 4
/** peer-store tag that keeps the connections this node dialed out of libp2p's pruning */
const OUTBOUND_TAG = 'ledger-outbound'

export class P2p implements PeerService {
  readonly #o: P2pOptions
  readonly table = new PeerTable()
  readonly misbehaviour: Misbehaviour
  readonly #bootstrap
  readonly #abort = new AbortController()
  #node: LedgerLibp2p | null = null
  #client: ReqRespClient | null = null
  #gossip: Gossip | null = null
  #syncer: Syncer | null = null
  #redialer: Redialer | null = null
  #statusTimer: NodeJS.Timeout | null = null
  readonly #handshaking = new Set<string>()
  readonly #refreshing = new Set<string>()
  readonly #servingBlocks = new Slots(CONCURRENT_BLOCK_RESPONSES)
  readonly #recentTxs = new RecentTxs()
  #txRelay: TxRelay | null = null
  readonly #reports = new ReportLimiter(REPORT_RATE)
  readonly #orphanStatus = new TokenBuckets(ORPHAN_STATUS_RATE)
  #orphanRefreshes = 0
  /** what this node hands its streams, by protocol and per block (sent-bytes.ts) */
  readonly #sent: SentBytes
  readonly #traffic: TrafficMeter
  readonly #headersBudget = new TokenBuckets(HEADERS_RATE)
  /** one budget of free stale refusals per peer, whichever way its transactions came (gossip or inv/getdata) */
  readonly #txRefusalScore = new TxRefusalScore()
  /** the IP each connected peer id was seen at (scores and bans are kept by address too) */
  readonly #addressOf = new Map<string, string>()
  readonly slots: ConnectionSlots

  constructor (o: P2pOptions) {
    this.#o = o
    if (isIP(o.host) === 0) throw new Error(`p2p.host must be an IP address (got '${o.host}')`)
    this.#bootstrap = o.peers.map(parsePeerAddress)
    this.#sent = new SentBytes({ params: o.params, announcedBlock: (data) => announcedBlockHash(data, o.powCore) })
    this.#traffic = new TrafficMeter(this.#sent)
    this.misbehaviour = new Misbehaviour({
      file: path.join(o.dataDir, BANS_FILE),
      banSeconds: o.banSeconds,
      onBan: (peerId, reason) => { this.#onBan(peerId, reason) },
      onPersistError: (err) => { o.logger.warn({ err: err.message, code: err.code }, 'cannot write the ban list; bans are kept in memory') }
    })
    this.slots = new ConnectionSlots(slotLimits(o.maxPeers), {
      connections: () => this.#connections(),
      usefulness: (peerId) => {
        const r = this.table.get(peerId)
        return { pingMs: r?.pingMs ?? Infinity, lastBlockAt: r?.lastBlockAt ?? 0, lastTxAt: r?.lastTxAt ?? 0, protected: this.#redialer?.isBootstrap(peerId) === true }
      },
      close: async (id) => { await this.#node?.getConnections().find((c) => c.id === id)?.close({ signal: AbortSignal.timeout(1000) }) },
      isBanned: (peerId) => this.misbehaviour.isBanned(peerId),
      isAddressBanned: (ip) => this.misbehaviour.isAddressBanned(ip)
    })
    o.signal.addEventListener('abort', () => this.#abort.abort(), { once: true })
    // Taps are registered once, here; they do nothing until the node runs.
    // our miner's block the moment it is found; any other new tip block (a peer's, relayed
    // by gossipsub itself, or one handed to the node) once connected
    o.hooks.blockFound.tap('p2p', (block) => { this.#gossip?.announceBlock(block) })
    o.hooks.blockConnected.tap('p2p', ({ block, reorg, syncing }) => { if (!reorg && !syncing) this.#gossip?.announceBlock(block) })
    o.hooks.txAdmitted.tap('p2p', (tx) => { this.#txRelay?.announce(tx) })
    // what left the mempool may still be in the next compact block
    o.hooks.txRemoved.tap('p2p', ({ tx }) => { this.#recentTxs.add(tx) })
  }

  // ---- PeerService

  peers (): PeerInfo[] { return this.table.list() }

  traffic (): PeerTraffic { return this.#traffic.totals() }
  sentBytes (): SentBytesSnapshot { return this.#sent.snapshot() }
  /** status requests orphan blocks made this node send (within ORPHAN_STATUS_RATE per peer) */
  orphanStatusRequests (): number { return this.#orphanRefreshes }
  /** how received compact blocks were rebuilt: alone, with a blocktxn request, or whole (test bed, tests) */
  compactStats (): CompactStats { return { ...(this.#gossip?.stats ?? { rebuilt: 0, withRequest: 0, wholeBlock: 0 }) } }

  syncState (): SyncState {
    if (this.table.size === 0) return 'idle'
    return this.#syncer?.active === true ? 'syncing' : 'synced'
  }

  bootstrapCount (): number { return this.#bootstrap.length }

  // ---- extras for the operator surfaces and tests

  get peerId (): string | null { return this.#node?.peerId.toString() ?? null }
  /** the multiaddrs peers can dial, each ending in /p2p/<peer id> */
  listenAddresses (): string[] { return this.#node?.getMultiaddrs().map(String) ?? [] }
  /** the TCP port actually bound (differs from the setting when it is 0) */
  listenPort (): number | null {
    const ma = this.#node?.getMultiaddrs()[0]
    const port = ma?.getComponents().find((c) => c.name === 'tcp')?.value
    return port === undefined ? null : Number(port)
  }

  bans (): Ban[] { return this.misbehaviour.bans() }
  /** the open connections as the slot rules count them */
  slotConnections (): SlotConnection[] { return this.#connections() }
  score (peerId: string): number { return this.misbehaviour.score(peerId) }
  /** resolves when no sync round is running */
  async syncIdle (): Promise<void> { await this.#syncer?.idle() }

  /** Dials an address now (host:port or multiaddr); resolves once connected. */
  async connect (address: string): Promise<string> {
    if (this.#node === null) throw new Error('p2p node is not running')
    const conn = await this.#node.dial(parsePeerAddress(address), { signal: AbortSignal.timeout(this.#o.requestTimeoutMs) })
    return conn.remotePeer.toString()
  }

  async disconnect (peerId: string): Promise<void> {
    const node = this.#node
    if (node === null) return
    const peer = node.getPeers().find((p) => p.toString() === peerId)
    if (peer !== undefined) await node.hangUp(peer)
  }

  // ---- lifecycle

  async start (): Promise<void> {
    const o = this.#o
    const identity = await loadOrCreateIdentity(o.dataDir)
    if (identity.created) o.logger.info({ file: identity.file }, 'created a new peer identity')
    const ip = isIP(o.host) === 6 ? 'ip6' : 'ip4'
    let node: LedgerLibp2p
    try {
      node = await createLibp2pNode({
        privateKey: identity.privateKey,
        listen: [`/${ip}/${o.host}/tcp/${o.port}`],
        maxConnections: o.maxPeers + EVICTION_HEADROOM,
        isBanned: (id) => this.misbehaviour.isBanned(id),
        metrics: this.#traffic.libp2pMetrics(),
        slots: this.slots
      })
    } catch (err) {
      // libp2p reports a taken port as a generic listen failure; find the errno so the kernel
      // can print the same one-line explanation as for every other listener
      throw await listenErrorOf(o.host, o.port) ?? err
    }
    this.#node = node
    const onRequestSent = this.#sent.requestSent.bind(this.#sent)
    const onResponseSent = this.#sent.responseSent.bind(this.#sent)
    const client = new ReqRespClient({ node, params: o.params, timeoutMs: o.requestTimeoutMs, onRequestSent })
    this.#client = client
    const maxTxBytes = o.params.maxTxBytes
    const txRelay = o.mempool === undefined
      ? null
      : new TxRelay({
        mempool: o.mempool,
        client: { txinv: (peerId, inv) => client.txinv(peerId, inv), gettx: (peerId, ids) => client.gettx(peerId, ids, maxTxBytes) },
        recent: this.#recentTxs,
        peers: () => this.table.all().map((p) => p.peerId),
        penalize: (peerId, points, reason) => { this.penalize(peerId, points, reason) },
        refusalPoints: (peerId, cls) => this.#txRefusalScore.points(peerId, cls),
        onPeerTx: (peerId) => { this.#notePeerTx(peerId) },
        // first arrival of a transaction from a peer, before any rule (the test bed's clock)
        onTxReceived: (id, peerId) => { o.hooks.peerItemReceived.call({ kind: 'tx', id, peerId }) },
        logger: o.logger,
        maxTxBytes
      })
    this.#txRelay = txRelay
    await registerHandlers({ node, params: o.params, timeoutMs: o.requestTimeoutMs, drainMs: Math.min(o.requestTimeoutMs / 2, MAX_DRAIN_MS), onResponseSent }, {
      status: (remote, peerId) => this.#onStatusRequest(remote, peerId),
      headers: async (req, peerId) => {
        if (!this.#headersBudget.take(peerId, Math.max(req.max, HEADERS_MIN_COST))) {
          this.penalize(peerId, PENALTY.headersFlood, 'headers requests over the rate')
          return null
        }
        return await headersAfter(o.chain, req)
      },
      blocks: (req) => this.#servingBlocks.hold(() => blocksByHash(o.chain, req, undefined, (hash) => this.#gossip?.heldBlockBinary(hash))),
      blocktxn: async (req) => await (this.#gossip?.blockTxn(req) ?? []),
      txinv: (inv, peerId) => { if (this.table.has(peerId)) txRelay?.onInv(peerId, inv) },
      gettx: (ids, peerId) => txRelay?.serve(peerId, ids) ?? ids.map(() => new Uint8Array(0)),
      misbehaved: (peerId, reason) => { this.penalize(peerId, PENALTY.malformed, reason) },
      unread: (peerId, method) => { this.penalize(peerId, PENALTY.unreadResponse, `did not read its ${method} response`) }
    })
    const syncer = new Syncer({
      params: o.params,
      chain: o.chain,
      powCore: o.powCore,
      logger: o.logger,
      table: this.table,
      client,
      penalize: (peerId, points, reason) => { this.penalize(peerId, points, reason) },
      markReceived: (hash) => { this.#gossip?.fromPeers.add(hash) },
      onMalformedBlock: (value, reason) => { this.#malformedBlock(value, reason) },
      signal: this.#abort.signal,
      progressIntervalMs: o.progressIntervalMs,
      headersPerRequest: o.headersPerRequest,
      blocksPerRequest: o.blocksPerRequest,
      // half a request's time without a block: the miner need not wait for the timeout
      stallMs: Math.min(o.requestTimeoutMs / 2, 10_000)
    })
    this.#syncer = syncer
    const gossip = new Gossip({
      pubsub: node.services.pubsub,
      topics: topics(o.params),
      params: o.params,
      chain: o.chain,
      mempool: o.mempool,
      cores: { pow: o.powCore, sha3: o.verifyCores?.sha3 ?? DEFAULT_SHA3_CORE, mldsa: o.verifyCores?.mldsa ?? DEFAULT_MLDSA_CORE },
      client: { blocktxn: (peerId, req) => client.blocktxn(peerId, req, maxTxBytes), blocks: (peerId, hashes) => client.blocks(peerId, hashes) },
      recent: this.#recentTxs,
      logger: o.logger,
      penalize: (peerId, points, reason) => { this.penalize(peerId, points, reason) },
      refusalPoints: (peerId, cls) => this.#txRefusalScore.points(peerId, cls),
      isBanned: (peerId) => this.misbehaviour.isBanned(peerId),
      report: (peerId, refusal) => { this.#report(peerId, refusal) },
      onPeerBlock: (peerId, block, work) => { this.table.noteBlock(peerId, block.height, block.hash, work) },
      onPeerTx: (peerId) => { this.#notePeerTx(peerId) },
      // first arrival of a block (compact or whole) from a peer, once its work is checked
      onBlockReceived: (hash, peerId) => { o.hooks.peerItemReceived.call({ kind: 'block', id: hash, peerId }) },
      onBlockRelayed: (relayed) => { o.hooks.blockRelayed.call(relayed) },
      // an orphan's status request back is rate-limited per peer: junk cannot make us ask
      onOrphan: (peerId) => {
        if (!this.#orphanStatus.take(peerId, 1)) return
        this.#orphanRefreshes++
        void this.#refresh(peerId)
      }
    })
    this.#gossip = gossip
    node.addEventListener('connection:open', (e) => {
      const conn = e.detail
      const ip = ipOf(conn.remoteAddr)
      const id = conn.remotePeer.toString()
      if (ip !== undefined) this.#addressOf.set(id, ip)
      // the peers this node chose itself keep their slots when libp2p prunes
      if (conn.direction === 'outbound') node.peerStore.merge(conn.remotePeer, { tags: { [OUTBOUND_TAG]: { value: 100 } } }).catch(() => undefined)
    })
    node.addEventListener('peer:connect', (e) => { void this.#handshake(e.detail) })
    node.addEventListener('peer:disconnect', (e) => { this.#onDisconnect(e.detail.toString()) })
    await node.start()
    gossip.start()
    o.logger.info({ peerId: node.peerId.toString(), addresses: this.listenAddresses() }, 'p2p listening')

    this.#redialer = new Redialer({ node, addrs: this.#bootstrap, logger: o.logger, intervalMs: o.redialIntervalMs, maxBackoffMs: o.redialMaxMs })
    this.#redialer.start()
    this.#statusTimer = setInterval(() => { this.#pollStatus() }, o.statusIntervalMs)
    this.#statusTimer.unref()
  }

  async stop (): Promise<void> {
    this.#abort.abort()
    this.#redialer?.stop()
    if (this.#statusTimer !== null) clearInterval(this.#statusTimer)
    this.#gossip?.stop()
    this.#txRelay?.stop()
    await this.#node?.stop()
    await this.#syncer?.idle()
    await this.misbehaviour.flush()
  }

  // ---- peers

  penalize (peerId: string, points: number, reason: string): void {
    const banned = this.misbehaviour.penalize(peerId, points, reason, this.#addressOf.get(peerId))
    if (!banned) this.#o.logger.debug({ peer: peerId, points, score: this.misbehaviour.score(peerId), reason }, 'peer penalized')
  }

  #onBan (peerId: string, reason: string): void {
    this.#o.logger.warn({ peer: peerId, reason, seconds: this.#o.banSeconds }, 'peer banned')
    this.#redialer?.holdOff(peerId, this.#o.banSeconds * 1000)
    void this.disconnect(peerId).catch(() => undefined)
    // an address ban drops every other id connected from there too
    const ip = this.#addressOf.get(peerId)
    if (ip === undefined || !this.misbehaviour.isAddressBanned(ip)) return
    for (const c of this.#node?.getConnections() ?? []) {
      if (ipOf(c.remoteAddr) === ip) void c.close({ signal: AbortSignal.timeout(1000) }).catch(() => undefined)
    }
  }

  #status (): StatusMessage { return ourStatus(this.#o.chain, this.#o.version) }

  /** a peer's transaction was admitted: it is useful (eviction protects it) */
  #notePeerTx (peerId: string): void {
    const r = this.table.get(peerId)
    if (r !== undefined) r.lastTxAt = Date.now()
  }

  /** A peer's refused block or transaction: a WARN line and (a block) a node event, at REPORT_RATE per peer. */
  #report (peerId: string, r: Refusal): void {
    const held = this.#reports.admit(peerId)
    if (held === undefined) return
    this.#o.logger.warn({ peer: peerId, hash: r.hash.slice(0, 16), code: r.code, suppressed: held }, `rejected from peer: ${r.reason}`)
    if (r.block) this.#o.hooks.blockRejected.call({ hash: r.hash.slice(0, 128), code: r.code, reason: r.reason, origin: 'peer' })
  }

  /** Why a peer's status rules it out of this network, or null when it is one of ours. */
  #incompatible (s: StatusMessage): string | null {
    // checked first: another protocol's blocks and headers would only fail our rules one by one
    const protocol = protocolOfVersion(s.version)
    const ours = protocolOfVersion(this.#o.version)
    if (protocol !== ours) return `protocol version ${protocol ?? `unknown ("${s.version.slice(0, 16)}")`}, ours ${ours ?? 'unknown'}`
    if (s.chain_id !== this.#o.params.chainId) return `chain id ${s.chain_id}, ours ${this.#o.params.chainId}`
    if (s.genesis_hash !== this.#o.chain.genesisHash()) return 'different genesis block'
    return null
  }

  #onStatusRequest (remote: StatusMessage, peerId: string): StatusMessage {
    if (this.#incompatible(remote) === null) {
      this.table.noteStatus(peerId, remote)
      if (this.table.has(peerId)) this.#syncer?.trigger()
    }
    // An incompatible peer still gets our status, so it learns why and hangs up itself.
    return this.#status()
  }

  async #handshake (peer: PeerId): Promise<void> {
    const id = peer.toString()
    const node = this.#node
    const client = this.#client
    if (node === null || client === null || this.table.has(id) || this.#handshaking.has(id)) return
    this.#handshaking.add(id)
    try {
      const remote = await client.status(id, this.#status())
      const why = this.#incompatible(remote)
      if (why !== null) {
        this.#o.logger.info({ peer: id, reason: why }, 'peer is on another chain; disconnecting')
        this.#redialer?.holdOff(id, OTHER_NETWORK_HOLDOFF_MS)
        await node.hangUp(peer)
        return
      }
      // A peer counts once we also know its gossip subscriptions: what we announce from then
      // on (a transaction orphaned by the sync this handshake starts, say) reaches it.
      await this.#subscribed(id)
      const conn = node.getConnections(peer).find((c) => c.status === 'open')
      if (conn === undefined || this.table.has(id)) return
      const address = hostPort(conn.remoteAddr)
      this.table.add(id, address, remote, Date.now() / 1000, conn.direction)
      this.#syncer?.forget(id)
      this.#o.logger.info({ peer: id, address, version: remote.version, height: remote.best_height }, 'peer connected')
      this.#o.hooks.peerConnected.call({ peerId: id, address })
      this.#syncer?.trigger()
    } catch (err) {
      if (this.#abort.signal.aborted) return
      const name = (err as Error).name
      if (name === 'UnsupportedProtocolError') {
        // no ledger protocol of our network magic: another network or not a ledger node
        this.#o.logger.info({ peer: id }, 'peer does not speak this network\'s protocol; disconnecting')
        this.#redialer?.holdOff(id, OTHER_NETWORK_HOLDOFF_MS)
      } else {
        if (err instanceof WireError) this.penalize(id, PENALTY.malformed, `status: ${err.message}`)
        this.#o.logger.debug({ peer: id, err: (err as Error).message }, 'handshake failed')
      }
      await node.hangUp(peer).catch(() => undefined)
    } finally {
      this.#handshaking.delete(id)
    }
  }

  /**
   * Resolves when the peer subscribed to our topics, or after a few seconds (it may not gossip).
   * Woken by gossipsub's subscription events (which it sends once it updated its subscribers),
   * not polled: the sync a handshake starts waits on this.
   */
  async #subscribed (id: string): Promise<void> {
    const pubsub = this.#node?.services.pubsub
    if (pubsub === undefined) return
    const wanted = Object.values(topics(this.#o.params))
    const subscribed = (): boolean => wanted.every((topic) => pubsub.getSubscribers(topic).some((p) => p.toString() === id))
    if (subscribed() || this.#abort.signal.aborted) return
    const signal = this.#abort.signal
    const { promise, resolve } = Promise.withResolvers<void>()
    const onChange = (e: CustomEvent<{ peerId: PeerId }>): void => { if (e.detail.peerId.toString() === id && subscribed()) resolve() }
    const timer = setTimeout(resolve, SUBSCRIPTION_WAIT_MS)
    pubsub.addEventListener('subscription-change', onChange)
    const onAbort = (): void => { resolve() }
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      await promise
    } finally {
      clearTimeout(timer)
      pubsub.removeEventListener('subscription-change', onChange)
      signal.removeEventListener('abort', onAbort)
    }
  }

  /** A peer's block refused before the chain saw it: announced like the chain's own refusals. */
  #malformedBlock (value: unknown, reason: string): void {
    const claimed = value !== null && typeof value === 'object' ? (value as { hash?: unknown }).hash : undefined
    const hash = typeof claimed === 'string' ? claimed.slice(0, 128) : ''
    this.#o.hooks.blockRejected.call({ hash, code: BlockErrorCode.BAD_FORMAT, reason, origin: 'peer' })
  }

  #connections (): SlotConnection[] {
    return (this.#node?.getConnections() ?? []).filter((c) => c.status === 'open').map((c) => ({
      id: c.id, peerId: c.remotePeer.toString(), remoteAddr: c.remoteAddr, direction: c.direction, openedAt: c.timeline.open
    }))
  }

  #onDisconnect (id: string): void {
    this.#addressOf.delete(id)
    this.#txRelay?.forget(id)
    const record = this.table.remove(id)
    if (record === undefined) return
    this.#o.logger.info({ peer: id, address: record.address }, 'peer disconnected')
    this.#o.hooks.peerDisconnected.call({ peerId: id, address: record.address })
  }

  /** Asks one peer for its status; a peer that cannot answer in time is dropped. */
  async #refresh (id: string): Promise<void> {
    const client = this.#client
    if (client === null || !this.table.has(id) || this.#refreshing.has(id)) return
    this.#refreshing.add(id)
    try {
      const started = performance.now()
      const s = await client.status(id, this.#status())
      if (this.#incompatible(s) !== null) { await this.disconnect(id); return }
      const record = this.table.get(id)
      if (record !== undefined) record.pingMs = performance.now() - started
      this.table.noteStatus(id, s)
      this.#syncer?.trigger()
    } catch (err) {
      if (this.#abort.signal.aborted) return
      if (err instanceof WireError) this.penalize(id, PENALTY.malformed, `status: ${err.message}`)
      else if (err instanceof RequestTimeoutError) {
        this.#o.logger.info({ peer: id }, 'peer stopped answering; disconnecting')
        await this.disconnect(id).catch(() => undefined)
      } else this.#o.logger.debug({ peer: id, err: (err as Error).message }, 'status request failed')
    } finally {
      this.#refreshing.delete(id)
    }
  }

  #pollStatus (): void {
    for (const p of this.table.all()) void this.#refresh(p.peerId)
  }
}

/** The bind error (EADDRINUSE, EACCES, ...) that host:port gives right now, if any. */
async function listenErrorOf (host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  if (port === 0) return undefined
  const { createServer } = await import('node:net')
  return await new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', (err: NodeJS.ErrnoException) => { resolve(Object.assign(err, { address: host, port })) })
    probe.listen(port, host, () => { probe.close(() => resolve(undefined)) })
  })
}
