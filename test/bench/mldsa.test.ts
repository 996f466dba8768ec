import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the mldsa family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'mldsa')
  t.ok(report.available, 'the mldsa family is available')
  for (const op of ['keygen', 'sign', 'verify']) {
    t.ok(report.rows.some((r) => r.name === `ML-DSA-87 ${op}, native (node:crypto)`), `native ${op}`)
    t.ok(report.rows.some((r) => r.name === `ML-DSA-87 ${op}, anchor @noble/post-quantum`), `noble ${op}`)
  }
  t.ok(report.rows.some((r) => r.name === 'ML-DSA-87 verify, WASM (cached key)'), 'wasm verify, cached key')
  t.ok(report.rows.some((r) => r.name === 'ML-DSA-87 verify, WASM (new key each time)'), 'wasm verify, new key')
  t.same(report.goals.map((g) => g.goal), ['native verify ≥ 5× noble verify', 'WASM verify (cached key) ≥ 2× native verify', 'WASM verify (new key) ≥ 0.83× native verify'])
})
