// cli: how long `ledger --help` keeps an operator waiting — wall time of a fresh process
// (`node bin/ledger.js --help`, what `npx ledger` runs) from spawn to exit, against a bare `node -e 0` on the same
// Node measured in the same round (what no CLI can beat: the runtime's own start).
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { summarize, pairedRatios } from '../lib/stats.ts'
import { goal } from '../lib/goals.ts'
import type { BenchContext, BenchFamily, FamilyReport } from '../lib/types.ts'

const LEDGER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'ledger.js')

function secondsToRun (args: string[]): number {
  const t0 = performance.now()
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 })
  const s = (performance.now() - t0) / 1000
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${String(r.status)}: ${r.stderr.toString()}`)
  return s
}

async function run (ctx: BenchContext): Promise<FamilyReport> {
  const started = performance.now()
  const help: number[] = []
  const bare: number[] = []
  for (let i = 0; i <= ctx.runs; i++) {
    ctx.progress(`ledger --help and node -e 0, ${i === 0 ? 'warm-up' : `run ${i}/${ctx.runs}`}`)
    // alternate which goes first, so a neighbour's burst does not always land on one of them
    const h = i % 2 === 0 ? secondsToRun([LEDGER, '--help']) : 0
    const b = secondsToRun(['-e', '0'])
    const h2 = i % 2 === 0 ? h : secondsToRun([LEDGER, '--help'])
    if (i === 0) continue
    help.push(h2)
    bare.push(b)
  }
  return {
    family: 'cli',
    title: 'CLI start-up',
    available: true,
    rows: [
      { family: 'cli', name: '`node bin/ledger.js --help`, spawn to exit', unit: 's', stats: summarize(help) },
      { family: 'cli', name: '`node -e 0` (the runtime alone), spawn to exit', unit: 's', stats: summarize(bare), note: 'anchor: no CLI starts faster' }
    ],
    goals: [goal('cli', '`ledger --help` ≤ 0.25 s', summarize(help), '<=', 0.25, `the runtime alone takes ${summarize(bare).median.toFixed(3)} s; paired --help / node -e 0: ${pairedRatios(help, bare).median.toFixed(2)}×`)],
    seconds: (performance.now() - started) / 1000
  }
}

export const cliFamily: BenchFamily = { name: 'cli', title: 'CLI start-up', run }
