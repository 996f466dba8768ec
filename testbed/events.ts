// The events a test bed node records about itself (testbed/probe) and the figures are computed
// from (testbed/figures). Times are milliseconds since the epoch on the node's clock; every
// node of a test bed runs on one machine, so their clocks are the same clock.
import type { CompactRelayCounts, SentBytesSnapshot } from '../core/kernel/services.ts'

export type NodeEvent =
  | { t: number; type: 'block_seen'; hash: string; height: number; parent: string; peer: string }
  | { t: number; type: 'block_relayed'; hash: string; height: number; peer: string; relay_ms: number; rebuilt: 'held' | 'request' | 'whole' }
  | { t: number; type: 'block_connected'; hash: string; height: number; parent: string; miner: string; reorg: boolean; syncing: boolean; txs: number }
  | { t: number; type: 'block_disconnected'; hash: string; height: number }
  | { t: number; type: 'block_mined'; hash: string; height: number }
  | { t: number; type: 'block_found'; hash: string; height: number }
  | { t: number; type: 'block_rejected'; hash: string; code: string }
  | { t: number; type: 'reorg'; disconnected: number; connected: number; fork_height: number; to_height: number }
  | { t: number; type: 'tx_seen'; id: string; peer: string }
  /** `bytes`: its binary (wire) form's (absent in recordings before the sent-bytes figures) */
  | { t: number; type: 'tx_admitted'; id: string; bytes?: number }
  | { t: number; type: 'tx_removed'; id: string; reason: string }
  | { t: number; type: 'peer_connected'; peer: string; address: string }
  | { t: number; type: 'peer_disconnected'; peer: string; address: string }

export type NodeEventType = NodeEvent['type']

/** What the probe answers at GET /state. */
export interface ProbeState {
  pid: number
  height: number
  hash: string
  work: string
  sync_state: string | null
  peers: Array<{ peer_id: string; address: string }>
  mempool: number
  mining: boolean
  hash_rate: number
  /** hashes the miner computed since this process started (MinerService.hashesTried; 0: not mining) */
  hashes: number
  blocks_mined: number
  /** received compact blocks by how they were rebuilt (null: the peers service does not count them) */
  compact: CompactRelayCounts | null
}

/** What GET /sent answers: the node's own count of what it sent (null: its p2p plugin does not count). */
export type ProbeSent = SentBytesSnapshot | null

/** A main-chain block as GET /chain lists it. */
export interface ChainBlock {
  height: number
  hash: string
  previous_hash: string
  timestamp: number
  miner: string
  txids: string[]
  /** its binary (wire) form's bytes, and its transactions' (coinbase not counted) (absent in recordings before issue 28) */
  bytes?: number
  txBytes?: number
}
