import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the attest family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'attest')
  t.ok(report.available, 'the attest family is available')
  const names = report.rows.map((r) => r.name).join('\n')
  for (const row of ['verify one quicknet round', 'verify one default-chain round', 'random linear combination', 'quoting a new beacon round', 'without beacon evidence']) t.match(names, row, `measures: ${row}`)
  t.same(report.goals.map((g) => g.goal), ['one quicknet round: WASM BLS core (mcl) ≥ 2× the JS twin (@noble/curves)', 'connect with beacon evidence ≤ 1.25× without', 'sync 10,000 devnet blocks with beacon evidence ≥ 400 blocks/s'])
  t.equal(report.goals[2]?.met, null, 'the sync goal is the sync family\'s figure')
  for (const core of ['mcl-wasm', '@noble/curves']) t.match(names, `verify one quicknet round (G1 signature, RFC 9380), ${core}`, `both BLS cores measured: ${core}`)
})
