// The documented container services. A plugin declares which of these it provides and
// needs in its manifest; a third-party plugin may add its own by declaration merging:
//   declare module 'ledger-node/services' { interface Services { myThing: MyThing } }
import type { Logger } from 'pino'
import type { FastifyInstance } from 'fastify'
import type { Hooks } from './hooks.ts'
import type { NodeConfig } from './config.ts'
import type { NetworkParams } from '../chain/params.ts'
import type { BeaconEvidence } from '../chain/types.ts'
import type { KvStore } from './kv.ts'
import type { ChainService } from '../chain/chain-service.ts'
import type { MempoolService } from '../chain/mempool-service.ts'
import type { Wallet } from '../chain/wallet.ts'
import type { HttpService } from './http-service.ts'
import type { AccountService, FaucetService } from './account-service.ts'
export type {
  AccountService, FaucetService, ApprovedUser, PendingSignup, BlockedRecord, Invite, ApiTokenListing, ApiTokenRecord,
  RevokedSession, DripView, FaucetState, SignupResult, ApprovalResult, TokenCreated
} from './account-service.ts'
import type { ContractAbi } from '../contracts/abi.ts'
import type { Cores } from '../cores/cores.ts'
import type { ChainFollowService } from './follow.ts'

export type NodeStatus = 'created' | 'starting' | 'running' | 'stopping' | 'stopped'

/** What a plugin may know about the node it runs in (the kernel itself is no service). */
export interface NodeInfo {
  status(): NodeStatus
  /** unix seconds */
  readonly startedAt: number
  readonly dataDir: string
  /** the enabled plugins, in start order */
  plugins(): string[]
}

/** ML-DSA-87 wallets kept by the node: `node` is the miner's, others are custodial by label. */
export interface WalletStore {
  has(label: string): boolean
  get(label: string): Wallet | undefined
  /** the wallet under `label`, created and persisted if absent */
  getOrCreate(label: string): Wallet
  /** a fresh wallet under `label`, replacing any old one (a re-signup gets a new wallet) */
  create(label: string): Wallet
  labels(): string[]
  nodeWallet(): Wallet
}

/** Bytes obtained from an entropy source, with what the attestation needs to name it. */
export interface EntropyDraw {
  bytes: Uint8Array
  /** registered source id (atomic or aggregator:<a>+<b>) of the sources that contributed */
  source: string
  device: string
  /** a fresh verified round of every beacon component of `source`, sorted by source id */
  beacons: BeaconEvidence[]
}

export interface EntropyProviderStatus {
  reachable: boolean
  host: string
  port: number
  last_fetch_at: number | null
  pool_available_bytes: number
  source: string | null
  reason: string | null
}

/** What the miner draws its proof-of-work input from. No fallback: a failure is a failure. */
export interface EntropyProvider {
  /** throws when no registered source can serve `n` bytes (the miner halts) */
  getBytes(n: number): Promise<EntropyDraw>
  status(): EntropyProviderStatus
}

export interface MinerStatus {
  enabled: boolean
  running: boolean
  blocks_mined: number
  miner_address: string
  simulation_mode: boolean
  qrng_source: string
  hash_rate: number
  halted_reason: string | null
}

export interface MinerService {
  status(): MinerStatus
  /** hashes this miner's threads computed since it started (absent: a disabled miner): a
   *  counter, so a reader gets the mean hash rate of any span from two reads */
  hashesTried?(): number
}

export interface PeerInfo {
  peer_id: string
  address: string
  version: string
  best_height: number
  connected_at: number
  /** who dialed: `outbound` this node, `inbound` the peer (absent where unknown) */
  direction?: 'inbound' | 'outbound'
}

/** bytes this node's p2p connections moved since it started (all protocols, as on the wire) */
export interface PeerTraffic {
  bytesIn: number
  bytesOut: number
}

export type SyncState = 'idle' | 'syncing' | 'synced'

export interface PeerService {
  peers(): PeerInfo[]
  syncState(): SyncState
  /** the multiaddrs this node listens on (for the startup summary) */
  listenAddresses?(): string[]
  /** how many peers the operator named to dial (--peer); 0: nobody to wait for before mining */
  bootstrapCount?(): number
  /** totals for the operator's metrics (absent where the transport does not count them) */
  traffic?(): PeerTraffic
  /** how the compact blocks this node received were rebuilt (the test bed's probe sums them) */
  compactStats?(): CompactRelayCounts
  /** what this node sent at the application level, by protocol and per recent block (operator metrics, the test bed's probe) */
  sentBytes?(): SentBytesSnapshot
}

/** What the p2p plugin counts sent bytes under: its request/response methods, each gossip
 *  topic, gossip control (subscriptions, IHAVE/IWANT/GRAFT/PRUNE/IDONTWANT), libp2p's identify
 *  and ping, and `other` (a fixed set: nothing a peer sends adds a label). */
export const SENT_BYTES_PROTOCOLS = [
  'status', 'headers', 'blocks', 'blocktxn', 'txinv', 'gettx',
  'gossip/cmpctblock', 'gossip/blocks', 'gossip/txs', 'gossip/control',
  'identify', 'identify-push', 'ping', 'other'
] as const
export type SentBytesProtocol = typeof SENT_BYTES_PROTOCOLS[number]

/** Bytes this node handed to its p2p streams since it started (noise and yamux framing not
 *  counted: PeerTraffic has those), by protocol label, and per recent block the bytes it sent to
 *  relay that block (docs/p2p.md "Sent bytes"). */
export interface SentBytesSnapshot {
  /** label → bytes (labels with nothing sent may be absent) */
  protocols: Partial<Record<SentBytesProtocol, number>>
  /** block hash → bytes (the most recent blocks only) */
  blocks: Record<string, number>
}

/** Received compact blocks by how they were rebuilt: from the mempool alone, after asking for
 *  some transactions, or from the whole block (issue 28's "no extra round trip" figure). */
export interface CompactRelayCounts { rebuilt: number; withRequest: number; wholeBlock: number }

/** The signature verify pool as the operator sees it (consensus provides it). */
export interface VerifyPoolStats {
  readonly threads: number
  /** jobs posted to the pool's threads and not yet answered */
  queueLength(): number
}

export interface NameDirectory {
  nameOf(address: string): string | null
  /** the wallet address of an approved user by name (any case), or null */
  addressOf?(name: string): string | null
}

/** ABIs of deployed contracts the node knows (compiled here, e.g. by the playground), so a
 *  reader can decode their logs */
export interface ContractAbiDirectory {
  /** 40-hex contract address (any case, optional 0x) -> its ABI, if known */
  abiAt(address: string): ContractAbi | undefined
}

export interface Services {
  // kernel
  config: NodeConfig
  logger: Logger
  hooks: Hooks
  params: NetworkParams
  /** run state, start time, data dir and plugin list: all a plugin may know of the kernel */
  node: NodeInfo
  /** this kernel's cores (config `cores`, `--core`): hash, mine, verify and run contracts with these */
  cores: Cores
  // storage
  chainDb: KvStore
  adminDb: KvStore
  wallets: WalletStore
  // chain
  chain: ChainService
  mempool: MempoolService
  verifyPool: VerifyPoolStats
  /** ordered commit / revert notifications from a durable cursor (what `ctx.follow` uses) */
  chainFollow: ChainFollowService
  // mining and entropy
  entropy: EntropyProvider
  miner: MinerService
  // networking and HTTP
  peers: PeerService
  /** server factory with the one error shape, OpenAPI, web pages, guards, session cookie */
  http: HttpService
  /** the public {base_url} server; plugins add routes during register, it listens on start */
  publicHttp: FastifyInstance
  // messenger
  /** admin state: pending queue, users, blocked names, sessions, invites, API tokens */
  accounts: AccountService
  names: NameDirectory
  /** signup drips the faucet wallet could not pay yet, paid in order as it can */
  faucet: FaucetService
  // playground
  contractAbis: ContractAbiDirectory
}
