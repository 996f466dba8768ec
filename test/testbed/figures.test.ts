// The figures from a recording made by hand: every number checked against what the events say.
import t from 'tap'
import { computeFigures } from '../../testbed/figures/index.ts'
import { healTimes } from '../../testbed/figures/convergence.ts'
import { faultWindows } from '../../testbed/figures/faults.ts'
import { htmlReport } from '../../testbed/report/html.ts'
import { figuresTable } from '../../testbed/report/table.ts'
import type { NodeRecord, Recording } from '../../testbed/figures/recording.ts'
import type { ChainBlock, NodeEvent } from '../../testbed/events.ts'

const T0 = 1_000_000
const hash = (n: number): string => `h${n}`

function node (index: number, events: NodeEvent[], extra: Partial<NodeRecord> = {}): NodeRecord {
  return { index, miner: index === 0, p2pPort: 20_000 + index, events, samples: [], exits: [], bytesSent: 0, hashRate: 0, ...extra }
}
function block (height: number, ts: number, txids: string[] = []): ChainBlock {
  return { height, hash: hash(height), previous_hash: hash(height - 1), timestamp: ts, miner: 'm', txids }
}
const connected = (t: number, h: number, extra: { syncing?: boolean } = {}): Extract<NodeEvent, { type: 'block_connected' }> => ({ t, type: 'block_connected', hash: hash(h), height: h, parent: hash(h - 1), miner: 'm', reorg: false, syncing: extra.syncing ?? false, txs: 0 })

/** a line 0 - 1 - 2; node 0 mines blocks 1-3 at 20 s, 30 s, 40 s after the start (outside the start's grace) */
function lineRecording (): Recording {
  const mined = [1, 2, 3].map((h) => T0 + 10_000 + h * 10_000)
  const n0: NodeEvent[] = [{ t: T0 - 1, type: 'tx_admitted', id: 'x' }]
  const n1: NodeEvent[] = []
  const n2: NodeEvent[] = []
  mined.forEach((t, i) => {
    const h = i + 1
    n0.push({ t, type: 'block_mined', hash: hash(h), height: h }, connected(t, h))
    n1.push({ t: t + 100 * h, type: 'block_seen', hash: hash(h), height: h, parent: hash(h - 1), peer: 'p0' }, connected(t + 100 * h + 5, h))
    // node 1 relays each block on: h ms, rebuilt from what it held but for block 3
    n1.push({ t: t + 100 * h + h, type: 'block_relayed', hash: hash(h), height: h, peer: 'p0', relay_ms: h, rebuilt: h === 3 ? 'request' : 'held' })
    n2.push({ t: t + 300 * h, type: 'block_seen', hash: hash(h), height: h, parent: hash(h - 1), peer: 'p1' }, connected(t + 300 * h + 5, h))
  })
  // a stale block of node 0 that node 1 saw, and a reorg of depth 1 on node 2
  n0.push({ t: T0 + 45_000, type: 'block_mined', hash: 'stale', height: 4 })
  n2.push({ t: T0 + 46_000, type: 'reorg', disconnected: 1, connected: 2, fork_height: 2, to_height: 4 })
  // transactions: a admitted and confirmed once; b dropped (expired); c pending; d lost; e confirmed twice
  for (const id of ['a', 'b', 'c', 'd', 'e']) n1.push({ t: T0 + 15_000, type: 'tx_admitted', id })
  n1.push({ t: T0 + 16_000, type: 'tx_removed', id: 'b', reason: 'expired' }, { t: T0 + 16_000, type: 'tx_removed', id: 'a', reason: 'confirmed' })
  n1.push({ t: T0 - 5000, type: 'peer_connected', peer: 'p2', address: '127.0.0.1:20002' })
  n0.push({ t: T0 - 5000, type: 'peer_connected', peer: 'p1', address: '127.0.0.1:40001' })
  n2.push({ t: T0 - 5000, type: 'peer_connected', peer: 'p1', address: '127.0.0.1:40002' })
  const startS = T0 / 1000
  return {
    scenario: 'hand-made',
    targetSeconds: 5,
    start: T0,
    end: T0 + 60_000,
    nodes: [
      node(0, n0.sort((a, b) => a.t - b.t), { bytesSent: 4000, samples: [{ t: T0, rssBytes: 100 * 2 ** 20, cpuSeconds: 1 }, { t: T0 + 60_000, rssBytes: 200 * 2 ** 20, cpuSeconds: 31 }] }),
      node(1, n1.sort((a, b) => a.t - b.t), { exits: [{ t: T0 + 50_000, code: null, signal: 'SIGKILL', expected: true }, { t: T0 + 55_000, code: 1, signal: null, expected: false }] }),
      node(2, n2.sort((a, b) => a.t - b.t))
    ],
    links: [[0, 1], [1, 2]],
    marks: [{ t: T0, kind: 'start', label: 'start' }],
    finalChain: [block(0, 0), block(1, startS + 20, ['a', 'e']), block(2, startS + 30, ['x']), block(3, startS + 40, ['e'])],
    pending: ['c']
  }
}

t.test('propagation, stale rate, intervals and reorgs', async (t) => {
  const f = computeFigures(lineRecording())
  // to all: the last node (2) saw block h 300·h ms after it was mined
  t.same(f.propagation.toAllSamples, [300, 600, 900])
  t.match(f.propagation.toAll, { n: 3, p50: 600, max: 900 })
  t.same(f.propagation.perHop.map((h) => [h.hops, h.delay.n, h.delay.p50]), [[1, 3, 200], [2, 3, 600]])
  t.equal(f.propagation.notReachedAll, 0)
  t.match(f.propagation.inRelay, { n: 3, max: 3 }, 'the time inside the relaying node, every relay')
  t.same([f.propagation.connectedToAll.n, f.propagation.connectedToAll.max], [3, 905], 'connected everywhere: node 2 connected block h 300·h + 5 ms after it was mined')
  t.match(f.propagation.inRelayHeld, { n: 2, max: 2 }, 'those rebuilt without a round trip')
  t.match(f.stale, { mined: 4, onFinalChain: 3, stale: 1, rate: 0.25 })
  t.same(f.intervals.samples, [10, 10], 'intervals between blocks made during the run')
  t.match(f.intervals, { meanSeconds: 10, sigmaSeconds: 0, targetSeconds: 5 })
  t.match(f.reorgs, { count: 1, maxDepth: 1, depths: { 1: 1 } })
  t.equal(f.finalHeight, 3)
})

t.test('transaction accounting sorts every accepted transaction into one outcome', async (t) => {
  const f = computeFigures(lineRecording())
  t.match(f.txs, { accepted: 6, confirmedOnce: 2, confirmedTwice: 1, dropped: 1, droppedReasons: { expired: 1 }, pending: 1, lost: 1, lostIds: ['d'] })
  // a: admitted at +15 s, confirmed in block 1 stamped +20 s
  t.equal(f.txs.confirmLatency.n, 2)
})

t.test('per-node bytes, memory, CPU, crashes and relay bypasses', async (t) => {
  const f = computeFigures(lineRecording())
  const [n0, n1] = f.nodes
  t.equal(n0?.bytesPerBlock, 4000 / 3, 'bytes over the blocks made in the run (intervals + 1)')
  t.equal(n0?.rssMaxMiB, 200)
  t.equal(n0?.cpuPercent, 50, '30 CPU seconds over 60 wall seconds')
  t.equal(n1?.crashes.length, 1, 'an exit the test bed caused is no crash')
  t.equal(f.crashes, 1)
  t.equal(n1?.bypassConnections, 1, 'a connection to a node\'s own p2p port is a bypass')
})

t.test('heal time: from the heal to the first moment every node has one tip', async (t) => {
  const ev = (n: number, t: number, h: number, name = hash(h)): NodeEvent => ({ ...connected(t, h), hash: name })
  const rec: Recording = {
    ...lineRecording(),
    nodes: [node(0, [ev(0, 100, 5, 'a5')]), node(1, [ev(1, 100, 5, 'b5'), ev(1, 1500, 6, 'a6')]), node(2, [ev(2, 100, 4, 'a4'), ev(2, 1200, 6, 'a6')])],
    marks: [{ t: 1000, kind: 'heal', label: 'heal' }, { t: 1000, kind: 'partition', label: 'p' }]
  }
  rec.nodes[0]?.events.push(ev(0, 1400, 6, 'a6'))
  t.same(healTimes(rec), [{ at: 1000, ms: 500 }])
  rec.nodes[0]?.events.pop()
  t.same(healTimes(rec), [{ at: 1000, ms: null }], 'never one tip: null')
})

t.test('fault windows: a partition until its heal, a kill until its restart, each plus the grace', async (t) => {
  const w = faultWindows([
    { t: 0, kind: 'load', label: '' },
    { t: 10_000, kind: 'partition', label: '' },
    { t: 20_000, kind: 'heal', label: '' },
    { t: 30_000, kind: 'kill', label: '', nodes: [2] },
    { t: 40_000, kind: 'restart', label: '', nodes: [2] }
  ], 100_000)
  t.same(w, [[10_000, 35_000], [30_000, 55_000], [40_000, 55_000]])
})

t.test('the report: a table of the figures and one self-contained page with three plots', async (t) => {
  const rec = lineRecording()
  const f = computeFigures(rec)
  const table = figuresTable(f)
  t.match(table, /block propagation to all nodes\s+p50 600 ms · p95 870 ms · max 900 ms \(n=3\)/)
  t.match(table, /stale blocks\s+1 of 4 mined \(25\.0%\)/)
  t.match(table, /1 LOST/)
  const html = htmlReport(f, rec)
  t.equal(html.match(/<svg /g)?.length, 3, 'three inline plots')
  t.notMatch(html, /NaN|undefined|<script|src=|href="http/, 'no broken numbers, no script, nothing fetched')
  t.match(html, /node 2: reorg of 1 at height 2/, 'the reorg is marked on the height plot')
})

t.test('intervals split by phase at the steps', async (t) => {
  const rec = { ...lineRecording(), marks: [{ t: T0, kind: 'start' as const, label: '' }, { t: T0 + 35_000, kind: 'mining' as const, label: '' }] }
  // intervals end at +30 s (block 2) and +40 s (block 3)
  t.same(computeFigures(rec).intervals.phases.map((p) => [p.label, p.n, p.meanSeconds]), [['start → mining', 1, 10], ['mining → end', 1, 10]])
  t.same(computeFigures(lineRecording()).intervals.phases, [], 'no steps, no phases')
})

t.test('rogue peers: let in or not, and how long until the node they attacked dropped them', async (t) => {
  const rec = lineRecording()
  rec.marks.push({ t: T0 + 1000, kind: 'rogue', label: 'garbage', nodes: [1], peer: 'R1' }, { t: T0 + 2000, kind: 'rogue', label: 'claim', nodes: [2], peer: 'R2' })
  rec.nodes[1]?.events.push({ t: T0 + 1100, type: 'peer_connected', peer: 'R1', address: '127.0.0.1:50000' }, { t: T0 + 1600, type: 'peer_disconnected', peer: 'R1', address: '127.0.0.1:50000' })
  t.same(computeFigures(rec).rogues.map((r) => [r.node, r.admitted, r.droppedAfterMs]), [[1, true, 600], [2, false, null]])
})
