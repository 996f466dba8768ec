// Everything a test bed run recorded, the one input of the figures (pure functions over it,
// so a third party computes them again from report.json's `recording`).
import type { ChainBlock, NodeEvent } from '../events.ts'
import type { CompactRelayCounts, SentBytesSnapshot } from '../../core/kernel/services.ts'

export interface Mark { t: number; kind: 'partition' | 'heal' | 'kill' | 'restart' | 'mining' | 'links' | 'rogue' | 'load' | 'start' | 'end'; label: string; nodes?: number[]; peer?: string }

/** a node's hash count at `t` (ms): hashes its miner computed since the node first started,
 *  added up over its restarts */
export interface HashSample { t: number; hashes: number }

export interface NodeRecord {
  index: number
  miner: boolean
  /** the node's own p2p port: a peer connection from or to it bypassed the relays */
  p2pPort: number
  events: NodeEvent[]
  samples: Array<{ t: number; rssBytes: number; cpuSeconds: number }>
  exits: Array<{ t: number; code: number | null; signal: string | null; expected: boolean }>
  bytesSent: number
  /** hash rate the miner reported last (hashes/s), 0 when not mining */
  hashRate: number
  /** the hash count every poll (absent in recordings before the probe read it): the measured
   *  hash rate of any span (figures/hashrate.ts) */
  hashes?: HashSample[]
  /** received compact blocks by how they were rebuilt, over all its processes (absent in recordings before issue 28) */
  compact?: CompactRelayCounts
  /** what the node counted it sent at the application level (by protocol, and per block: the blocks it
   *  still remembered when last read), over all its processes (absent in recordings before these counts) */
  sent?: SentBytesSnapshot
}

export interface Recording {
  scenario: string
  targetSeconds: number
  /** the links' one-way latency at the start (ms; a `links` step may change it later; absent in early recordings) */
  latencyMs?: number
  start: number
  end: number
  nodes: NodeRecord[]
  /** [dialer, listener] pairs */
  links: Array<[number, number]>
  marks: Mark[]
  /** the main chain of the node with the most work at the end, from genesis */
  finalChain: ChainBlock[]
  /** transaction ids pending in any node's mempool at the end */
  pending: string[]
  /** how late the links' thread ran its timers during the run (ms): every link delay is only
   *  as exact as this (absent in recordings before it was measured) */
  loopLagMs?: { p50: number; p99: number; max: number }
}
