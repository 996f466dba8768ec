// Issue 28's byte goals from hand-made recordings: the nodes' own sent-byte counts per block and
// per protocol against the blocks' sizes and the transactions' deliveries, checked to the byte,
// with each verdict on both sides of its goal and the TCP line beside.
import t from 'tap'
import { blockBytesGoal, framing, FULL_BLOCK_TXS, txBytesGoal } from '../../testbed/figures/relay-bytes.ts'
import { computeFigures } from '../../testbed/figures/index.ts'
import { figuresTable } from '../../testbed/report/table.ts'
import type { NodeRecord, Recording } from '../../testbed/figures/recording.ts'
import type { ChainBlock, NodeEvent } from '../../testbed/events.ts'

const T0 = 1_000_000
const node = (index: number, extra: Partial<NodeRecord> = {}): NodeRecord => ({ index, miner: index === 0, p2pPort: 20_000 + index, events: [], samples: [], exits: [], bytesSent: 0, hashRate: 0, ...extra })
const ids = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

/** 4 nodes in a ring (4 links); block b1 of 95 txs (500 000 bytes), b2 of 3 txs (20 000 bytes), and b0 made before the run */
function recording (): Recording {
  const chain: ChainBlock[] = [
    { height: 0, hash: 'g', previous_hash: '', timestamp: 0, miner: '', txids: [], bytes: 300, txBytes: 0 },
    { height: 1, hash: 'b0', previous_hash: 'g', timestamp: (T0 - 1000) / 1000, miner: 'm', txids: [], bytes: 900, txBytes: 0 },
    { height: 2, hash: 'b1', previous_hash: 'b0', timestamp: (T0 + 5000) / 1000, miner: 'm', txids: ids('a', 95), bytes: 500_000, txBytes: 490_000 },
    { height: 3, hash: 'b2', previous_hash: 'b1', timestamp: (T0 + 10_000) / 1000, miner: 'm', txids: ids('c', 3), bytes: 20_000, txBytes: 15_000 }
  ]
  const nodes = [0, 1, 2, 3].map((i) => node(i))
  return { scenario: 'hand-made', targetSeconds: 5, latencyMs: 50, start: T0, end: T0 + 20_000, nodes, links: [[0, 1], [1, 2], [2, 3], [3, 0]], marks: [], finalChain: chain, pending: [] }
}

t.test('block relay bytes: Σ over nodes per block plus its share of gossip control, per link, over its size', async (t) => {
  const rec = recording()
  t.match(blockBytesGoal(rec), { verdict: 'not measured', note: /no sent-byte counts/ })
  // node 0 announced both blocks; 1 and 3 forwarded b1; 2 answered a blocktxn for b2
  rec.nodes[0] = node(0, { sent: { protocols: { 'gossip/cmpctblock': 3000, 'gossip/control': 800 }, blocks: { b1: 2000, b2: 1000, b0: 7 } }, bytesSent: 4000 })
  rec.nodes[1] = node(1, { sent: { protocols: { 'gossip/cmpctblock': 1000, 'gossip/control': 400 }, blocks: { b1: 1000 } }, bytesSent: 1500 })
  rec.nodes[2] = node(2, { sent: { protocols: { blocktxn: 3000 }, blocks: { b2: 3000 } }, bytesSent: 3100 })
  rec.nodes[3] = node(3, { sent: { protocols: { 'gossip/cmpctblock': 1000 }, blocks: { b1: 1000 } }, bytesSent: 1000 })
  const g = blockBytesGoal(rec)
  t.equal(g.controlBytes, 1200)
  // two blocks in the run (b0 was made before it): 600 bytes of control each
  t.same(g.blocks.map((b) => [b.hash, b.sentBytes, b.txs]), [['b1', 4000, 95], ['b2', 4000, 3]])
  const b1 = (4000 + 600) / 4 / 500_000
  const b2 = (4000 + 600) / 4 / 20_000
  t.equal(g.full, b1, `only b1 has ≥ ${FULL_BLOCK_TXS} txs`)
  t.equal(g.value, b1)
  t.equal(g.all, (b1 + b2) / 2)
  t.equal(g.verdict, 'met')
  t.match(g.note, /per delivery \(the 3 nodes each block must reach\) 0\.0031×/)
  t.same(framing(rec), { tcpBytes: 9600, appBytes: 9200, factor: 9600 / 9200 })
  t.match(g.lines?.[0], /framing ×1\.043\): on the wire ≈ 0\.002×/)

  // the same bytes for a small full block miss the goal
  const small = recording()
  small.nodes = rec.nodes
  ;(small.finalChain[2] as ChainBlock).bytes = 20_000
  t.match(blockBytesGoal(small), { verdict: 'missed', value: (4000 + 600) / 4 / 20_000 })
  // no full block: not measured, though the other blocks are
  ;(small.finalChain[2] as ChainBlock).txids = ids('a', 10)
  t.match(blockBytesGoal(small), { verdict: 'not measured', full: null, measured: /no block of ≥ 90 txs among the 2 measured/ })
})

t.test('a block no node remembers is left out and said so', async (t) => {
  const rec = recording()
  rec.nodes[0] = node(0, { sent: { protocols: {}, blocks: { b1: 2000 } } })
  const g = blockBytesGoal(rec)
  t.same(g.blocks.map((b) => b.hash), ['b1'])
  t.match(g.note, /^1 of the run's blocks no node remembered/)
})

t.test('transaction relay bytes over the deliveries: each admission after the first is one', async (t) => {
  const rec = recording()
  const admit = (id: string, bytes?: number): NodeEvent => ({ t: T0, type: 'tx_admitted', id, bytes })
  // x (7000 bytes) reached all 4 nodes (3 deliveries), y (5000 bytes) 2 nodes (1), z only its entry node
  rec.nodes = [0, 1, 2, 3].map((i) => node(i, { events: [admit('x', 7000), ...(i < 2 ? [admit('y', 5000)] : []), ...(i === 0 ? [admit('z', 6000), admit('x', 7000)] : [])] }))
  t.match(txBytesGoal(rec), { verdict: 'not measured', note: /no sent-byte counts/ })
  rec.nodes[0] = { ...(rec.nodes[0] as NodeRecord), sent: { protocols: { txinv: 500, gettx: 14_000, 'gossip/cmpctblock': 99_999 }, blocks: {} }, bytesSent: 16_000 }
  rec.nodes[1] = { ...(rec.nodes[1] as NodeRecord), sent: { protocols: { txinv: 300, gettx: 7_200 }, blocks: {} } }
  rec.nodes[2] = { ...(rec.nodes[2] as NodeRecord), sent: { protocols: { gettx: 200, 'gossip/txs': 1000 }, blocks: {} } }
  const g = txBytesGoal(rec)
  t.equal(g.relayBytes, 500 + 14_000 + 300 + 7_200 + 200 + 1000, 'txinv, gettx and txs gossip; not the blocks')
  t.equal(g.deliveries, 4)
  t.equal(g.deliveredBytes, 3 * 7000 + 5000)
  t.equal(g.value, 23_200 / 26_000)
  t.equal(g.verdict, 'met')
  rec.nodes[2] = { ...(rec.nodes[2] as NodeRecord), sent: { protocols: { gettx: 10_000 }, blocks: {} } }
  t.match(txBytesGoal(rec), { verdict: 'missed', value: 32_000 / 26_000 })
  rec.nodes[3]?.events.push(admit('w'))
  t.match(txBytesGoal(rec), { verdict: 'not measured', note: /no transaction sizes/ }, 'a recording whose admissions carry no sizes')
})

t.test('the byte goals in the figures and the table, with the TCP line', async (t) => {
  const rec = recording()
  rec.nodes[0] = node(0, { sent: { protocols: { 'gossip/cmpctblock': 3000, txinv: 10, gettx: 9000 }, blocks: { b1: 2000, b2: 1000 } }, bytesSent: 13_000, events: [{ t: T0, type: 'tx_admitted', id: 'x', bytes: 8000 }] })
  rec.nodes[1] = node(1, { events: [{ t: T0, type: 'tx_admitted', id: 'x', bytes: 8000 }] })
  const f = computeFigures(rec)
  t.match(f.goals.blockBytes, { verdict: 'met' })
  t.match(f.goals.txBytes, { value: 9010 / 8000, verdict: 'met' })
  const table = figuresTable(f)
  t.match(table, /MET\s+bytes sent per link to relay a block whose txs were gossiped \/ its full size \(blocks of ≥ 90 txs\)/)
  t.match(table, /MET\s+bytes sent per link per transaction \/ its size \(goal ≤ 1\.2×\)\n\s+1\.126×: .*\n\s+TCP through the relays: /)
})
