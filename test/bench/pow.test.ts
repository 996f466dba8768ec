import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the pow family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'pow')
  t.ok(report.available, 'the pow family is available')
  const names = report.rows.map((r) => r.name).join('\n')
  for (const contender of ['WASM core, midstate', 'JS twin, midstate', 'node:crypto', 'hash-wasm', '@noble/hashes', 'worker pool, 1 thread', 'all cores']) {
    t.match(names, contender, `measures ${contender}`)
  }
  t.equal(report.rows.find((r) => r.name.startsWith('WASM core'))?.unit, 'nonces/s')
  t.equal(report.goals.length, 4, 'two WASM goals, the JS twin goal, the all-cores goal')
})
