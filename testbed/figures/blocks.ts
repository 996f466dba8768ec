// Block figures: propagation (from the miner's blockMined to each node's first sight of the
// block: its arrival from a peer or, failing that, its connection), stale rate, block intervals
// against the target, reorg depths.
import type { Recording } from './recording.ts'
import { faultWindows, inWindow } from './faults.ts'
import { hopDistances } from '../topology.ts'
import { mean, stddev, summarize } from './stats.ts'
import type { Summary } from './stats.ts'
import type { NodeEvent } from '../events.ts'

export interface PropagationFigures {
  /** ms until the last node had a final-chain block mined outside any fault window */
  toAll: Summary
  /** ms until each node had it, every block mined outside a fault window */
  perNode: Summary
  /** perNode split by the hops between the miner and the node */
  perHop: Array<{ hops: number; delay: Summary }>
  /** final-chain blocks mined outside fault windows that some running node never had by gossip */
  notReachedAll: number
  /** the toAll samples, sorted (the CDF plot) */
  toAllSamples: number[]
  /** the toAll samples with the block's miner, in mining order (the hops-over-latency goal) */
  toAllBlocks: Array<{ miner: number; ms: number }>
  /** ms until the last node had connected a final-chain block (its body complete, applied): the
   *  arrival above plus fetching missing transactions and the connect itself */
  connectedToAll: Summary
  /** ms a relaying node spent from a compact block's arrival to passing it on, every relay
   *  (absent from recordings made before the probe timed it) */
  inRelay: Summary
  /** the same, for the relays that rebuilt the block from what they held (no round trip) */
  inRelayHeld: Summary
}

type BlockEvent = Extract<NodeEvent, { hash: string }>

/** per node, the earliest time of each block among the events `pick` takes: hash → t */
function firstTimes (rec: Recording, pick: (e: NodeEvent) => e is BlockEvent): Array<Map<string, number>> {
  return rec.nodes.map((n) => {
    const m = new Map<string, number>()
    for (const e of n.events) {
      if (!pick(e)) continue
      const prev = m.get(e.hash)
      if (prev === undefined || e.t < prev) m.set(e.hash, e.t)
    }
    return m
  })
}

/** first time each node had each block outside initial sync: hash → t, per node */
export function arrivals (rec: Recording): Array<Map<string, number>> {
  return firstTimes(rec, (e): e is BlockEvent => e.type === 'block_seen' || (e.type === 'block_connected' && !e.syncing) || e.type === 'block_mined' || e.type === 'block_found')
}

/** blocks mined during the run (not while the nodes were still starting alone), by the first
 *  miner: its time is when the nonce was found (`block_found`, announced then), or, in
 *  recordings made before that was recorded, when the miner's chain connected it */
export function minedBlocks (rec: Recording): Array<{ hash: string; height: number; t: number; miner: number }> {
  const out = new Map<string, { hash: string; height: number; t: number; miner: number }>()
  for (const n of rec.nodes) {
    const found = new Map<string, number>()
    for (const e of n.events) {
      if (e.type === 'block_found') found.set(e.hash, e.t)
      if (e.type === 'block_mined' && e.t >= rec.start && !out.has(e.hash)) out.set(e.hash, { hash: e.hash, height: e.height, t: found.get(e.hash) ?? e.t, miner: n.index })
    }
  }
  return [...out.values()].sort((a, b) => a.t - b.t)
}

export function propagation (rec: Recording): PropagationFigures {
  const windows = faultWindows(rec.marks, rec.end)
  const got = arrivals(rec)
  const onFinal = new Set(rec.finalChain.map((b) => b.hash))
  const firstEvent = rec.nodes.map((n) => n.events[0]?.t ?? Infinity)
  const perNode: number[] = []
  const perHop = new Map<number, number[]>()
  const toAll: number[] = []
  const connectedAll: number[] = []
  const connectedAt = firstTimes(rec, (e): e is BlockEvent => e.type === 'block_connected' && !e.syncing)
  const toAllBlocks: Array<{ miner: number; ms: number }> = []
  let notReachedAll = 0
  for (const b of minedBlocks(rec)) {
    if (inWindow(b.t, windows)) continue
    const hops = hopDistances(rec.links, rec.nodes.length, b.miner)
    let worst = 0
    let missing = false
    for (const n of rec.nodes) {
      if (n.index === b.miner || (firstEvent[n.index] ?? Infinity) > b.t) continue
      const at = got[n.index]?.get(b.hash)
      if (at === undefined) { missing = true; continue }
      const delay = Math.max(0, at - b.t)
      perNode.push(delay)
      const h = hops[n.index] ?? Infinity
      if (Number.isFinite(h)) perHop.set(h, [...(perHop.get(h) ?? []), delay])
      worst = Math.max(worst, delay)
    }
    if (!onFinal.has(b.hash)) continue
    if (missing) notReachedAll++
    else { toAll.push(worst); toAllBlocks.push({ miner: b.miner, ms: worst }) }
    let lastConnect = 0
    let connectedEverywhere = true
    for (const n of rec.nodes) {
      if ((firstEvent[n.index] ?? Infinity) > b.t) continue
      const at = connectedAt[n.index]?.get(b.hash)
      if (at === undefined) { connectedEverywhere = false; break }
      lastConnect = Math.max(lastConnect, at - b.t)
    }
    if (connectedEverywhere) connectedAll.push(Math.max(0, lastConnect))
  }
  const relayed = rec.nodes.flatMap((n) => n.events.filter((e) => e.type === 'block_relayed' && e.t >= rec.start && !inWindow(e.t, windows)))
  const relayMs = (held: boolean): number[] => relayed.flatMap((e) => e.type === 'block_relayed' && (!held || e.rebuilt === 'held') ? [e.relay_ms] : [])
  return {
    connectedToAll: summarize(connectedAll),
    inRelay: summarize(relayMs(false)),
    inRelayHeld: summarize(relayMs(true)),
    toAll: summarize(toAll),
    perNode: summarize(perNode),
    perHop: [...perHop.entries()].sort((a, b) => a[0] - b[0]).map(([hops, xs]) => ({ hops, delay: summarize(xs) })),
    notReachedAll,
    toAllSamples: [...toAll].sort((a, b) => a - b),
    toAllBlocks
  }
}

export interface StaleFigures { mined: number; onFinalChain: number; stale: number; rate: number | null }

export function staleRate (rec: Recording): StaleFigures {
  const onFinal = new Set(rec.finalChain.map((b) => b.hash))
  const mined = minedBlocks(rec)
  const kept = mined.filter((b) => onFinal.has(b.hash)).length
  return { mined: mined.length, onFinalChain: kept, stale: mined.length - kept, rate: mined.length === 0 ? null : (mined.length - kept) / mined.length }
}

export interface IntervalPhase { fromSeconds: number; toSeconds: number; label: string; n: number; meanSeconds: number | null }

export interface IntervalFigures {
  n: number
  meanSeconds: number | null
  sigmaSeconds: number | null
  targetSeconds: number
  samples: number[]
  /** the intervals between consecutive steps (partition, heal, kills, restarts, miner changes), by the later block's time */
  phases: IntervalPhase[]
}

const PHASE_MARKS = new Set(['partition', 'heal', 'kill', 'restart', 'mining', 'links'])

/** One block interval: the seconds between the header timestamps of a final-chain block and its
 *  parent, and when (ms after the run's start, by the later header) it ended. */
export interface Interval { height: number; atMs: number; seconds: number }

/** the intervals of the final-chain blocks made during the run, in chain order */
export function intervalSeries (rec: Recording): Interval[] {
  const out: Interval[] = []
  const startS = rec.start / 1000
  for (let i = 1; i < rec.finalChain.length; i++) {
    const prev = rec.finalChain[i - 1]
    const cur = rec.finalChain[i]
    if (prev === undefined || cur === undefined || prev.height === 0 || prev.timestamp < startS) continue
    out.push({ height: cur.height, atMs: cur.timestamp * 1000 - rec.start, seconds: cur.timestamp - prev.timestamp })
  }
  return out
}

/** seconds between the header timestamps of consecutive final-chain blocks made during the run */
export function intervals (rec: Recording): IntervalFigures {
  const series = intervalSeries(rec)
  const samples = series.map((x) => x.seconds)
  const at = series.map((x) => x.atMs)
  const cuts = rec.marks.filter((m) => PHASE_MARKS.has(m.kind)).sort((a, b) => a.t - b.t)
  const bounds = [{ t: 0, label: 'start' }, ...cuts.map((m) => ({ t: m.t - rec.start, label: m.kind })), { t: Infinity, label: 'end' }]
  const phases: IntervalPhase[] = []
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i] as { t: number; label: string }
    const to = bounds[i + 1] as { t: number; label: string }
    const xs = samples.filter((_, j) => (at[j] as number) >= from.t && (at[j] as number) < to.t)
    phases.push({ fromSeconds: from.t / 1000, toSeconds: Math.min(to.t, rec.end - rec.start) / 1000, label: `${from.label} → ${to.label}`, n: xs.length, meanSeconds: mean(xs) })
  }
  return { n: samples.length, meanSeconds: mean(samples), sigmaSeconds: stddev(samples), targetSeconds: rec.targetSeconds, samples, phases: cuts.length === 0 ? [] : phases }
}

export interface ReorgFigures { count: number; maxDepth: number; depths: Record<string, number> }

/** every reorg any node made during the run, by depth (blocks disconnected) */
export function reorgs (rec: Recording): ReorgFigures {
  const depths: Record<string, number> = {}
  let count = 0
  let maxDepth = 0
  for (const n of rec.nodes) {
    for (const e of n.events) {
      if (e.type !== 'reorg' || e.t < rec.start) continue
      count++
      maxDepth = Math.max(maxDepth, e.disconnected)
      depths[String(e.disconnected)] = (depths[String(e.disconnected)] ?? 0) + 1
    }
  }
  return { count, maxDepth, depths }
}
