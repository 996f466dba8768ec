// The measured part of BENCHMARKS.md. `ledger bench --markdown BENCHMARKS.md` rewrites the
// part between the two markers below and keeps the prose around it; from a saved result:
//   node bench/lib/markdown.ts RESULT.json                 (prints Markdown to stdout)
//   node bench/lib/markdown.ts RESULT.json BENCHMARKS.md   (updates the file's measured part)
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { BenchResult } from '../index.ts'
import { renderMarkdown, verdict } from './table.ts'

export function benchmarksMarkdown (r: BenchResult): string {
  const m = r.machine
  const tables = renderMarkdown(r.families, {
    cores: m.cores,
    atStart: m.loadAverage[0] ?? 0,
    atEnd: r.loadAverageAtEnd[0] ?? 0,
    familyStart: Object.fromEntries((r.timeline ?? []).map((x) => [x.family, x.loadAtStart]))
  })
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
    ...(r.timeline === undefined ? [] : [`| per family: seconds (1-min load average at start → end) | ${r.timeline.map((f) => `${f.family} ${Math.round(f.seconds)} s (${f.loadAtStart} → ${f.loadAtEnd})`).join(', ')} |`]),
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

export const BEGIN_MARKER = '<!-- ledger bench: generated from here -->'
export const END_MARKER = '<!-- ledger bench: generated up to here -->'

/**
 * The file's text with its measured part (between the markers) replaced by `r`'s; a file
 * without the markers (or no file) gets the measured part appended.
 */
export function withMeasuredPart (existing: string | null, r: BenchResult): string {
  const part = `${BEGIN_MARKER}\n${benchmarksMarkdown(r)}${END_MARKER}\n`
  if (existing === null) return `# Benchmarks\n\n${part}`
  const begin = existing.indexOf(BEGIN_MARKER)
  const end = existing.indexOf(END_MARKER)
  if (begin < 0 || end < begin) return `${existing.trimEnd()}\n\n${part}`
  return existing.slice(0, begin) + part + existing.slice(end + END_MARKER.length).replace(/^\n/, '')
}

export function updateMarkdownFile (file: string, r: BenchResult): void {
  writeFileSync(file, withMeasuredPart(existsSync(file) ? readFileSync(file, 'utf8') : null, r))
}

if (import.meta.main) {
  const [json, target] = process.argv.slice(2)
  if (json === undefined) {
    console.error('usage: node bench/lib/markdown.ts RESULT.json [BENCHMARKS.md]')
    process.exit(2)
  }
  const result = JSON.parse(readFileSync(json, 'utf8')) as BenchResult
  if (target === undefined) process.stdout.write(benchmarksMarkdown(result))
  else updateMarkdownFile(target, result)
}
