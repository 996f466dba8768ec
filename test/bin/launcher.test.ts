// The launcher gives `ledger run` V8's heap flags (bin/node-flags.js, issue 15): V8 sizes the
// young generation only at process start, so `ledger run` re-executes itself with them.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { NODE_FLAGS, missingNodeFlags } from '../../bin/node-flags.js'
import { CHILD_EXEC_ARGV } from '../../bench/lib/child.ts'

const ROOT = new URL('../..', import.meta.url).pathname
const NODE = path.join(ROOT, 'node_modules/.bin/node')

t.test('the flags cap the young generation', async (t) => {
  t.ok(NODE_FLAGS.some((f) => /^--max-semi-space-size=\d+$/.test(f)), '--max-semi-space-size is one of them')
})

t.test('missingNodeFlags: a flag set by name on the command line or in NODE_OPTIONS is not added again', async (t) => {
  t.same(missingNodeFlags([], undefined), NODE_FLAGS)
  t.same(missingNodeFlags(['--expose-gc'], '--enable-source-maps'), NODE_FLAGS)
  t.same(missingNodeFlags([...NODE_FLAGS], undefined), [])
  t.same(missingNodeFlags([], NODE_FLAGS.join(' ')), [])
  t.same(missingNodeFlags(['--max-semi-space-size=64'], undefined), [], "the user's own value wins")
  t.same(missingNodeFlags(['--max_semi_space_size=8'], undefined), [], 'V8 spells it with underscores too')
})

t.test('the bench starts its node processes with the same flags', async (t) => {
  for (const f of NODE_FLAGS) t.ok(CHILD_EXEC_ARGV.includes(f), f)
})

t.test('`ledger run` re-executes itself with the flags (same process); other commands start once', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-launcher-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // preloaded in every process image the launcher runs: reports its pid and V8 flags
  const probe = path.join(dir, 'probe.mjs')
  writeFileSync(probe, "process.stderr.write('PROBE ' + JSON.stringify({ pid: process.pid, execArgv: process.execArgv }) + '\\n')\n")
  const launch = (args: string[], execArgv: string[] = []): Array<{ pid: number; execArgv: string[] }> => {
    const r = spawnSync(NODE, [...execArgv, '--import', probe, path.join(ROOT, 'bin/ledger.js'), ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } })
    t.equal(r.status, 0, `ledger ${args.join(' ')} exits 0: ${r.stderr}`)
    return r.stderr.split('\n').filter((l) => l.startsWith('PROBE ')).map((l) => JSON.parse(l.slice(6)) as { pid: number; execArgv: string[] })
  }
  const run = launch(['run', '--help'])
  t.equal(run.length, 2, 'run: the launcher, then the same launcher with the flags')
  t.equal(run[0]?.pid, run[1]?.pid, 'replaced in place: the same pid (signals, supervisors)')
  for (const f of NODE_FLAGS) t.ok(run[1]?.execArgv.includes(f), `run has ${f}`)
  t.ok(run[1]?.execArgv.includes(probe), 'the caller\'s own node options are kept')
  t.equal(launch(['--help']).length, 1, '--help starts once')
  const own = launch(['run', '--help'], ['--max-semi-space-size=32'])
  t.equal(own.length, 1, "run with the user's own --max-semi-space-size starts once")
  t.ok(own[0]?.execArgv.includes('--max-semi-space-size=32'), "and keeps the user's value")
})
