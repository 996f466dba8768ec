// The Grafana board shipped in config/grafana/ledger-node.json against a running node: every
// metric its PromQL names is on the node's /metrics, and it charts every operator metric.
import t from 'tap'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { startDashboardNode } from '../plugins/dashboard/fixtures/dashboard-node.ts'
import { OPERATOR_METRICS } from '../../plugins/dashboard/operator-metrics.ts'
import { LEDGER_GAUGES } from '../../plugins/dashboard/metrics.ts'
import { mineBlock } from '../helpers/chain.ts'

const BOARD = path.join(import.meta.dirname, '../../config/grafana/ledger-node.json')

interface Panel { title: string; type: string; targets?: Array<{ expr: string }> }
interface Board { panels: Panel[]; templating: { list: Array<{ query: { query: string } }> } }

/** PromQL words that are not metric names */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless'])

/** The metric names a PromQL expression selects: identifiers that are not functions, keywords,
 *  label names (inside {…} or a by/without list), strings or durations. */
function metricNames (expr: string): string[] {
  const e = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
  const names: string[] = []
  for (const m of e.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = e.slice((m.index ?? 0) + m[0].length).trimStart()
    if (after.startsWith('(') || KEYWORDS.has(m[0])) continue
    names.push(m[0])
  }
  return names
}

t.test('the parser finds metric names and nothing else', async (t) => {
  t.same(metricNames('histogram_quantile(0.99, sum by (le) (rate(ledger_block_connect_seconds_bucket{job="$job", instance=~"$i"}[5m])))'), ['ledger_block_connect_seconds_bucket'])
  t.same(metricNames('time() - ledger_tip_timestamp{job="a"}'), ['ledger_tip_timestamp'])
  t.same(metricNames('rate(a_total[5m]) / on (instance) b'), ['a_total', 'b'])
  t.same(metricNames('label_values(ledger_chain_height{job="$job"}, instance)'), ['ledger_chain_height', 'instance'], 'label_values\' second argument is a label: callers drop it')
})

t.test('every metric the board queries is on /metrics of a running node', async (t) => {
  const board = JSON.parse(readFileSync(BOARD, 'utf8')) as Board
  const node = await startDashboardNode({ config: { dashboard: { port: 0 } } })
  t.teardown(() => node.stop())
  await node.mine([])
  // a labelled counter has series once it counted something: a refused block
  const tip = node.resolve('chain').tip()
  await node.resolve('chain').processBlock(mineBlock(node.params, { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }, { difficulty: 3 }), 'test').catch(() => undefined)
  const port = (node.dash.server.address() as AddressInfo).port
  const res = await fetch(`http://127.0.0.1:${port}/metrics`)
  t.equal(res.status, 200)
  const exposed = new Set((await res.text()).split('\n').filter((l) => l !== '' && !l.startsWith('#')).map((l) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(l)?.[0]))

  const queried = new Set<string>()
  for (const p of board.panels) for (const target of p.targets ?? []) for (const name of metricNames(target.expr)) queried.add(name)
  // template variables: label_values(<metric>, <label>)
  for (const v of board.templating.list) queried.add(metricNames(v.query.query)[0] as string)
  t.ok(queried.size >= 20, `the board queries ${queried.size} metrics`)
  for (const name of queried) t.ok(exposed.has(name), `${name} is exposed`)

  const base = (name: string): string => name.replace(/_(bucket|sum|count)$/, '')
  // a histogram is charted through its _bucket/_sum/_count series (ledger_peer_count is a gauge of its own)
  const charted = new Set([...queried, ...[...queried].map(base)])
  for (const name of [...OPERATOR_METRICS, ...LEDGER_GAUGES.map((g) => g.name)]) {
    if (name === 'ledger_total_supply' || name === 'ledger_uptime_seconds') continue
    t.ok(charted.has(name), `the board charts ${name}`)
  }
  t.ok(board.panels.every((p) => p.type === 'row' || (p.targets?.length ?? 0) > 0), 'no empty panel')
})
