// Plain-text and Markdown renderings of the measured rows and the goal verdicts.
import type { FamilyName, FamilyReport, GoalResult } from './types.ts'
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

/** the machine's 1-minute load average around the run, to judge a missed goal by */
export interface LoadContext {
  cores: number
  /** as the bench started, before any family ran */
  atStart: number
  atEnd: number
  /** each family's load as it started */
  familyStart: Partial<Record<FamilyName, number>>
}

/** "high": other work kept three quarters of the cores busy as a family began (the bench's
 *  own earlier families count too; a missed goal then says little about the code) */
export const HIGH_LOAD_PER_CORE = 0.75

export function loadWarning (family: FamilyName, load: LoadContext | undefined): string | null {
  if (load === undefined) return null
  const seen = Math.max(load.atStart, load.familyStart[family] ?? 0)
  if (seen < load.cores * HIGH_LOAD_PER_CORE) return null
  return `machine loaded (1-min load ${seen} on ${load.cores} cores): re-run on an idle machine`
}

function goalCells (reports: FamilyReport[], load?: LoadContext): Cells[] {
  return reports.flatMap((r) => r.goals.map((g) => {
    const warning = g.met === false ? loadWarning(g.family, load) : null
    return [
      g.family,
      g.goal,
      `${g.comparison} ${g.threshold}`,
      g.ratio === null ? '—' : `${formatRatio(g.ratio.min)} / ${formatRatio(g.ratio.median)} / ${formatRatio(g.ratio.max)}`,
      verdict(g),
      [g.note, warning].filter((x) => x !== undefined && x !== null && x.length > 0).join('; ')
    ]
  }))
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

export function renderText (reports: FamilyReport[], load?: LoadContext): string {
  const parts = [textTable(ROW_HEADER, rowCells(reports), NUMERIC)]
  const goals = goalCells(reports, load)
  if (goals.length > 0) parts.push('', 'Goals (ratios taken run by run, verdict on the median):', textTable(GOAL_HEADER, goals, new Set()))
  if (load !== undefined) parts.push('', `load average (1 min): ${load.atStart} at start, ${load.atEnd} at the end, on ${load.cores} cores`)
  return parts.join('\n')
}

export function renderMarkdown (reports: FamilyReport[], load?: LoadContext): { rows: string; goals: string } {
  return { rows: markdownTable(ROW_HEADER, rowCells(reports), NUMERIC), goals: markdownTable(GOAL_HEADER, goalCells(reports, load), new Set()) }
}
