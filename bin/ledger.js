#!/usr/bin/env node
// `npx ledger`: plain JavaScript, so starting the CLI does not load Node's TypeScript
// stripper for this file; the compile cache keeps the stripped code of the modules loaded
// next, so a second start skips most of that work too (`ledger --help`, issue 15).
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { pinnedNode, requiredNodeRange, satisfies, wrongNodeMessage } from './runtime.js'

// On another Node than the pinned one (a system Node on PATH, started from a plugin's folder):
// the same command on the pinned runtime, or one line saying which Node is needed
const range = requiredNodeRange()
if (!satisfies(process.versions.node, range)) {
  const pinned = pinnedNode()
  if (pinned === undefined || path.resolve(pinned) === path.resolve(process.execPath)) {
    console.error(wrongNodeMessage(process.versions.node, process.execPath, range))
    process.exit(1)
  }
  const run = spawnSync(pinned, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' })
  if (run.error !== undefined) { console.error(`ledger: cannot start ${pinned}: ${run.error.message}`); process.exit(1) }
  if (run.signal !== null) process.kill(process.pid, run.signal)
  process.exit(run.status ?? 1)
}

const [{ enableCompileCache }, { execWithNodeFlags }] = await Promise.all([import('node:module'), import('./node-flags.js')])
// `ledger run` re-executes itself with V8's heap flags (bin/node-flags.js) before loading anything
execWithNodeFlags(process.argv)
// The cache for this thread and, through the environment, for the worker threads (signature
// checks, proof of work) and child processes started later: a thread that finds its modules'
// stripped code there never instantiates Node's TypeScript stripper (~0.2 s of CPU per thread;
// `ledger run` starts four). Node's default directory unless the user chose one.
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'node-compile-cache')
enableCompileCache(process.env.NODE_COMPILE_CACHE)
const { main } = await import('../core/kernel/cli.ts')
await main()
