// The operator's metrics beyond SPEC's nine gauges (docs/dashboard.md, "Metrics"): block
// connect time, reorgs, stale and rejected blocks, peers by direction, p2p bytes, mempool bytes
// and minimum fee, the verify pool's queue, RocksDB sizes and the miner's hash rate. Events come
// from the hook catalogue; levels are read from services at scrape time. Names follow
// Prometheus' conventions: `ledger_` prefix, base units in the name, `_total` for counters.
import { Counter, Gauge, Histogram } from 'prom-client'
import type { Registry } from 'prom-client'
import type { HookCatalogue } from '../../core/kernel/hooks.ts'
import type { KvStore } from '../../core/kernel/kv.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import { SENT_BYTES_PROTOCOLS } from '../../core/kernel/services.ts'
import type { MinerService, PeerService, VerifyPoolStats } from '../../core/kernel/services.ts'
import { entropyEvidenceOf } from '../../core/chain/entropy-evidence.ts'
import { BlockErrorCode } from '../../core/chain/errors.ts'

/** label values come from fixed sets only, so nothing a peer sends can grow the scrape */
const REJECTION_CODES: ReadonlySet<string> = new Set(Object.values(BlockErrorCode))

export interface OperatorMetricSources {
  hooks: HookCatalogue
  mempool: MempoolService
  /** the network's minimum fee (coin): what a transaction must pay to be admitted */
  minFeeCoin: number
  peers(): PeerService | undefined
  miner(): MinerService | undefined
  verifyPool(): VerifyPoolStats | undefined
  /** the node's databases by name (`chain`, `admin`); one not loaded is skipped */
  stores(): Array<{ db: string; store: KvStore | undefined }>
  /** unix seconds (tests pin it) */
  now?: () => number
}

/** every metric name this file registers, for the docs and the Grafana board's test */
export const OPERATOR_METRICS = [
  'ledger_block_connect_seconds',
  'ledger_block_timestamp_lag_seconds',
  'ledger_blocks_connected_total',
  'ledger_blocks_rejected_total',
  'ledger_reorgs_total',
  'ledger_reorg_depth_blocks',
  'ledger_stale_blocks_total',
  'ledger_peers',
  'ledger_p2p_received_bytes_total',
  'ledger_p2p_sent_bytes_total',
  'ledger_p2p_protocol_sent_bytes_total',
  'ledger_mempool_bytes',
  'ledger_mempool_capacity',
  'ledger_mempool_min_fee',
  'ledger_mempool_min_fee_bohm_per_byte',
  'ledger_verify_pool_queue_length',
  'ledger_verify_pool_threads',
  'ledger_db_size_bytes',
  'ledger_miner_hashes_per_second'
] as const

const DB_SIZE_KINDS = [
  ['live_sst', 'liveFilesBytes'],
  ['total_sst', 'totalFilesBytes'],
  ['live_data_estimate', 'liveDataBytes'],
  ['memtables', 'memtableBytes']
] as const

export function registerOperatorMetrics (registry: Registry, src: OperatorMetricSources): void {
  const registers = [registry]
  const now = src.now ?? (() => Date.now() / 1000)

  const connect = new Histogram({
    name: 'ledger_block_connect_seconds',
    help: 'time the chain took to connect a block: state, signature verdicts and the write',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers
  })
  const lag = new Histogram({
    name: 'ledger_block_timestamp_lag_seconds',
    help: "when this node connected a block minus the block's own timestamp (miner's search after stamping, relay, validation, clock skew); blocks of initial sync excluded",
    buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
    registers
  })
  const connected = new Counter({
    name: 'ledger_blocks_connected_total',
    help: 'blocks connected to the main chain, by what their entropy attestation proves (docs/entropy.md)',
    labelNames: ['evidence'] as const,
    registers
  })
  const rejected = new Counter({ name: 'ledger_blocks_rejected_total', help: 'blocks refused, by BLOCK_ERROR_* code (other: a code outside that set)', labelNames: ['code'] as const, registers })
  const reorgs = new Counter({ name: 'ledger_reorgs_total', help: 'chain reorganizations', registers })
  const depth = new Histogram({
    name: 'ledger_reorg_depth_blocks',
    help: 'blocks a reorganization disconnected from the main chain',
    buckets: [1, 2, 3, 5, 10, 20, 50, 100],
    registers
  })
  const stale = new Counter({ name: 'ledger_stale_blocks_total', help: 'blocks disconnected from the main chain (orphaned by a reorg)', registers })

  src.hooks.blockConnected.tap('dashboard:metrics', (e) => {
    if (e.connectSeconds !== undefined) connect.observe(e.connectSeconds)
    if (!e.syncing) lag.observe(Math.max(0, now() - e.block.timestamp))
    connected.inc({ evidence: entropyEvidenceOf(e.block.quantum_signature) })
  })
  src.hooks.blockRejected.tap('dashboard:metrics', (e) => { rejected.inc({ code: REJECTION_CODES.has(e.code) ? e.code : 'other' }) })
  src.hooks.reorg.tap('dashboard:metrics', (e) => {
    reorgs.inc()
    depth.observe(e.disconnected)
  })
  src.hooks.blockDisconnected.tap('dashboard:metrics', () => { stale.inc() })

  const peers: Gauge<'direction'> = new Gauge({
    name: 'ledger_peers',
    help: 'connected peers by who dialed (unknown where the p2p plugin does not say)',
    labelNames: ['direction'] as const,
    registers,
    collect () {
      const counts = { inbound: 0, outbound: 0, unknown: 0 }
      for (const p of src.peers()?.peers() ?? []) counts[p.direction ?? 'unknown']++
      for (const [direction, n] of Object.entries(counts)) peers.set({ direction }, n)
    }
  })
  // counters whose running total another component keeps: set to it at scrape time
  const trafficCounter = (name: string, help: string, read: () => number | undefined): void => {
    const c: Counter = new Counter({
      name,
      help,
      registers,
      collect () {
        const v = read()
        c.reset()
        if (v !== undefined) c.inc(v)
      }
    })
  }
  trafficCounter('ledger_p2p_received_bytes_total', 'bytes received on p2p connections (TCP payload: noise and yamux framing included)', () => src.peers()?.traffic?.().bytesIn)
  trafficCounter('ledger_p2p_sent_bytes_total', 'bytes sent on p2p connections (TCP payload: noise and yamux framing included)', () => src.peers()?.traffic?.().bytesOut)
  const byProtocol: Counter<'protocol'> = new Counter({
    name: 'ledger_p2p_protocol_sent_bytes_total',
    help: 'bytes this node handed its p2p streams, by protocol: request/response methods, gossip/<topic>, gossip/control, identify, ping (noise and yamux framing not included)',
    labelNames: ['protocol'] as const,
    registers,
    collect () {
      const sent = src.peers()?.sentBytes?.().protocols ?? {}
      byProtocol.reset()
      for (const protocol of SENT_BYTES_PROTOCOLS) byProtocol.inc({ protocol }, sent[protocol] ?? 0)
    }
  })

  const level = (name: string, help: string, read: () => number): void => {
    const g: Gauge = new Gauge({ name, help, registers, collect () { g.set(read()) } })
  }
  level('ledger_mempool_bytes', 'bytes of all pending transactions (their wire size)', () => src.mempool.bytes)
  level('ledger_mempool_capacity', 'pending transactions the mempool holds at most', () => src.mempool.capacity)
  level('ledger_mempool_min_fee', "the network's minimum fee (coin): no transaction pays less", () => src.minFeeCoin)
  level('ledger_mempool_min_fee_bohm_per_byte', 'the fee per byte (bohm) a transaction must pay now to enter the mempool: the rolling minimum an eviction raises, 0 while the pool has room', () => Number(src.mempool.minFeePerByte?.() ?? 0n))
  level('ledger_verify_pool_queue_length', 'signature-verification jobs posted to the verify pool and not yet answered', () => src.verifyPool()?.queueLength() ?? 0)
  level('ledger_verify_pool_threads', 'threads of the signature verify pool', () => src.verifyPool()?.threads ?? 0)
  level('ledger_miner_hashes_per_second', "this node's miner's hash rate (0 when it does not mine)", () => {
    const s = src.miner()?.status()
    return s?.running === true ? s.hash_rate : 0
  })

  const dbSize: Gauge<'db' | 'kind'> = new Gauge({
    name: 'ledger_db_size_bytes',
    help: "RocksDB's own size figures per database: live_sst and total_sst table files, live_data_estimate, memtables",
    labelNames: ['db', 'kind'] as const,
    registers,
    collect () {
      for (const { db, store } of src.stores()) {
        const stats = store?.sizeStats?.()
        if (stats === undefined) continue
        for (const [kind, field] of DB_SIZE_KINDS) dbSize.set({ db, kind }, stats[field])
      }
    }
  })
}
