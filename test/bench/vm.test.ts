import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the vm family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'vm')
  t.ok(report.available, 'the vm family is available')
  for (const workload of ['arithmetic loop', 'storage read/write loop', 'SHA3 loop']) {
    for (const engine of ['WASM interpreter', 'JS twin', 'anchor @ethereumjs/evm']) {
      const row = report.rows.find((r) => r.name === `${workload}, ${engine}`)
      t.equal(row?.unit, 'gas/s', `${workload} on ${engine}`)
      t.not(row?.stats, null, `${workload} on ${engine} was measured`)
    }
    t.ok(report.goals.some((g) => g.goal === `${workload}: WASM ≥ 3× JS twin`), `WASM goal on the ${workload}`)
  }
  t.ok(report.goals.some((g) => g.goal === 'arithmetic loop: JS twin ≥ @ethereumjs/evm (gas/s)'))
})
