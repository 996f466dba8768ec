import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the sha3 family runs on a tiny size and prints its rows', async (t) => {
  const { report } = await runFamily(t, 'sha3')
  t.ok(report.available, 'the sha3 family is available')
  // SHA3-256 and SHA3-512 × 4 sizes × (WASM, JS twin, node:crypto, hash-wasm, @noble/hashes)
  t.equal(report.rows.length, 2 * 4 * 5)
  for (const size of ['32 B', '200 B', '4 KB', '1 MB']) {
    t.ok(report.rows.some((r) => r.name === `SHA3-512 ${size} WASM core`), `SHA3-512 at ${size}`)
    t.ok(report.goals.some((g) => g.goal.startsWith(`SHA3-256 ${size}:`)), `a SHA3-256 goal at ${size}`)
  }
  t.ok(report.rows.every((r) => r.unit === 'MB/s' && /ops\/s/.test(r.note ?? '')), 'MB/s with ops/s alongside')
})
