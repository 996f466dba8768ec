// `ledger testbed`: a scenario (shipped or a file) with the flags over it, run on real node
// processes of this checkout; the figures printed and written as report.json and report.html.
import path from 'node:path'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { DEFAULT_SCENARIO, MAX_NODES, ScenarioError, loadScenario, parseScenario } from './scenario/parse.ts'
import type { Scenario } from './scenario/types.ts'
import { runScenario } from './runner/run.ts'
import { computeFigures } from './figures/index.ts'
import type { Figures } from './figures/index.ts'
import { figuresTable } from './report/table.ts'
import { htmlReport } from './report/html.ts'
import type { LoadStats } from './runner/load.ts'
import type { Recording } from './figures/recording.ts'

export class TestbedUsageError extends Error {}

export interface TestbedFlags {
  scenario?: string
  nodes?: number
  miners?: number
  /** percent of each miner's hashing thread's time spent hashing (the scenario's mineDuty) */
  mineDuty?: number
  topology?: string
  latency?: number
  jitter?: number
  bandwidth?: string
  seed?: number
  duration?: number
  out?: string
  keep?: boolean
  /** recompute the figures of this report.json instead of running */
  report?: string
}

/** the scenario the flags name, with the flags over it (no scenario: an idle network of the defaults) */
export function scenarioFromFlags (f: TestbedFlags): Scenario {
  try {
    const base: Scenario = f.scenario !== undefined ? loadScenario(f.scenario) : parseScenario({ ...DEFAULT_SCENARIO, steps: [] }, 'custom')
    const over: Record<string, unknown> = { ...base }
    if (f.nodes !== undefined) over.nodes = f.nodes
    if (f.miners !== undefined) over.miners = f.miners
    else if (f.nodes !== undefined) over.miners = Math.min(base.miners, f.nodes)
    if (f.mineDuty !== undefined) over.mineDuty = f.mineDuty
    if (f.topology !== undefined) over.topology = f.topology
    if (f.latency !== undefined) over.latencyMs = f.latency
    if (f.jitter !== undefined) over.jitterMs = f.jitter
    if (f.bandwidth !== undefined) over.bandwidth = f.bandwidth
    if (f.seed !== undefined) over.seed = f.seed
    if (f.duration !== undefined) over.durationSeconds = f.duration
    return parseScenario(over, base.name)
  } catch (err) {
    if (err instanceof ScenarioError) throw new TestbedUsageError(`${err.message}${f.nodes !== undefined && f.nodes > MAX_NODES ? ` (at most ${MAX_NODES} nodes)` : ''}`)
    throw err
  }
}

/** figures and HTML again from a report.json's recording (after a change to the figures, or by a third party) */
export function rerenderReport (file: string, log: (line: string) => void = (l) => { console.log(l) }): Figures {
  let report: { scenario: Scenario; load?: LoadStats; recording: Recording }
  try { report = JSON.parse(readFileSync(file, 'utf8')) as typeof report } catch (err) { throw new TestbedUsageError(`${file}: ${(err as Error).message}`) }
  if (report.recording === undefined) throw new TestbedUsageError(`${file} holds no recording`)
  // recordings from before the latency was recorded: the scenario's (a `links` step may have changed it)
  report.recording.latencyMs ??= report.scenario?.latencyMs
  const figures = computeFigures(report.recording)
  const dir = path.dirname(path.resolve(file))
  writeFileSync(path.join(dir, 'report.json'), JSON.stringify({ ...report, figures }))
  writeFileSync(path.join(dir, 'report.html'), htmlReport(figures, report.recording))
  log(figuresTable(figures))
  return figures
}

export interface TestbedOutcome { figures: Figures; load: LoadStats; outDir: string }

export async function runTestbed (f: TestbedFlags, log: (line: string) => void = (l) => { console.log(l) }): Promise<TestbedOutcome | Figures> {
  if (f.report !== undefined) return rerenderReport(f.report, log)
  const scenario = scenarioFromFlags(f)
  const outDir = path.resolve(f.out ?? path.join('testbed-reports', `${scenario.name}-${new Date().toISOString().replace(/[:.]/g, '-')}`))
  mkdirSync(outDir, { recursive: true })
  const { recording, load } = await runScenario({ scenario, outDir, keep: f.keep === true, log })
  const figures = computeFigures(recording)
  writeFileSync(path.join(outDir, 'report.json'), JSON.stringify({ scenario, figures, load, recording }))
  writeFileSync(path.join(outDir, 'report.html'), htmlReport(figures, recording))
  log('')
  log(figuresTable(figures))
  log(`load: ${load.submitted} submitted, ${load.accepted} accepted by their entry node ${JSON.stringify(load.byKind)}, refused ${JSON.stringify(load.refused)}`)
  log(`report: ${path.join(outDir, 'report.html')} (figures and recording: report.json; node logs: ${path.join(outDir, 'logs')})`)
  return { figures, load, outDir }
}
