import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the attest family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'attest')
  t.ok(report.available, 'the attest family is available')
  const names = report.rows.map((r) => r.name).join('\n')
  for (const row of ['verify one quicknet round', 'verify one default-chain round', 'random linear combination', 'quoting a new beacon round', 'without beacon evidence']) t.match(names, row, `measures: ${row}`)
  t.equal(report.goals[0]?.goal, 'connect with beacon evidence ≤ 1.25× without')
  t.equal(report.goals[1]?.met, null, 'the sync goal is the sync family\'s figure')
})
