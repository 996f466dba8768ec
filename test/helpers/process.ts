// Child processes of the e2e tests: wait for an exit, and stop one for sure.
import type { ChildProcess } from 'node:child_process'

export function exited (child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))
}

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs` */
export async function stopChild (child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const hard = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited(child)
  clearTimeout(hard)
}
