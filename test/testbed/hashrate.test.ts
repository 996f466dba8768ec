// The measured hash rate (testbed/figures/hashrate.ts): hash counts sampled every poll turned into
// mean rates over any span, per node and for the network, and the per-node figure of the run.
import t from 'tap'
import { formatHashRate, hashesAt, hashRateSeries, networkHashRate, nodeHashRate } from '../../testbed/figures/hashrate.ts'
import { computeFigures } from '../../testbed/figures/index.ts'
import { htmlReport } from '../../testbed/report/html.ts'
import type { HashSample, NodeRecord, Recording } from '../../testbed/figures/recording.ts'
import { nodeFigures } from '../../testbed/figures/nodes.ts'

const T0 = 1_000_000
/** a counter sampled every 2 s from T0 for `seconds`, hashing at `rate(t)` per second */
function counter (seconds: number, rate: (sec: number) => number): HashSample[] {
  const out: HashSample[] = []
  let hashes = 0
  for (let s = 0; s <= seconds; s += 2) {
    out.push({ t: T0 + s * 1000, hashes })
    hashes += rate(s) * 2
  }
  return out
}
const node = (index: number, extra: Partial<NodeRecord> = {}): NodeRecord => ({ index, miner: true, p2pPort: 20_000 + index, events: [], samples: [], exits: [], bytesSent: 0, hashRate: 0, ...extra })
const recording = (nodes: NodeRecord[]): Recording => ({ scenario: 'hand-made', targetSeconds: 5, start: T0, end: T0 + 240_000, nodes, links: [], marks: [], finalChain: [], pending: [] })

t.test('a node\'s count between samples is interpolated, and clamped outside them', async (t) => {
  const s: HashSample[] = [{ t: 1000, hashes: 0 }, { t: 3000, hashes: 2000 }, { t: 5000, hashes: 2000 }]
  t.equal(hashesAt(s, 2000), 1000)
  t.equal(hashesAt(s, 3000), 2000)
  t.equal(hashesAt(s, 4000), 2000, 'flat while the miner was off')
  t.equal(hashesAt(s, 0), 0, 'before the first sample: the first')
  t.equal(hashesAt(s, 9000), 2000, 'after the last: the last')
  t.equal(hashesAt([], 1000), null)
  t.equal(nodeHashRate(s, 1000, 3000), 1000, '2000 hashes in 2 s')
  t.equal(nodeHashRate(s, 3000, 5000), 0)
  t.equal(nodeHashRate(s, 3000, 3000), null, 'an empty span has no rate')
})

t.test('the network rate sums the nodes: a step that stops half the hash rate measures 0.5×', async (t) => {
  const steady = counter(240, () => 1000)
  const stops = counter(240, (s) => s < 120 ? 1000 : 0)
  const rec = recording([node(0, { hashes: steady }), node(1, { hashes: stops }), node(2, { miner: false, hashes: counter(240, () => 0) }), node(3, { miner: false })])
  t.equal(networkHashRate(rec, T0, T0 + 120_000), 2000)
  t.equal(networkHashRate(rec, T0 + 120_000, T0 + 240_000), 1000)
  t.equal(networkHashRate(recording([node(0), node(1)]), T0, T0 + 1000), null, 'no counts recorded (an older recording): null, not 0')
  const figures = nodeFigures(rec, 10, 10)
  t.same(figures.map((n) => n.hashRateMean), [1000, 500, 0, null], 'each node\'s mean over the run')
})

t.test('the rate over time, in buckets, and its plot in the HTML report', async (t) => {
  const steady = counter(240, () => 1000)
  const stops = counter(240, (s) => s < 120 ? 3000 : 0)
  const rec = recording([node(0, { hashes: steady }), node(1, { hashes: stops }), node(2, { miner: false, hashes: counter(240, () => 0) })])
  rec.marks.push({ t: T0 + 120_000, kind: 'mining', label: '+120 s mining off on nodes 1', nodes: [1] })
  const series = hashRateSeries((a, b) => networkHashRate(rec, a, b), T0, T0 + 240_000, 60_000)
  t.same(series, [[T0 + 60_000, 4000], [T0 + 120_000, 4000], [T0 + 180_000, 1000], [T0 + 240_000, 1000]])
  t.same(hashRateSeries(() => null, T0, T0 + 60_000), [], 'no counts, no points')
  const html = htmlReport(computeFigures(rec), rec)
  t.match(html, /Hash rate over time, measured from the miners' hash counts/)
  t.match(html, />network</)
  t.match(html, />node 1</, 'a miner stopped before the end is plotted too')
  t.notMatch(html, /NaN|undefined/)
  const without = recording([node(0), node(1)])
  t.notMatch(htmlReport(computeFigures(without), without), /Hash rate over time/, 'a recording without counts has no hash-rate plot')
})

t.test('rates print in kH/s or MH/s', async (t) => {
  t.equal(formatHashRate(2_450_000), '2.45 MH/s')
  t.equal(formatHashRate(640_400), '640 kH/s')
  t.equal(formatHashRate(null), '-')
})
