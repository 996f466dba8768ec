// Follow crash probe (issue 29's first goal for ctx.follow): 1,000 random reorgs (depth 1-20)
// with the node SIGKILLed at random points, after which the indexer's tables equal the ones
// recomputed from the final chain (0 missed, 0 duplicated). The node is a child process
// (bench/lib/follow-crash-node.ts: chain + followers + a SQLite indexer that writes its cursor
// with its data) in its own process group; this parent kills the group after a seeded random
// delay and starts it again on the same dirs, until the reorgs are done (after `--max-kills`
// kills it lets the child finish). Prints the figures; exits 1 on any mismatch.
//
//   node bench/follow-crash-probe.ts [--reorgs 1000] [--seed 29] [--kill-min-ms 1000] [--kill-max-ms 6000] [--max-kills N] [--kill-from spawn|ready] [--dir DIR] [--json]
import path from 'node:path'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { seededRandom } from '../testbed/runner/random.ts'
import { benchTmpDir, removeDir } from './lib/chain-fixture.ts'
import type { CrashNodeResult } from './lib/follow-crash-node.ts'

const { values } = parseArgs({
  options: {
    reorgs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '29' },
    'kill-min-ms': { type: 'string', default: '1000' },
    'kill-max-ms': { type: 'string', default: '6000' },
    'max-kills': { type: 'string', default: String(Number.MAX_SAFE_INTEGER) },
    /** the kill delay runs from the spawn (kills land in start-up too) or from the node's 'ready' (after its followers started) */
    'kill-from': { type: 'string', default: 'spawn' },
    /** the node's dirs (kept afterwards, for a caller that checks them); default a temp dir, removed */
    dir: { type: 'string' },
    json: { type: 'boolean', default: false }
  }
})
const reorgs = Number(values.reorgs)
const seed = Number(values.seed)
const killMin = Number(values['kill-min-ms'])
const killMax = Number(values['kill-max-ms'])
const maxKills = Number(values['max-kills'])
const say = (line: string): void => { if (!values.json) console.log(line) }

const nodeScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'follow-crash-node.ts')
const dir = values.dir ?? benchTmpDir('follow-crash')
const random = seededRandom(seed)
const progress = (): number => existsSync(path.join(dir, 'progress.json')) ? (JSON.parse(readFileSync(path.join(dir, 'progress.json'), 'utf8')) as { reorgs: number }).reorgs : 0

// the node's process group, while one lives: killed too when this process ends (Ctrl-C, a test's timeout)
let current: number | undefined
const killCurrent = (): void => { if (current !== undefined) try { process.kill(-current, 'SIGKILL') } catch { /* gone */ } }
process.once('exit', killCurrent)
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => { killCurrent(); process.exit(130) })

interface Run { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; killed: boolean }

/** one life of the node: it exits by itself (done, or failed) or is SIGKILLed (with its group) after `killAfterMs` */
async function run (killAfterMs: number | undefined): Promise<Run> {
  const child = spawn(process.execPath, [nodeScript, '--dir', dir, '--reorgs', String(reorgs), '--seed', String(seed)], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  let killed = false
  let timer: NodeJS.Timeout | undefined
  const arm = (): void => {
    if (killAfterMs === undefined || timer !== undefined) return
    timer = setTimeout(() => { killed = true; try { process.kill(-(child.pid as number), 'SIGKILL') } catch { /* exited already */ } }, killAfterMs)
  }
  if (values['kill-from'] === 'ready') child.stdout.on('data', () => { if (stdout.startsWith('ready')) arm() })
  else arm()
  current = child.pid
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => { resolve([c, s]) }))
  current = undefined
  clearTimeout(timer)
  return { code, signal, stdout, stderr, killed: killed && signal === 'SIGKILL' }
}

const started = performance.now()
let kills = 0
let starts = 0
let result: CrashNodeResult | undefined
try {
  for (;;) {
    const delay = kills < maxKills ? killMin + Math.floor(random() * (killMax - killMin)) : undefined
    const before = progress()
    const r = await run(delay)
    starts++
    if (r.killed) {
      kills++
      if (kills % 10 === 0 || kills <= 3) say(`kill ${kills} after ${delay} ms: ${progress()} reorgs done (${progress() - before} in that life)`)
      continue
    }
    if (r.code !== 0) throw new Error(`the node exited with ${r.code ?? r.signal}:\n${r.stderr.slice(-4000)}`)
    result = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as CrashNodeResult
    break
  }
} finally {
  if (values.dir === undefined) removeDir(dir)
}
const seconds = (performance.now() - started) / 1000
const figures = { ...result, kills, restarts: starts - 1, seconds: Math.round(seconds) }
if (values.json) console.log(JSON.stringify(figures))
else {
  say(`${figures.reorgs} reorgs (depth 1-20) over ${figures.blocks} best-chain blocks (height ${figures.height}); ${kills} SIGKILLs, ${figures.restarts} restarts; ${seconds.toFixed(0)} s`)
  say(`indexer vs the final chain: ${figures.rows} rows compared, ${figures.missed} missed, ${figures.duplicated} duplicated, ${figures.wrongBalances} balances differ`)
}
if (result === undefined || result.missed + result.duplicated + result.wrongBalances > 0) process.exitCode = 1
