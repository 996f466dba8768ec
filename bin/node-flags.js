// The Node/V8 flags a long-running node needs (issue 15), in plain JavaScript so the launcher
// (bin/ledger.js) can read them before it loads anything else, and the bench can start its
// node processes with the same flags (bench/lib/child.ts).
//
// --max-semi-space-size=16: V8 lets the main thread's young generation grow to 2 × 64 MiB
// semi-spaces (Node 24 has no pointer compression) and keeps it once grown; a syncing node
// gets there within a few hundred blocks, 128 MiB of its RSS. 16 MiB semi-spaces hold the
// young garbage of a block of transfers. V8 reads the size only when the process starts:
// `v8.setFlagsFromString` later leaves the heap as configured, so the flag has to be on the
// command line (or in NODE_OPTIONS).

/** flags `ledger run` adds to the process unless the user set the same flag (by name) */
export const NODE_FLAGS = ['--max-semi-space-size=16']

const flagName = (arg) => arg.split('=')[0].replaceAll('_', '-')

/**
 * The NODE_FLAGS that neither `execArgv` nor `nodeOptions` (NODE_OPTIONS) sets; a flag the user
 * gave with another value counts as set, so their value wins.
 * @param {string[]} execArgv
 * @param {string | undefined} nodeOptions
 * @returns {string[]}
 */
export function missingNodeFlags (execArgv, nodeOptions) {
  const given = new Set([...execArgv, ...(nodeOptions ?? '').split(/\s+/)].filter((a) => a.startsWith('--')).map(flagName))
  return NODE_FLAGS.filter((f) => !given.has(flagName(f)))
}

/**
 * `ledger run` started without NODE_FLAGS (`node bin/ledger.js run`, `npx ledger run`): the
 * same process image again, same PID, stdio and environment, with the flags first. Other
 * commands are short-lived and start as they are (`ledger --help` stays one process start).
 * Without process.execve (Windows) the node runs without them.
 * @param {string[]} argv process.argv
 */
export function execWithNodeFlags (argv) {
  const command = argv.slice(2).find((a) => !a.startsWith('-'))
  if (command !== 'run' || typeof process.execve !== 'function') return
  const missing = missingNodeFlags(process.execArgv, process.env.NODE_OPTIONS)
  if (missing.length === 0) return
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...argv.slice(1)], process.env)
}
