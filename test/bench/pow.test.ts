import t from 'tap'
import { runFamily } from './family-run.ts'
import { NETWORKS } from '../../config/networks.ts'
import { workOfBits } from '../../core/chain/target.ts'

t.test('the pow family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'pow')
  t.ok(report.available, 'the pow family is available')
  const names = report.rows.map((r) => r.name).join('\n')
  for (const contender of ['WASM core, midstate', 'WASM scalar core, midstate', 'JS twin, midstate', 'node:crypto', 'hash-wasm', '@noble/hashes', 'worker pool, 1 thread', 'all cores']) {
    t.match(names, contender, `measures ${contender}`)
  }
  t.equal(report.rows.find((r) => r.name.startsWith('WASM core'))?.unit, 'nonces/s')
  const ceiling = report.rows.find((r) => r.name.includes('(the ceiling)'))
  t.ok(ceiling, 'the testnet ceiling\'s block time is reported')
  t.equal(ceiling?.unit, 's')
  const all = report.rows.find((r) => r.name.includes('all cores') && r.unit === 'nonces/s')!
  const ceilingWork = Number(workOfBits(NETWORKS.testnet.hardestBits))
  t.same(ceiling?.stats?.samples, all.stats!.samples.map((rate) => ceilingWork / rate), 'derived run by run from the all-cores rate')
  t.equal(report.goals.length, 5, 'SIMD vs scalar, two WASM goals, the JS twin goal, the all-cores goal')
  t.match(report.goals[0]?.goal, /SIMD core ≥ 1.4× the scalar WASM core/)
})
