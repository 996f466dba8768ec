import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the http family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'http')
  t.ok(report.available, 'the http family is available')
  for (const endpoint of ['anchor bare fastify route', 'explorer stats', 'explorer block', 'explorer tx', 'explorer address']) {
    t.ok(report.rows.some((r) => r.name.startsWith(endpoint) && r.unit === 'req/s'), `req/s of ${endpoint}`)
  }
  t.equal(report.rows.filter((r) => r.name.trim() === 'p99 latency').length, 6, 'p99 for every endpoint')
  t.ok(report.rows.some((r) => r.name.startsWith('memory: RSS per idle SSE connection')), 'SSE memory reported')
  t.same(report.goals.map((g) => g.goal), ['explorer stats ≥ 50% of the bare route', 'explorer block ≥ 50% of the bare route', 'explorer tx ≥ 50% of the bare route'])
})
