// Starting and talking to a node process (node-process.ts): every wait is bounded, and a
// child that reports an error or exits early fails the wait with its reason.
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import type { ChildMessage, ChildSpec, ParentMessage } from './child-protocol.ts'
import { NODE_FLAGS, missingNodeEnv } from '../../bin/node-flags.js'

const ENTRY = new URL('./node-process.ts', import.meta.url)
/**
 * A node process runs with the flags and environment `ledger run` gives itself
 * (bin/node-flags.js), or its memory would not be the user's (issue 15); `--expose-gc` for the
 * memory figures.
 * LEDGER_BENCH_NO_NODE_FLAGS=1 leaves them out, to measure what they change.
 */
const withNodeFlags = process.env.LEDGER_BENCH_NO_NODE_FLAGS !== '1'
export const CHILD_EXEC_ARGV = [...(withNodeFlags ? NODE_FLAGS : []), '--expose-gc', '--no-deprecation']
/** ...and its environment (bin/node-flags.js NODE_ENV), a variable set here winning as it does for `ledger run` */
export const CHILD_ENV: NodeJS.ProcessEnv = { ...process.env, ...(withNodeFlags ? missingNodeEnv(process.env) : {}) }

export interface Child {
  process: ChildProcess
  /** the next message of that type (progress messages go to onProgress meanwhile) */
  next<T extends ChildMessage['type']>(type: T, timeoutMs: number): Promise<Extract<ChildMessage, { type: T }>>
  send(msg: ParentMessage): void
  /** asks the process to stop and waits for it to exit (killed after `graceMs`) */
  stop(graceMs?: number): Promise<void>
}

export function startChild (spec: ChildSpec, onProgress: (message: string) => void = () => {}): Child {
  const child = fork(ENTRY, [JSON.stringify(spec)], { execArgv: CHILD_EXEC_ARGV, env: CHILD_ENV, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const inbox: ChildMessage[] = []
  let failure: Error | null = null
  let wake: () => void = () => {}
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.on('message', (msg: ChildMessage) => {
    if (msg.type === 'progress') onProgress(msg.message)
    else if (msg.type === 'error') failure = new Error(`${spec.role} process: ${msg.message}`)
    else inbox.push(msg)
    wake()
  })
  child.once('exit', (code, signal) => {
    failure ??= new Error(`${spec.role} process exited (${signal ?? String(code)})`)
    wake()
  })
  return {
    process: child,
    async next (type, timeoutMs) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const at = inbox.findIndex((m) => m.type === type)
        if (at >= 0) return inbox.splice(at, 1)[0] as Extract<ChildMessage, { type: typeof type }>
        if (failure !== null) throw failure
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`${spec.role} process: no '${type}' within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left)
          wake = () => { clearTimeout(t); resolve() }
        })
      }
    },
    send (msg) { if (child.connected) child.send(msg) },
    async stop (graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return
      if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage)
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs)
      await exited
      clearTimeout(t)
    }
  }
}
