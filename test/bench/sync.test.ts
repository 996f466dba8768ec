import t from 'tap'
import { runFamily } from './family-run.ts'

t.test('the sync family runs on a tiny size and prints its rows', async (t) => {
  const { report, progress } = await runFamily(t, 'sync', 1)
  t.ok(report.available, 'the sync family is available')
  for (const variant of ['empty blocks', '2-tx blocks']) {
    t.ok(report.rows.some((r) => r.name.startsWith('initial sync of') && r.name.includes(variant) && r.unit === 'blocks/s'), `sync rate of ${variant}`)
    t.ok(report.rows.some((r) => r.name.startsWith("memory: syncing node's RSS") && r.name.includes(variant) && r.unit === 'MiB'), `RSS after syncing ${variant}`)
    t.ok(report.rows.some((r) => r.name.startsWith("memory: syncing node's JS heap") && r.name.includes(variant)), `heap after syncing ${variant}`)
    t.ok(report.rows.some((r) => r.name.startsWith("memory: syncing node's external memory") && r.name.includes(variant)), `external memory after syncing ${variant}`)
    t.ok(report.goals.some((g) => g.goal.startsWith(variant)), `goal for ${variant}`)
  }
  t.ok(report.rows.some((r) => r.name.startsWith('anchor connect rate')), 'the connect-rate anchor')
  // where a sync's time goes: CPU per block of the anchor and of both nodes of the sync
  for (const who of ['anchor connect from memory', 'syncing node', 'serving node']) {
    const rows = report.rows.filter((r) => r.name.startsWith(`  CPU per block: ${who}`))
    t.equal(rows.length, 2, `CPU per block of the ${who}, for each variant`)
    t.ok(rows.every((r) => r.unit === 'ms' && r.stats !== null && r.stats.median > 0), `${who}: a positive figure`)
  }
  // issue 15: the syncing node's RSS early and at the end of one sync, and the two memory goals
  for (const height of [4, 12]) t.ok(report.rows.some((r) => r.name === `memory: syncing node at height ${height} of 12 blocks of 2 transfers: RSS` && r.unit === 'MiB'), `RSS at height ${height}`)
  t.ok(report.goals.some((g) => g.goal.startsWith('memory: RSS after syncing 12 blocks') && g.threshold === 1), 'the RSS bound goal')
  t.ok(report.goals.some((g) => g.goal.startsWith('memory: RSS flat from height 4 to 12') && g.met !== null), 'the flatness goal')
  t.ok(progress.some((l) => /syncing \d+ blocks from the peer/.test(l)), 'progress while syncing')
})
