// How a long-running command (`ledger run`, `ledger entropy`) learns it must stop.
//
// `npx ledger run` is three processes: npm, a `sh -c` and the node. systemd, Docker or a
// plain `kill` signal the one the user started (npm); npm passes SIGTERM to the shell, the
// shell dies without passing it on, and the node is re-parented to init, still mining and
// holding its ports; on SIGHUP npm dies alone and the shell waits on for ever. So besides
// SIGINT / SIGTERM / SIGHUP the node watches its parent and, when that parent is a shell, the
// shell's parent too: when the process that started it goes away, it stops as if signalled.
// A SIGINT sent to npm alone (`kill -INT`, `docker kill --signal=INT`) is handed to the shell,
// and dash catches it and waits on for its child: nothing reaches the node. The one trace it
// leaves is that the sleeping shell woke up. The shell catches only SIGINT and SIGCHLD, and its
// only child is this node, so a wake-up while the node runs and was not stopped (Ctrl-Z sends
// the shell a SIGCHLD) is npm's forwarded interrupt. Ctrl-C in a terminal reaches the whole
// process group, the node included, and works without any of this.
import { readFileSync } from 'node:fs'

export type StopReason = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'parent exited'

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
/** how often the parent is checked; a stop is noticed within this */
export const PARENT_POLL_MS = 250

export interface StopWatch {
  /** removes the handlers (tests) */
  dispose(): void
}

/** Only under npm (npx, npm start, npm test) is the parent watched: a node started from a
 *  shell with `nohup ... &` or `disown` must outlive that shell. */
export function startedByNpm (env: NodeJS.ProcessEnv): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined
}

/**
 * Calls `onStop` once, on the first of: SIGINT, SIGTERM, SIGHUP, or the parent process
 * exiting. A parent of pid 1 at start (systemd, a container's init) is never "lost".
 */
export function watchForStop (onStop: (reason: StopReason) => void, proc: NodeJS.Process = process, watchParent = startedByNpm(proc.env)): StopWatch {
  let fired = false
  const fire = (reason: StopReason): void => {
    if (fired) return
    fired = true
    onStop(reason)
  }
  const handlers = SIGNALS.map((s) => {
    const h = (): void => fire(s)
    proc.on(s, h)
    return [s, h] as const
  })
  const parent = proc.ppid
  const parentStatus = parent > 1 ? status(parent) : undefined
  // the shell npm puts between itself and the node: watch the shell's parent as well
  const shell = parentStatus !== undefined && isShell(parentStatus.name) ? parentStatus.ppid : undefined
  const interrupts = watchParent && shell !== undefined && parentStatus !== undefined && parentStatus.catchesSigint
    ? new ShellWakeups(parent, parentStatus.wakeups)
    : undefined
  // Ctrl-Z / SIGSTOP of the node wakes the shell with a SIGCHLD: not an interrupt
  const continued = (): void => interrupts?.rebase()
  if (interrupts !== undefined) proc.on('SIGCONT', continued)
  const timer = watchParent && parent > 1
    ? setInterval(() => {
      if (proc.ppid !== parent) fire('parent exited')
      else if (shell !== undefined && parentOf(parent) !== shell) fire('parent exited')
      else if (interrupts?.wokeUp() === true) fire('SIGINT')
    }, PARENT_POLL_MS)
    : undefined
  timer?.unref()
  return {
    dispose () {
      for (const [s, h] of handlers) proc.off(s, h)
      if (interrupts !== undefined) proc.off('SIGCONT', continued)
      if (timer !== undefined) clearInterval(timer)
    }
  }
}

/** Counts the voluntary wake-ups of the shell that waits on this node. A wake-up is judged
 *  one poll after it is seen: a Ctrl-Z / fg of the node wakes the shell too, and the node's own
 *  SIGCONT handler (which runs after an overdue timer) must get the chance to excuse it. */
class ShellWakeups {
  readonly #pid: number
  #baseline: number
  /** wake-ups before this time are adopted, not judged (the node was just continued) */
  #quietUntil = 0
  #suspect = false
  constructor (pid: number, baseline: number) {
    this.#pid = pid
    this.#baseline = baseline
  }

  rebase (): void {
    this.#quietUntil = Date.now() + 2 * PARENT_POLL_MS
    this.#suspect = false
  }

  wokeUp (): boolean {
    const now = status(this.#pid)?.wakeups
    if (now === undefined) return false
    if (Date.now() < this.#quietUntil || now === this.#baseline) {
      this.#baseline = now
      this.#suspect = false
      return false
    }
    if (!this.#suspect) {
      this.#suspect = true
      return false
    }
    return true
  }
}

const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'busybox'])
function isShell (name: string | undefined): boolean { return name !== undefined && SHELLS.has(name) }

/** /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses */
function stat (pid: number): { name: string; ppid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const close = text.lastIndexOf(')')
    const rest = text.slice(close + 2).split(' ')
    return { name: text.slice(text.indexOf('(') + 1, close), ppid: Number(rest[1]) }
  } catch {
    return undefined // not Linux, or the process is gone
  }
}

/** /proc/<pid>/status: the signals a process catches and how often it went to sleep and woke */
function status (pid: number): { name: string; ppid: number; catchesSigint: boolean; wakeups: number } | undefined {
  try {
    const fields = new Map<string, string>()
    for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
      const colon = line.indexOf(':')
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trim())
    }
    const caught = BigInt(`0x${fields.get('SigCgt') ?? '0'}`)
    return {
      name: fields.get('Name') ?? '',
      ppid: Number(fields.get('PPid')),
      catchesSigint: (caught & SIGINT_BIT) !== 0n,
      wakeups: Number(fields.get('voluntary_ctxt_switches'))
    }
  } catch {
    return undefined // not Linux, or the process is gone
  }
}
const SIGINT_BIT = 1n << 1n // signal 2 is bit 1 of the mask

function parentOf (pid: number): number | undefined { return stat(pid)?.ppid }
