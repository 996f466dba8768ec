// How a long-running command (`ledger run`, `ledger entropy`) learns it must stop.
//
// `npx ledger run` is three processes: npm, a `sh -c` and the node. systemd, Docker or a
// plain `kill` signal the one the user started (npm); npm passes SIGTERM to the shell, the
// shell dies without passing it on, and the node is re-parented to init, still mining and
// holding its ports; on SIGHUP npm dies alone and the shell waits on for ever. So besides
// SIGINT / SIGTERM / SIGHUP the node watches its parent and, when that parent is a shell, the
// shell's parent too: when the process that started it goes away, it stops as if signalled.
// (A SIGINT sent to npm alone is not seen: npm hands it to the shell, which ignores it while
// it waits on a child. Ctrl-C in a terminal reaches the whole process group and works.)
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
  // the shell npm puts between itself and the node: watch the shell's parent as well
  const shell = parent > 1 && isShell(processName(parent)) ? parentOf(parent) : undefined
  const timer = watchParent && parent > 1
    ? setInterval(() => {
      if (proc.ppid !== parent) fire('parent exited')
      else if (shell !== undefined && parentOf(parent) !== shell) fire('parent exited')
    }, PARENT_POLL_MS)
    : undefined
  timer?.unref()
  return {
    dispose () {
      for (const [s, h] of handlers) proc.off(s, h)
      if (timer !== undefined) clearInterval(timer)
    }
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

function processName (pid: number): string | undefined { return stat(pid)?.name }
function parentOf (pid: number): number | undefined { return stat(pid)?.ppid }
