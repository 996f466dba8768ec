// The Node/V8 flags and environment a long-running node needs (issue 15), in plain JavaScript
// so the launcher (bin/ledger.js) can read them before it loads anything else, and the bench
// can start its node processes with the same (bench/lib/child.ts).
//
// --max-semi-space-size=8: V8 lets the main thread's young generation grow to 2 × 64 MiB
// semi-spaces (Node 24 has no pointer compression) and keeps it once grown; a syncing node
// gets there within a few hundred blocks, 128 MiB of its RSS. 8 MiB semi-spaces hold the young
// garbage of a block of transfers (16 measured the same sync rate and ~20 MiB more of V8's
// pages). V8 reads the size only when the process starts: `v8.setFlagsFromString` later leaves
// the heap as configured, so the flag has to be on the command line (or in NODE_OPTIONS).
//
// Not --heap-growing-percent (V8's old-generation growth between full collections), which the
// node used to set to 30: it kept a syncing node's RSS down while it held a whole response of
// decoded blocks (~50 MiB live). Since it decodes each block just before connecting it, the
// live heap is ~27 MiB, and 30% growth meant a full collection every ~8 MiB promoted: three a
// second while syncing, the serving node spending twice the CPU a block (1.9-2.1 vs 1.0-1.35
// ms), the syncing node ~13% slower; without it RSS at 2,000 blocks of 20 transfers is 298-314
// MiB (290-293 with it).
//
// MALLOC_ARENA_MAX=1: glibc gives each thread that allocates its own malloc arena, up to 8 per
// core, and keeps what each arena ever held (freed chunks inside an arena stay resident); the
// node's threads (signature checks, RocksDB's flushes and compactions, libuv's pool) held ~90
// MiB of a syncing node's RSS in them. With two arenas the second (every thread but the main
// one) still grew 27 -> 42-56 MiB between heights 500 and 2,000 of a sync of 20-transfer
// blocks, RSS 1.10-1.16x; with one, what a compaction frees is what the next read or write
// reuses: RSS at 2,000 blocks 297-300 MiB (304-334 with two) and flat from height 500
// (1.00-1.04x), at a sync rate within the machine's noise (108 vs 113 blocks/s, three
// alternations). glibc reads it when the process starts, like the flag.
//
// MALLOC_MMAP_THRESHOLD_=131072, MALLOC_TRIM_THRESHOLD_=262144: with one arena, the main malloc
// heap still grew 20-33 MiB between heights 500 and 2,000 of that sync (RSS 1.08-1.15x, the
// block cache's 11 MiB of it): glibc raises its mmap threshold to the size of any mmap'd block
// freed (a memtable's, a compaction's buffers, up to 32 MiB) and its trim threshold to twice
// that, after which such blocks come from the heap and what they leave free at its top stays.
// Fixed at glibc's own starting values (which fixes both, no longer moved by what is freed),
// blocks of 128 KiB and more are mapped and unmapped, and 256 KiB free at the heap's top go
// back: RSS from height 500 to 2,000 1.00x median (1.00-1.17, seven syncs) against 1.085x
// (1.01-1.15) without in the memory probe, at the same sync rate (82-96 vs 88-92 blocks/s,
// alternated); in three full bench runs 1.03-1.14x (fifteen syncs, the runs' medians
// 1.06-1.08x) against 1.01-1.27x (median 1.09) in the ten syncs of the five runs before: the
// outliers went, the median less.

/** flags `ledger run` adds to the process unless the user set the same flag (by name) */
export const NODE_FLAGS = ['--max-semi-space-size=8']

/** environment `ledger run` adds to the process unless the user set the variable (to anything) */
export const NODE_ENV = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '262144' }

/**
 * The NODE_ENV entries `env` does not set.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string>}
 */
export function missingNodeEnv (env) {
  return Object.fromEntries(Object.entries(NODE_ENV).filter(([k]) => env[k] === undefined))
}

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
 * `ledger run` started without NODE_FLAGS or NODE_ENV (`node bin/ledger.js run`, `npx ledger
 * run`): the same process image again, same PID, stdio and environment, with the flags first and
 * the missing variables added. Other
 * commands are short-lived and start as they are (`ledger --help` stays one process start).
 * Without process.execve (Windows) the node runs without them.
 * @param {string[]} argv process.argv
 */
export function execWithNodeFlags (argv) {
  const command = argv.slice(2).find((a) => !a.startsWith('-'))
  if (command !== 'run' || typeof process.execve !== 'function') return
  const missing = missingNodeFlags(process.execArgv, process.env.NODE_OPTIONS)
  const env = missingNodeEnv(process.env)
  if (missing.length === 0 && Object.keys(env).length === 0) return
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...argv.slice(1)], { ...process.env, ...env })
}
