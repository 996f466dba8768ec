// Per-node figures: bytes sent over the shaped links per block and per transaction, memory and
// CPU from /proc, the miner's hash rate (last reported, and the run's mean from its counter), and crashes (exits the test bed did not cause).
import type { Recording } from './recording.ts'
import { nodeHashRate } from './hashrate.ts'

export interface NodeFigures {
  node: number
  miner: boolean
  bytesSent: number
  bytesPerBlock: number | null
  bytesPerTx: number | null
  rssMaxMiB: number | null
  rssMeanMiB: number | null
  cpuSeconds: number | null
  /** CPU seconds over the wall seconds between the first and last sample, as a percentage of one core */
  cpuPercent: number | null
  /** what the miner reported last (hashes/s over its last window) */
  hashRate: number
  /** the mean over the run from its hash counter (null: not recorded) */
  hashRateMean: number | null
  crashes: Array<{ t: number; code: number | null; signal: string | null }>
  /** peer connections whose address is a node's own p2p port: dialed around the relays */
  bypassConnections: number
}

export function nodeFigures (rec: Recording, blocksInRun: number, txsAccepted: number): NodeFigures[] {
  const wall = (rec.end - rec.start) / 1000
  const direct = new Set(rec.nodes.map((n) => `127.0.0.1:${n.p2pPort}`))
  return rec.nodes.map((n) => {
    const rss = n.samples.map((s) => s.rssBytes / 2 ** 20)
    // CPU during the run: the samples count from the node's first process start
    const cpu = n.samples.length < 2 ? null : (n.samples.at(-1)?.cpuSeconds ?? 0) - (n.samples[0]?.cpuSeconds ?? 0)
    return {
      node: n.index,
      miner: n.miner,
      bytesSent: n.bytesSent,
      bytesPerBlock: blocksInRun > 0 ? n.bytesSent / blocksInRun : null,
      bytesPerTx: txsAccepted > 0 ? n.bytesSent / txsAccepted : null,
      rssMaxMiB: rss.length === 0 ? null : Math.max(...rss),
      rssMeanMiB: rss.length === 0 ? null : rss.reduce((a, b) => a + b, 0) / rss.length,
      cpuSeconds: cpu,
      cpuPercent: cpu === null || n.samples.length < 2 ? null : cpu / (((n.samples.at(-1)?.t ?? 0) - (n.samples[0]?.t ?? 0)) / 1000 || wall) * 100,
      hashRate: n.hashRate,
      hashRateMean: n.hashes === undefined ? null : nodeHashRate(n.hashes, rec.start, rec.end),
      crashes: n.exits.filter((e) => !e.expected).map(({ t, code, signal }) => ({ t, code, signal })),
      bypassConnections: n.events.filter((e) => e.type === 'peer_connected' && direct.has(e.address)).length
    }
  })
}
