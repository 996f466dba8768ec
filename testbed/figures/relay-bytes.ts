// Issue 28's two byte goals from what the nodes counted they sent (the p2p plugin's sent-bytes
// counts, read by the probe): bytes per link to relay a block over its full size, and bytes
// per delivery of a transaction over its size (docs/testbed.md "Issue 28's goals" defines
// both). The relays' TCP totals give a second line: the framing (noise, yamux) on top.
import type { Recording } from './recording.ts'
import type { SentBytesProtocol } from '../../core/kernel/services.ts'
import type { GoalFigure } from './goals.ts'
import { mean } from './stats.ts'

/** "a 100-transfer block": a block with at least this many transactions besides its coinbase */
export const FULL_BLOCK_TXS = 90
/** what relaying transactions sends: announcements, requests and bodies, and the old gossip topic */
export const TX_RELAY_PROTOCOLS: readonly SentBytesProtocol[] = ['txinv', 'gettx', 'gossip/txs']

const x = (v: number | null, digits = 3): string => v === null ? '-' : `${v.toFixed(digits)}×`
const mib = (n: number): string => `${(n / 2 ** 20).toFixed(2)} MiB`

/** the links' bytes (TCP through the relays) over what the nodes handed their streams: the framing's factor */
export interface Framing { tcpBytes: number; appBytes: number; factor: number | null }

export function framing (rec: Recording): Framing {
  const tcpBytes = rec.nodes.reduce((s, n) => s + n.bytesSent, 0)
  const appBytes = rec.nodes.reduce((s, n) => s + Object.values(n.sent?.protocols ?? {}).reduce((a, b) => a + b, 0), 0)
  return { tcpBytes, appBytes, factor: appBytes === 0 ? null : tcpBytes / appBytes }
}

const framingLine = (f: Framing, value: number | null): string =>
  `TCP through the relays: ${mib(f.tcpBytes)} for the ${mib(f.appBytes)} the nodes handed their streams (noise and yamux framing ×${f.factor?.toFixed(3) ?? '-'}): on the wire ≈ ${x(value === null || f.factor === null ? null : value * f.factor)}`

const counted = (rec: Recording): boolean => rec.nodes.some((n) => n.sent !== undefined)

export interface BlockRelayBlock { hash: string; height: number; txs: number; bytes: number; sentBytes: number; ratio: number }

export interface BlockBytesGoal extends GoalFigure {
  /** per block of the run's final chain that some node counted: what was sent for it, and that per link over its size */
  blocks: BlockRelayBlock[]
  /** gossip control (subscriptions, IHAVE/IWANT/GRAFT/PRUNE/IDONTWANT) of all nodes, charged evenly to the run's blocks */
  controlBytes: number
  /** mean ratio over the blocks of at least FULL_BLOCK_TXS transactions (the value), and over all */
  full: number | null
  all: number | null
  framing: Framing
}

/**
 * Per block: Σ over nodes of the bytes each sent to relay it (compact announcements sent or
 * forwarded, blocktxn and blocks requests and answers naming it) plus its share of all gossip
 * control, over the links it crossed (every link of the topology: gossipsub forwards it on each)
 * and its full size. The value is the mean over the blocks of ≥ FULL_BLOCK_TXS transactions.
 */
export function blockBytesGoal (rec: Recording): BlockBytesGoal {
  const base = { name: `bytes sent per link to relay a block whose txs were gossiped / its full size (blocks of ≥ ${FULL_BLOCK_TXS} txs)`, goal: '≤ 0.05×' }
  const f = framing(rec)
  const none = { blocks: [], controlBytes: 0, full: null, all: null, framing: f, value: null, verdict: 'not measured' as const, lines: [] }
  if (!counted(rec)) return { ...base, ...none, measured: '-', note: 'the recording holds no sent-byte counts (made before the nodes counted what they send)' }
  const run = rec.finalChain.filter((b) => b.height > 0 && b.timestamp * 1000 >= rec.start)
  if (run.length === 0 || run.some((b) => b.bytes === undefined) || rec.links.length === 0) return { ...base, ...none, measured: '-', note: 'no block with a size in the run' }
  const controlBytes = rec.nodes.reduce((s, n) => s + (n.sent?.protocols['gossip/control'] ?? 0), 0)
  const controlEach = controlBytes / run.length
  const blocks: BlockRelayBlock[] = []
  for (const b of run) {
    const sent = rec.nodes.map((n) => n.sent?.blocks[b.hash])
    // a block no node remembers (older than their bounded lists) is not measured
    if (sent.every((v) => v === undefined)) continue
    const sentBytes = sent.reduce<number>((s, v) => s + (v ?? 0), 0)
    blocks.push({ hash: b.hash, height: b.height, txs: b.txids.length, bytes: b.bytes as number, sentBytes, ratio: (sentBytes + controlEach) / rec.links.length / (b.bytes as number) })
  }
  const fullBlocks = blocks.filter((b) => b.txs >= FULL_BLOCK_TXS)
  const full = mean(fullBlocks.map((b) => b.ratio))
  const all = mean(blocks.map((b) => b.ratio))
  const worst = fullBlocks.reduce<BlockRelayBlock | null>((w, b) => w === null || b.ratio > w.ratio ? b : w, null)
  const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`
  const fullText = full === null || worst === null
    ? `no block of ≥ ${FULL_BLOCK_TXS} txs among the ${blocks.length} measured`
    : `${x(full, 4)} mean over ${fullBlocks.length} blocks of ≥ ${FULL_BLOCK_TXS} txs (mean ${kb(mean(fullBlocks.map((b) => b.bytes)) as number)}; worst ${x(worst.ratio, 4)}: ${kb(worst.sentBytes)} sent by all nodes for a ${kb(worst.bytes)} block)`
  const measured = `${fullText}; all ${blocks.length} blocks ${x(all, 4)}; over ${rec.links.length} links, gossip control ${kb(controlEach)} a block charged to each`
  const perDelivery = full === null ? null : full * rec.links.length / Math.max(1, rec.nodes.length - 1)
  return {
    ...base,
    blocks,
    controlBytes,
    full,
    all,
    framing: f,
    value: full,
    measured,
    verdict: full === null ? 'not measured' : full <= 0.05 ? 'met' : 'missed',
    note: `${run.length - blocks.length > 0 ? `${run.length - blocks.length} of the run's blocks no node remembered; ` : ''}per delivery (the ${rec.nodes.length - 1} nodes each block must reach) ${x(perDelivery, 4)}`,
    lines: [framingLine(f, full)]
  }
}

export interface TxBytesGoal extends GoalFigure {
  /** Σ over nodes of txinv, gettx and gossip/txs bytes */
  relayBytes: number
  /** Σ over transactions of its size × (the nodes that admitted it − 1) */
  deliveredBytes: number
  deliveries: number
  framing: Framing
}

/**
 * All transaction-relay bytes the nodes sent (announcements, requests, bodies, any txs/2
 * gossip) over the bytes the deliveries needed: each transaction's size once for every node
 * but the first that admitted it.
 */
export function txBytesGoal (rec: Recording): TxBytesGoal {
  const base = { name: 'bytes sent per link per transaction / its size', goal: '≤ 1.2×' }
  const f = framing(rec)
  const relayBytes = rec.nodes.reduce((s, n) => s + TX_RELAY_PROTOCOLS.reduce((a, p) => a + (n.sent?.protocols[p] ?? 0), 0), 0)
  const none = { relayBytes, deliveredBytes: 0, deliveries: 0, framing: f, value: null, verdict: 'not measured' as const, lines: [] }
  if (!counted(rec)) return { ...base, ...none, measured: '-', note: 'the recording holds no sent-byte counts (made before the nodes counted what they send)' }
  const size = new Map<string, number>()
  const admitted = new Map<string, Set<number>>()
  let unsized = 0
  for (const n of rec.nodes) {
    for (const e of n.events) {
      if (e.type !== 'tx_admitted') continue
      if (e.bytes === undefined) { unsized++; continue }
      size.set(e.id, e.bytes)
      const at = admitted.get(e.id) ?? new Set<number>()
      at.add(n.index)
      admitted.set(e.id, at)
    }
  }
  if (unsized > 0) return { ...base, ...none, measured: '-', note: 'the recording\'s admissions carry no transaction sizes' }
  let deliveredBytes = 0
  let deliveries = 0
  for (const [id, at] of admitted) {
    deliveries += at.size - 1
    deliveredBytes += (size.get(id) as number) * (at.size - 1)
  }
  if (deliveredBytes === 0) return { ...base, ...none, measured: '-', note: 'no transaction reached a second node' }
  const ratio = relayBytes / deliveredBytes
  return {
    ...base,
    relayBytes,
    deliveredBytes,
    deliveries,
    framing: f,
    value: ratio,
    measured: `${x(ratio)}: ${mib(relayBytes)} of txinv, gettx and txs gossip sent for ${deliveries} deliveries of ${admitted.size} transactions (${mib(deliveredBytes)})`,
    verdict: ratio <= 1.2 ? 'met' : 'missed',
    note: 'a delivery: a transaction admitted by one more node (bodies a node asked for and then refused count against the figure)',
    lines: [framingLine(f, ratio)]
  }
}
