import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the block family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'block')
  t.ok(report.available, 'the block family is available')
  const connect = report.rows.find((r) => r.name.startsWith('validate + connect'))
  const bound = report.rows.find((r) => r.name.startsWith('anchor bound'))
  t.equal(connect?.unit, 'ms')
  t.equal(bound?.unit, 'ms')
  const g = report.goals[0]
  t.equal(g?.comparison, '<=')
  // the goal's ratio is connect time over the bound, run by run
  const ratios = connect!.stats!.samples.map((ms, i) => ms / bound!.stats!.samples[i]!)
  t.same(g?.ratio?.samples, ratios)
})
