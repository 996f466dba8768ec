// The measured part of BENCHMARKS.md, from a `ledger bench --json FILE` result:
//   node bench/lib/markdown.ts FILE   (prints Markdown to stdout)
import { readFileSync } from 'node:fs'
import type { BenchResult } from '../index.ts'
import { renderMarkdown, verdict } from './table.ts'

export function benchmarksMarkdown (r: BenchResult): string {
  const m = r.machine
  const tables = renderMarkdown(r.families)
  const goals = r.families.flatMap((f) => f.goals)
  const count = (v: string): number => goals.filter((g) => verdict(g) === v).length
  return [
    `Measured ${r.started.slice(0, 16).replace('T', ' ')} UTC in ${Math.round(r.seconds)} s, ${r.runs} runs per figure after a warm-up${r.quick ? ' (QUICK: tiny sizes, numbers meaningless)' : ''}.`,
    '',
    '| | |',
    '|---|---|',
    `| machine | ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os} |`,
    `| Node | ${m.node} (V8 ${m.v8}) |`,
    `| project | ${m.project}${m.commit === null ? '' : ` @ ${m.commit}`} |`,
    `| packages | ${Object.entries(m.packages).map(([k, v]) => `${k} ${v}`).join(', ')} |`,
    `| load average (1/5/15 min) | ${m.loadAverage.join(' / ')} at start, ${r.loadAverageAtEnd.join(' / ')} at the end |`,
    '',
    '### Figures (min / median / max over the runs)',
    '',
    tables.rows,
    '',
    `### Goals: ${count('met')} met, ${count('MISSED')} missed${count('not evaluated') > 0 ? `, ${count('not evaluated')} not evaluated` : ''}`,
    '',
    'Each ratio is taken run by run (both sides measured back to back in the same run); the verdict is on the median.',
    '',
    tables.goals,
    ''
  ].join('\n')
}

if (import.meta.main) {
  const file = process.argv[2]
  if (file === undefined) {
    console.error('usage: node bench/lib/markdown.ts RESULT.json')
    process.exit(2)
  }
  process.stdout.write(benchmarksMarkdown(JSON.parse(readFileSync(file, 'utf8')) as BenchResult))
}
