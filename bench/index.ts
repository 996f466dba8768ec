// `ledger bench`: the hot cores measured against their anchors, side by side in one run.
// The table goes to stdout, progress to stderr, and `--json FILE` writes everything measured.
import os from 'node:os'
import { writeFileSync } from 'node:fs'
import { FAMILY_NAMES } from './lib/types.ts'
import type { BenchFamily, FamilyName, FamilyReport } from './lib/types.ts'
import { familyProgress } from './lib/progress.ts'
import type { ProgressSink } from './lib/progress.ts'
import { describeMachine, machineInfo } from './lib/machine.ts'
import type { MachineInfo } from './lib/machine.ts'
import { renderText } from './lib/table.ts'
import { updateMarkdownFile } from './lib/markdown.ts'
import { powFamily } from './families/pow.ts'
import { sha3Family } from './families/sha3.ts'
import { mldsaFamily } from './families/mldsa.ts'
import { blockFamily } from './families/block.ts'
import { syncFamily } from './families/sync.ts'
import { httpFamily } from './families/http.ts'
import { vmFamily } from './families/vm.ts'
import { attestFamily } from './families/attest.ts'
import { cliFamily } from './families/cli.ts'

export interface BenchOptions {
  only?: string[]
  json?: string
  /** a Markdown file (BENCHMARKS.md) whose measured part is rewritten; the prose around it is kept */
  markdown?: string
  runs: number
  quick: boolean
}

export interface BenchResult {
  started: string
  seconds: number
  runs: number
  quick: boolean
  machine: MachineInfo
  loadAverageAtEnd: number[]
  /** each family's wall time and the machine's 1-minute load average as it started and ended */
  timeline: Array<{ family: FamilyName; seconds: number; loadAtStart: number; loadAtEnd: number }>
  families: FamilyReport[]
}

const FAMILIES: Record<FamilyName, BenchFamily> = {
  pow: powFamily,
  sha3: sha3Family,
  mldsa: mldsaFamily,
  vm: vmFamily,
  block: blockFamily,
  sync: syncFamily,
  http: httpFamily,
  attest: attestFamily,
  cli: cliFamily
}

export class BenchUsageError extends Error {
  override name = 'BenchUsageError'
}

function selectFamilies (only: string[] | undefined): FamilyName[] {
  if (only === undefined || only.length === 0) return [...FAMILY_NAMES]
  const unknown = only.filter((f) => !(FAMILY_NAMES as readonly string[]).includes(f))
  if (unknown.length > 0) throw new BenchUsageError(`unknown bench famil${unknown.length === 1 ? 'y' : 'ies'}: ${unknown.join(', ')} (known: ${FAMILY_NAMES.join(', ')})`)
  return FAMILY_NAMES.filter((f) => only.includes(f))
}

export interface BenchOutput {
  /** the machine description and the table (default: stdout) */
  print?: (text: string) => void
  /** progress lines (default: stderr) */
  progress?: ProgressSink
}

/** Runs the selected families and returns what was measured, printing the table at the end. */
export async function measure (opts: BenchOptions, out: BenchOutput = {}): Promise<BenchResult> {
  const print = out.print ?? ((t: string) => { process.stdout.write(t + '\n') })
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new BenchUsageError(`--runs must be a positive integer, got ${opts.runs}`)
  const names = selectFamilies(opts.only)
  const machine = machineInfo()
  const started = performance.now()
  print(describeMachine(machine))
  print(`runs per figure: ${opts.runs} after a warm-up${opts.quick ? ' (quick: tiny sizes, numbers meaningless)' : ''}\n`)
  const reports: FamilyReport[] = []
  const timeline: BenchResult['timeline'] = []
  const load1 = (): number => Math.round(os.loadavg()[0]! * 100) / 100
  for (const name of names) {
    const family = FAMILIES[name]
    const progress = familyProgress(name, performance.now(), out.progress)
    const loadAtStart = load1()
    progress(`starting (load average ${loadAtStart} on ${os.availableParallelism()} cores)`)
    const report = await family.run({ runs: opts.runs, quick: opts.quick, cores: os.availableParallelism(), progress })
    const loadAtEnd = load1()
    progress(`done in ${report.seconds.toFixed(1)} s (load average ${loadAtEnd})`)
    reports.push(report)
    timeline.push({ family: name, seconds: Math.round(report.seconds * 10) / 10, loadAtStart, loadAtEnd })
  }
  print(renderText(reports, {
    cores: os.availableParallelism(),
    atStart: machine.loadAverage[0] ?? 0,
    atEnd: load1(),
    familyStart: Object.fromEntries(timeline.map((x) => [x.family, x.loadAtStart]))
  }))
  return {
    started: new Date(Date.now() - (performance.now() - started)).toISOString(),
    seconds: (performance.now() - started) / 1000,
    runs: opts.runs,
    quick: opts.quick,
    machine,
    loadAverageAtEnd: os.loadavg().map((x) => Math.round(x * 100) / 100),
    timeline,
    families: reports
  }
}

export async function runBench (opts: BenchOptions): Promise<void> {
  // an interrupted bench still runs its exit handlers: temp chains removed, node processes told
  process.once('SIGINT', () => process.exit(130))
  const result = await measure(opts)
  if (opts.json !== undefined) {
    writeFileSync(opts.json, JSON.stringify(result, null, 2) + '\n')
    process.stderr.write(`wrote ${opts.json}\n`)
  }
  if (opts.markdown !== undefined) {
    updateMarkdownFile(opts.markdown, result)
    process.stderr.write(`updated the measured part of ${opts.markdown}\n`)
  }
}
