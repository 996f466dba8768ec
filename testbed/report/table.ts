// The figures as plain text for the terminal (and BENCHMARKS.md): one block of lines.
import type { Figures } from '../figures/index.ts'
import type { Summary } from '../figures/stats.ts'
import { goalList } from '../figures/goals.ts'
import { formatHashRate } from '../figures/hashrate.ts'

const ms = (v: number | null): string => v === null ? '-' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`
const sec = (v: number | null): string => v === null ? '-' : `${v.toFixed(2)} s`
const kib = (v: number | null): string => v === null ? '-' : `${(v / 1024).toFixed(1)} KiB`
const pct = (v: number | null): string => v === null ? '-' : `${(v * 100).toFixed(1)}%`
const sum = (s: Summary): string => `p50 ${ms(s.p50)} · p95 ${ms(s.p95)} · max ${ms(s.max)} (n=${s.n})`

export function figuresTable (f: Figures): string {
  const lines = [
    `scenario ${f.scenario}: ${f.durationSeconds.toFixed(0)} s, final height ${f.finalHeight}, crashes ${f.crashes}`,
    `block propagation to all nodes   ${sum(f.propagation.toAll)}${f.propagation.notReachedAll > 0 ? `, ${f.propagation.notReachedAll} never reached every node` : ''}`,
    `block propagation to each node   ${sum(f.propagation.perNode)}`,
    ...f.propagation.perHop.map((h) => `  at ${h.hops} hop${h.hops === 1 ? '' : 's'}                      ${sum(h.delay)}`),
    `connected on every node          ${sum(f.propagation.connectedToAll)} (the body complete and applied)`,
    `inside a relaying node           ${sum(f.propagation.inRelay)}; rebuilt from held txs ${sum(f.propagation.inRelayHeld)}`,
    `stale blocks                     ${f.stale.stale} of ${f.stale.mined} mined (${pct(f.stale.rate)})`,
    `block interval                   mean ${sec(f.intervals.meanSeconds)} · σ ${sec(f.intervals.sigmaSeconds)} against a ${f.intervals.targetSeconds} s target (n=${f.intervals.n})`,
    ...(f.intervals.phases.length > 0 ? [`  by phase                       ${f.intervals.phases.map((p) => `${p.fromSeconds.toFixed(0)}-${p.toSeconds.toFixed(0)} s ${sec(p.meanSeconds)} (n=${p.n})`).join(' · ')}`] : []),
    `reorgs                           ${f.reorgs.count}, deepest ${f.reorgs.maxDepth} (by depth: ${JSON.stringify(f.reorgs.depths)})`,
    `links bypassed                   ${f.nodes.reduce((s, n) => s + n.bypassConnections, 0)} peer connections to a node's own p2p port (must be 0)`,
    ...(f.loopLagMs === null ? [] : [`links' own lag                   p50 ${f.loopLagMs.p50.toFixed(1)} ms · p99 ${f.loopLagMs.p99.toFixed(1)} ms · max ${ms(f.loopLagMs.max)} (the links' thread: a link delay can be late by this)`]),
    ...f.heals.map((h) => `one tip after heal               ${h.ms === null ? 'never' : ms(h.ms)}`),
    ...f.rogues.map((r) => `rogue peer at node ${r.node}             ${r.admitted ? 'let in' : 'never let in'}, ${r.droppedAfterMs === null ? 'never dropped' : `dropped after ${ms(r.droppedAfterMs)}`}`),
    `transactions                     ${f.txs.accepted} accepted: ${f.txs.confirmedOnce} confirmed once, ${f.txs.confirmedTwice} twice, ${f.txs.dropped} dropped ${JSON.stringify(f.txs.droppedReasons)}, ${f.txs.pending} pending, ${f.txs.lost} LOST`,
    `confirmation latency             ${sum(f.txs.confirmLatency)}`,
    '',
    `issue 28 goals (interval warm-up: the first ${f.goals.interval.warmupBlocks} blocks of the run)`,
    ...goalList(f.goals).flatMap((g) => [
      `  ${g.verdict === 'met' ? 'MET   ' : g.verdict === 'missed' ? 'MISSED' : 'n/m   '} ${g.name} (goal ${g.goal})`,
      `         ${g.measured}${g.note === '' ? '' : ` — ${g.note}`}`,
      ...(g.lines ?? []).map((l) => `         ${l}`)
    ]),
    '',
    'node  miner  sent       per block   per tx     RSS max    CPU      hash rate (run mean)  crashes'
  ]
  for (const n of f.nodes) {
    lines.push([
      String(n.node).padEnd(5), (n.miner ? 'yes' : 'no').padEnd(6), kib(n.bytesSent).padEnd(10), kib(n.bytesPerBlock).padEnd(11), kib(n.bytesPerTx).padEnd(10),
      (n.rssMaxMiB === null ? '-' : `${n.rssMaxMiB.toFixed(0)} MiB`).padEnd(10), (n.cpuPercent === null ? '-' : `${n.cpuPercent.toFixed(0)}%`).padEnd(8),
      (n.hashRateMean !== null ? (n.hashRateMean > 0 ? formatHashRate(n.hashRateMean) : '-') : n.hashRate > 0 ? `${formatHashRate(n.hashRate)} (last)` : '-').padEnd(21), String(n.crashes.length)
    ].join(' '))
  }
  return lines.join('\n')
}
