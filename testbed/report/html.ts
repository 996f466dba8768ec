// The one-file HTML report: the figures' table and its plots (propagation CDF, block intervals
// against the target's exponential, every node's height over time with reorgs, and the measured
// hash rate over time when the recording has hash counts).
import type { Figures } from '../figures/index.ts'
import type { Recording } from '../figures/recording.ts'
import { tipChanges } from '../figures/convergence.ts'
import { figuresTable } from './table.ts'
import { PALETTE, plot } from './svg.ts'
import { hashRateSeries, networkHashRate, nodeHashRate } from '../figures/hashrate.ts'

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function cdf (sorted: readonly number[]): Array<[number, number]> {
  return sorted.map((v, i) => [v, (i + 1) / sorted.length])
}

export function htmlReport (f: Figures, rec: Recording): string {
  const propagation = plot({
    title: 'Block propagation to all nodes: CDF',
    xLabel: 'ms from the miner to the last node',
    yLabel: 'fraction of blocks',
    series: [{ label: 'to all nodes', points: cdf(f.propagation.toAllSamples), color: PALETTE[0] as string, step: true }]
  })
  const iv = [...f.intervals.samples].sort((a, b) => a - b)
  const maxIv = Math.max(f.intervals.targetSeconds * 4, ...iv)
  const expo: Array<[number, number]> = Array.from({ length: 60 }, (_, i) => { const x = maxIv * i / 59; return [x, 1 - Math.exp(-x / f.intervals.targetSeconds)] })
  const intervals = plot({
    title: `Block intervals against the ${f.intervals.targetSeconds} s target's exponential (CDF)`,
    xLabel: 'seconds between consecutive blocks (header timestamps)',
    yLabel: 'fraction of intervals',
    series: [
      { label: 'measured', points: cdf(iv), color: PALETTE[0] as string, step: true },
      { label: `exponential, mean ${f.intervals.targetSeconds} s`, points: expo, color: PALETTE[1] as string, dashed: true }
    ]
  })
  const changes = tipChanges(rec)
  const secs = (t: number): number => (t - rec.start) / 1000
  const heights = plot({
    title: 'Height of every node over time (circles: reorgs; dashed lines: steps)',
    xLabel: 'seconds since start',
    yLabel: 'height',
    yFromZero: false,
    series: rec.nodes.map((n) => ({
      label: `node ${n.index}${n.miner ? ' (miner)' : ''}`,
      points: changes.filter((c) => c.node === n.index && c.t >= rec.start).map((c) => [secs(c.t), c.height] as [number, number]),
      color: PALETTE[n.index % PALETTE.length] as string,
      step: true
    })),
    markers: rec.marks.filter((m) => m.kind !== 'load' && m.kind !== 'start').map((m) => ({ x: secs(m.t), label: m.kind })),
    dots: rec.nodes.flatMap((n) => n.events.flatMap((e) => e.type === 'reorg' && e.t >= rec.start ? [{ x: secs(e.t), y: e.to_height, label: `node ${n.index}: reorg of ${e.disconnected} at height ${e.fork_height}` }] : []))
  })
  // measured, not assumed: each miner's hash counter in 10 s buckets, and their sum
  // (every node that hashed at all: `miner` is a node's state at the end, a stopped miner's too)
  const counted = rec.nodes.filter((n) => (n.hashes?.at(-1)?.hashes ?? 0) > 0)
  const mhs = (points: Array<[number, number]>): Array<[number, number]> => points.map(([t, r]) => [secs(t), r / 1e6])
  const hashRates = counted.length === 0
    ? ''
    : plot({
      title: 'Hash rate over time, measured from the miners\' hash counts (10 s means; dashed lines: steps)',
      xLabel: 'seconds since start',
      yLabel: 'MH/s',
      series: [
        { label: 'network', points: mhs(hashRateSeries((a, b) => networkHashRate(rec, a, b), rec.start, rec.end)), color: PALETTE[0] as string },
        ...counted.map((n, i) => ({ label: `node ${n.index}`, points: mhs(hashRateSeries((a, b) => nodeHashRate(n.hashes ?? [], a, b), rec.start, rec.end)), color: PALETTE[(i + 1) % PALETTE.length] as string, dashed: true }))
      ],
      markers: rec.marks.filter((m) => m.kind === 'mining').map((m) => ({ x: secs(m.t), label: m.kind }))
    })
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ledger testbed: ${esc(f.scenario)}</title>
<style>body{font-family:sans-serif;max-width:780px;margin:2em auto;color:#222}pre{background:#f6f6f6;padding:1em;white-space:pre-wrap;font-size:12px}figure{margin:2em 0}figcaption{font-weight:bold;margin-bottom:.5em}.legend{font-size:12px}</style>
</head><body>
<h1>ledger testbed: ${esc(f.scenario)}</h1>
<p>${rec.nodes.length} nodes, ${rec.links.length} links, started ${new Date(rec.start).toISOString()}. Steps: ${rec.marks.map((m) => esc(m.label)).join('; ')}.</p>
<pre>${esc(figuresTable(f))}</pre>
${propagation}
${intervals}
${heights}
${hashRates}
<p>How each figure is measured: docs/testbed.md in the ledger-node repository. The recording these figures come from is in report.json.</p>
</body></html>
`
}
