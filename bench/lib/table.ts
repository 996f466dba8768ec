// Plain-text and Markdown renderings of the measured rows and the goal verdicts.
import type { FamilyReport, GoalResult } from './types.ts'
import { formatNumber, formatRatio } from './format.ts'

type Cells = string[]

function rowCells (reports: FamilyReport[]): Cells[] {
  const out: Cells[] = []
  for (const r of reports) {
    if (!r.available) out.push([r.family, `not available yet: ${r.reason ?? 'unknown'}`, '', '', '', '', ''])
    for (const row of r.rows) {
      const s = row.stats
      out.push([row.family, row.name, row.unit, s === null ? '—' : formatNumber(s.min), s === null ? '—' : formatNumber(s.median), s === null ? '—' : formatNumber(s.max), row.note ?? ''])
    }
  }
  return out
}

export function verdict (g: GoalResult): string {
  if (g.met === null) return 'not evaluated'
  return g.met ? 'met' : 'MISSED'
}

function goalCells (reports: FamilyReport[]): Cells[] {
  return reports.flatMap((r) => r.goals.map((g) => [
    g.family,
    g.goal,
    `${g.comparison} ${g.threshold}`,
    g.ratio === null ? '—' : `${formatRatio(g.ratio.min)} / ${formatRatio(g.ratio.median)} / ${formatRatio(g.ratio.max)}`,
    verdict(g),
    g.note ?? ''
  ]))
}

const ROW_HEADER = ['family', 'measurement', 'unit', 'min', 'median', 'max', 'note']
const GOAL_HEADER = ['family', 'goal', 'need', 'ratio min / median / max', 'verdict', 'note']
const NUMERIC = new Set([3, 4, 5])

function textTable (header: Cells, rows: Cells[], numeric: Set<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: Cells): string => cells.map((c, i) => numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)).join('  ').trimEnd()
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

function markdownTable (header: Cells, rows: Cells[], numeric: Set<number>): string {
  const esc = (c: string): string => c.replace(/\|/g, '\\|')
  const align = header.map((_, i) => numeric.has(i) ? '---:' : '---')
  return [header, align, ...rows].map((r) => `| ${r.map(esc).join(' | ')} |`).join('\n')
}

export function renderText (reports: FamilyReport[]): string {
  const parts = [textTable(ROW_HEADER, rowCells(reports), NUMERIC)]
  const goals = goalCells(reports)
  if (goals.length > 0) parts.push('', 'Goals (ratios taken run by run, verdict on the median):', textTable(GOAL_HEADER, goals, new Set()))
  return parts.join('\n')
}

export function renderMarkdown (reports: FamilyReport[]): { rows: string; goals: string } {
  return { rows: markdownTable(ROW_HEADER, rowCells(reports), NUMERIC), goals: markdownTable(GOAL_HEADER, goalCells(reports), new Set()) }
}
