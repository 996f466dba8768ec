// The launcher gives `ledger run` V8's heap flags (bin/node-flags.js, issue 15): V8 sizes the
// young generation only at process start, so `ledger run` re-executes itself with them.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { NODE_ENV, NODE_FLAGS, missingNodeEnv, missingNodeFlags } from '../../bin/node-flags.js'
import { CHILD_ENV, CHILD_EXEC_ARGV } from '../../bench/lib/child.ts'

const ROOT = new URL('../..', import.meta.url).pathname
const NODE = path.join(ROOT, 'node_modules/.bin/node')

t.test('the flags cap the young generation, and leave the old generation\'s growth to V8', async (t) => {
  t.ok(NODE_FLAGS.some((f) => /^--max-semi-space-size=\d+$/.test(f)), '--max-semi-space-size is one of them')
  t.notOk(NODE_FLAGS.some((f) => /^--heap-growing-percent=/.test(f)), 'not --heap-growing-percent (a full collection every few MiB promoted)')
})

t.test('missingNodeFlags: a flag set by name on the command line or in NODE_OPTIONS is not added again', async (t) => {
  t.same(missingNodeFlags([], undefined), NODE_FLAGS)
  t.same(missingNodeFlags(['--expose-gc'], '--enable-source-maps'), NODE_FLAGS)
  t.same(missingNodeFlags([...NODE_FLAGS], undefined), [])
  t.same(missingNodeFlags([], NODE_FLAGS.join(' ')), [])
  t.same(missingNodeFlags(['--max-semi-space-size=64'], undefined), [], "the user's own value wins")
  t.same(missingNodeFlags(['--max_semi_space_size=8'], undefined), [], 'V8 spells them with underscores too')
  t.same(missingNodeFlags(['--heap-growing-percent=30'], undefined), NODE_FLAGS, 'a flag of the user\'s that is not ours changes nothing')
})

t.test('missingNodeEnv: a variable the user set, to anything, is left alone', async (t) => {
  t.same(NODE_ENV, { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '262144' }, 'one malloc arena for every thread, fixed mmap and trim thresholds')
  t.same(missingNodeEnv({}), NODE_ENV)
  t.same(missingNodeEnv({ MALLOC_ARENA_MAX: '8' }), { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '262144' }, 'each variable on its own')
  t.same(missingNodeEnv({ MALLOC_ARENA_MAX: '', MALLOC_MMAP_THRESHOLD_: '', MALLOC_TRIM_THRESHOLD_: '' }), {}, 'even an empty value is the user\'s')
})

t.test('the bench starts its node processes with the same flags and environment', async (t) => {
  for (const f of NODE_FLAGS) t.ok(CHILD_EXEC_ARGV.includes(f), f)
  for (const [k, v] of Object.entries(NODE_ENV)) t.equal(CHILD_ENV[k], process.env[k] ?? v, k)
})

t.test('`ledger run` re-executes itself with the flags (same process); other commands start once', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-launcher-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // preloaded in every process image the launcher runs: reports its pid and V8 flags
  const probe = path.join(dir, 'probe.mjs')
  writeFileSync(probe, "process.stderr.write('PROBE ' + JSON.stringify({ pid: process.pid, execArgv: process.execArgv, malloc: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MALLOC_'))) }) + '\\n')\n")
  interface Probe { pid: number; execArgv: string[]; malloc: Record<string, string> }
  const launch = (args: string[], execArgv: string[] = [], env: Record<string, string> = {}): Probe[] => {
    const base: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: '' }
    for (const k of Object.keys(NODE_ENV)) delete base[k]
    const r = spawnSync(NODE, [...execArgv, '--import', probe, path.join(ROOT, 'bin/ledger.js'), ...args], { encoding: 'utf8', timeout: 60_000, env: { ...base, ...env } })
    t.equal(r.status, 0, `ledger ${args.join(' ')} exits 0: ${r.stderr}`)
    return r.stderr.split('\n').filter((l) => l.startsWith('PROBE ')).map((l) => JSON.parse(l.slice(6)) as Probe)
  }
  const run = launch(['run', '--help'])
  t.equal(run.length, 2, 'run: the launcher, then the same launcher with the flags')
  t.equal(run[0]?.pid, run[1]?.pid, 'replaced in place: the same pid (signals, supervisors)')
  for (const f of NODE_FLAGS) t.ok(run[1]?.execArgv.includes(f), `run has ${f}`)
  t.equal(run[0]?.malloc.MALLOC_ARENA_MAX, undefined)
  t.equal(run[1]?.malloc.MALLOC_ARENA_MAX, NODE_ENV.MALLOC_ARENA_MAX, 'and MALLOC_ARENA_MAX in its environment')
  t.same(run[1]?.malloc, NODE_ENV, 'with the mmap and trim thresholds')
  t.ok(run[1]?.execArgv.includes(probe), 'the caller\'s own node options are kept')
  t.equal(launch(['--help']).length, 1, '--help starts once')
  const own = launch(['run', '--help'], ['--max-semi-space-size=32', '--heap-growing-percent=50'], { ...NODE_ENV, MALLOC_ARENA_MAX: '4' })
  t.ok(own[0]?.execArgv.includes('--heap-growing-percent=50'), "the user's other V8 flags are kept")
  t.equal(own.length, 1, "run with the user's own flags and malloc variables starts once")
  t.ok(own[0]?.execArgv.includes('--max-semi-space-size=32'), "and keeps the user's value")
  t.equal(own[0]?.malloc.MALLOC_ARENA_MAX, '4', "and the user's arenas")
  const flagOnly = launch(['run', '--help'], ['--max-semi-space-size=32'])
  t.equal(flagOnly.length, 2, 'the flag given but not the variable: re-executed for the variable')
  t.equal(flagOnly[1]?.malloc.MALLOC_ARENA_MAX, NODE_ENV.MALLOC_ARENA_MAX)
  t.ok(flagOnly[1]?.execArgv.includes('--max-semi-space-size=32') && !flagOnly[1]?.execArgv.includes('--max-semi-space-size=8'), "with the user's semi-space flag, not ours")
})
