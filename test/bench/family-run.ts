// Runs one bench family on its tiny (quick) sizes and checks what every family must show:
// the family's rows printed in the table, min/median/max over exactly the runs asked for,
// a verdict or a reason for every goal, and progress lines while it ran.
import type { Test } from 'tap'
import { measure } from '../../bench/index.ts'
import type { FamilyName, FamilyReport } from '../../bench/lib/types.ts'

export const QUICK_RUNS = 2

export interface FamilyRun { report: FamilyReport; text: string; progress: string[] }

/** `runs`: the families that start child nodes per run (sync, http) check one run, the rest two */
export async function runFamily (t: Test, family: FamilyName, runs: number = QUICK_RUNS): Promise<FamilyRun> {
  const printed: string[] = []
  const progress: string[] = []
  const result = await measure({ only: [family], runs, quick: true }, { print: (s) => printed.push(s), progress: (l) => progress.push(l) })
  const text = printed.join('\n')
  t.equal(result.families.length, 1, 'only the family asked for ran')
  const report = result.families[0]!
  t.equal(report.family, family)
  t.ok(progress.some((l) => l.startsWith(`[${family} `)), 'progress lines name the family')
  if (!report.available) {
    t.match(text, `not available yet: ${report.reason ?? ''}`, 'an unavailable family prints why')
    return { report, text, progress }
  }
  t.ok(report.rows.length > 0, 'the family measured rows')
  for (const row of report.rows) {
    t.match(text, row.name, `row printed: ${row.name}`)
    if (row.stats === null) {
      t.match(row.note ?? '', /not available yet/, `a row without figures says why: ${row.name}`)
      continue
    }
    t.equal(row.stats.samples.length, runs, `${row.name}: one sample per run`)
    t.ok(row.stats.min <= row.stats.median && row.stats.median <= row.stats.max, `${row.name}: min <= median <= max`)
    t.ok(row.stats.samples.every((x) => Number.isFinite(x) && x >= 0), `${row.name}: finite, non-negative samples`)
  }
  t.ok(report.goals.length > 0, 'the family has goals')
  for (const g of report.goals) {
    t.match(text, g.goal, `goal printed: ${g.goal}`)
    if (g.ratio === null) t.equal(g.met, null, 'an unevaluated goal has no verdict')
    else t.type(g.met, 'boolean', `${g.goal}: verdict`)
  }
  return { report, text, progress }
}
