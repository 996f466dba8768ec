// One owner per data dir (issue 31 item 1). Two `ledger run` on one fresh data dir once
// raced: the loser, failing on RocksDB's lock, "cleaned up" what had appeared since it listed
// the directory, which was the winner's wallets/, node.key and chain/. Now every command that
// writes there takes this lock before it reads or writes anything else, and a start that fails
// removes only the paths it created itself while it held the lock.
//
// The lock is a file holding its owner (pid, command, start time, host), published whole with
// link(2), which fails atomically when the name exists: no window where a reader sees an
// empty lock. A lock whose pid is dead on this host is stale (a crash or SIGKILL) and is taken
// over; the takeover renames the stale file aside first, so of two processes racing for one
// stale lock only one wins the rename, and a rename that caught a fresh lock puts it back.
import { linkSync, readFileSync, readdirSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { ConfigError } from './config.ts'
import { storageFault } from './kv.ts'

export const LOCK_FILE = 'ledger.lock'

export interface LockOwner {
  pid: number
  /** what the owner runs, e.g. `ledger run` */
  command: string
  /** ISO time the lock was taken */
  since: string
  hostname: string
  /** the owner's start time in clock ticks since boot (Linux /proc), so a pid reused after a
   *  restart (a container's pid 1) is not mistaken for the owner; absent elsewhere */
  startTicks?: number
}

/** another live process owns the data dir: a user-fixable refusal (one line, exit 2) */
export class DataDirInUse extends ConfigError {
  readonly dir: string
  readonly owner: LockOwner
  constructor (dir: string, owner: LockOwner) {
    const foreign = owner.hostname !== hostname()
    super(`data dir ${dir} is in use by another ledger process (pid ${owner.pid}, '${owner.command}'${foreign ? ` on ${owner.hostname}` : ''}, since ${owner.since}); stop it first, or pass another --data-dir` +
      (foreign ? ` (a lock from another host is never taken over: if that host's node is gone, remove ${path.join(dir, LOCK_FILE)})` : ''))
    this.dir = dir
    this.owner = owner
  }
}

export interface DataDirLock {
  readonly dir: string
  /** true when this process made the data dir itself (it may then remove it on a failed start) */
  readonly createdDir: boolean
  /** removes what appeared in the data dir since the lock was taken (only this process can have
   *  made it), and the dir itself if this process made it and it is left empty; returns the paths */
  removeCreated(): string[]
  /** idempotent; removes the lock file */
  release(): void
}

/** field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot */
function startTicks (pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name (field 2) may hold spaces and parentheses: count from the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[19])
    return Number.isSafeInteger(ticks) ? ticks : undefined
  } catch {
    return undefined
  }
}

function alive (owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0)
  } catch (err) {
    // EPERM: the pid exists but belongs to another user
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  // the pid runs, but is it the owner? After a restart (a container's pid 1) it is someone else
  const now = owner.startTicks === undefined ? undefined : startTicks(owner.pid)
  return now === undefined || now === owner.startTicks
}

function readOwner (file: string): LockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>
    if (typeof o.pid !== 'number' || !Number.isSafeInteger(o.pid) || o.pid <= 0) return undefined
    const ticks = typeof o.startTicks === 'number' && Number.isSafeInteger(o.startTicks) ? o.startTicks : undefined
    return { pid: o.pid, command: String(o.command ?? 'unknown'), since: String(o.since ?? 'unknown'), hostname: String(o.hostname ?? hostname()), ...(ticks === undefined ? {} : { startTicks: ticks }) }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err
    return undefined
  }
}

/** an owner that can no longer hold the dir: a dead pid on this host, or a file that never got a pid */
function stale (owner: LockOwner | undefined): boolean {
  return owner === undefined || (owner.hostname === hostname() && !alive(owner))
}

function sameOwner (a: LockOwner | undefined, b: LockOwner | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * Takes the existing data dir for this process (`createdDir`: this process just made it).
 * Throws DataDirInUse naming the live owner; never touches any path but its own lock files.
 * The lock is also dropped when the process exits without releasing it (process.exit).
 */
export function lockDataDir (dir: string, command: string, createdDir = false): DataDirLock {
  const created = createdDir
  const lockPath = path.join(dir, LOCK_FILE)
  const ticks = startTicks(process.pid)
  const me: LockOwner = { pid: process.pid, command, since: new Date().toISOString(), hostname: hostname(), ...(ticks === undefined ? {} : { startTicks: ticks }) }
  const draft = path.join(dir, `${LOCK_FILE}.${process.pid}.${Math.random().toString(36).slice(2)}`)
  try {
    writeFileSync(draft, `${JSON.stringify(me)}\n`, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    // the first write of a start: a read-only or full data dir is said in words, before anything else
    rmSync(draft, { force: true })
    const fault = storageFault(err)
    if (fault !== undefined) throw new ConfigError(`data dir ${dir} cannot be written (${fault}): ${(err as Error).message}; free space or make it writable, or pass another --data-dir`)
    throw err
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, lockPath)
        break
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      }
      let owner: LockOwner | undefined
      try { owner = readOwner(lockPath) } catch { continue } // released meanwhile: try again
      if (!stale(owner) || attempt >= 5) {
        if (owner === undefined) throw new ConfigError(`data dir ${dir} has an unreadable ${LOCK_FILE} that is not going away; if no ledger process uses the dir, remove ${lockPath}`)
        throw new DataDirInUse(dir, owner)
      }
      takeOverStale(lockPath, owner)
    }
  } finally {
    rmSync(draft, { force: true })
  }
  const before = new Set(readdirSync(dir))
  let released = false
  const onExit = (): void => { lock.release() }
  process.once('exit', onExit)
  const lock: DataDirLock = {
    dir,
    createdDir: created,
    removeCreated () {
      const removed: string[] = []
      for (const name of readdirSync(dir)) {
        if (before.has(name) || name === LOCK_FILE) continue
        const p = path.join(dir, name)
        rmSync(p, { recursive: true, force: true })
        removed.push(p)
      }
      return removed
    },
    release () {
      if (released) return
      released = true
      process.removeListener('exit', onExit)
      // only our own lock: a lock file that is not ours (never expected) stays
      if (sameOwner(readOwnerOrUndefined(lockPath), me)) unlinkSync(lockPath)
      if (created) {
        try {
          rmdirSync(dir)
        } catch {
          // not empty: it holds what this run made and keeps
        }
      }
    }
  }
  return lock
}

function readOwnerOrUndefined (file: string): LockOwner | undefined {
  try { return readOwner(file) } catch { return undefined }
}

/** moves a stale lock aside; if what was moved turns out to be a fresh lock another process
 *  published meanwhile, it is put back (link fails if yet another took the name, which then owns it) */
function takeOverStale (lockPath: string, seen: LockOwner | undefined): void {
  const aside = `${lockPath}.stale.${process.pid}.${Math.random().toString(36).slice(2)}`
  try {
    renameSync(lockPath, aside)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return // another process moved it first
    throw err
  }
  const moved = readOwnerOrUndefined(aside)
  if (!sameOwner(moved, seen) && !stale(moved)) {
    try { linkSync(aside, lockPath) } catch { /* someone else holds the name now */ }
  }
  rmSync(aside, { force: true })
}
