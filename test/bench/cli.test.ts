import t from 'tap'
import { cliFamily } from '../../bench/families/cli.ts'

t.test('the cli family times ledger --help against the bare runtime and judges the goal', async (t) => {
  const report = await cliFamily.run({ runs: 1, quick: true, cores: 2, progress: () => {} })
  t.equal(report.family, 'cli')
  t.equal(report.rows.length, 2)
  for (const row of report.rows) t.ok((row.stats?.median ?? 0) > 0, `${row.name} measured`)
  t.equal(report.goals[0]?.goal, '`ledger --help` ≤ 0.25 s')
  t.type(report.goals[0]?.met, 'boolean')
})
