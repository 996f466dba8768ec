import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the http family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'http', 1)
  t.ok(report.available, 'the http family is available')
  for (const endpoint of ['anchor bare fastify route', 'explorer stats', 'explorer blocks', 'explorer block', 'explorer tx']) {
    t.ok(report.rows.some((r) => r.name.startsWith(endpoint) && r.unit === 'req/s'), `req/s of ${endpoint}`)
  }
  for (const chain of ['40-block chain', '400-block chain']) {
    for (const who of ['a sender', 'the miner']) {
      t.ok(report.rows.some((r) => r.name.startsWith(`explorer address, ${chain} (${who}`) && r.unit === 'req/s'), `address lookup of ${who} on the ${chain}`)
    }
  }
  const sender = report.rows.filter((r) => /\(a sender, \d+ txs\)/.test(r.name)).map((r) => /\d+ txs/.exec(r.name)![0])
  t.equal(sender.length, 2, 'the sender is looked up on both chains')
  t.equal(sender[0], sender[1], 'with the same history on both')
  t.equal(report.rows.filter((r) => r.name.trim() === 'p99 latency').length, 9, 'p99 for every endpoint')
  t.ok(report.rows.some((r) => r.name.startsWith('memory: RSS per idle SSE connection')), 'SSE memory reported')
  t.same(report.goals.map((g) => g.goal), [
    'explorer stats ≥ 75% of the bare route',
    'explorer block ≥ 50% of the bare route',
    'explorer tx ≥ 50% of the bare route',
    'address lookup (a sender): 400-block chain ≥ 80% of the 40-block chain',
    'address lookup (the miner, ~10× the history): 400-block chain ≥ 80% of the 40-block chain'
  ])
})
