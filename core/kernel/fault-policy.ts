// What the node process does with an error nobody caught (issue 31 item 5). Node's default
// kills the process on an unhandled rejection: a ban-list write failing on a full disk, from
// an unawaited promise, took a node down on the 4th malformed handshake of one peer, and
// again after each restart. Now an escaped error is logged with its context and the node
// carries on, except where its state could be wrong; there it stops cleanly (closing its
// databases) with exit code 1 rather than run on, or die mid-write:
//
// - unhandled rejection: an asynchronous operation failed with nobody waiting for it. The
//   operation is lost, but it ran apart from the rest: carry on. A NodeStateError stops.
// - uncaught exception: thrown out of an event callback, part-way through whatever ran. Stop,
//   unless it is a storage fault (the write was refused, nothing committed) or a socket error
//   of one connection (EPIPE, ECONNRESET, …), which concern nothing else.
import type { Logger } from 'pino'
import { NodeStateError } from './errors.ts'
import { storageFault } from './kv.ts'

export type FaultKind = 'unhandledRejection' | 'uncaughtException'
export type FaultAction = 'carry on' | 'stop'

/** errors of one connection's socket: the peer went away or misbehaved */
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ERR_STREAM_PREMATURE_CLOSE'])

export function faultAction (kind: FaultKind, err: unknown): FaultAction {
  if (err instanceof NodeStateError) return 'stop'
  if (kind === 'unhandledRejection') return 'carry on'
  if (storageFault(err) !== undefined) return 'carry on'
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return 'carry on'
  return 'stop'
}

export interface FaultPolicyOptions {
  logger: Logger
  /** stops the node cleanly; the process exits with code 1 */
  stop: (kind: FaultKind) => void
  /** log lines a minute for one kind of error; the rest are counted and summed up */
  logsPerMinute?: number
  proc?: NodeJS.Process
}

/** installs the policy on the process; returns its removal */
export function installFaultPolicy (o: FaultPolicyOptions): () => void {
  const proc = o.proc ?? process
  const perMinute = o.logsPerMinute ?? 10
  const seen = new Map<string, { windowStart: number; logged: number; suppressed: number }>()
  const handle = (kind: FaultKind, err: unknown): void => {
    const action = faultAction(kind, err)
    const fault = storageFault(err)
    const message = err instanceof Error ? err.message : String(err)
    if (action === 'stop') {
      o.logger.fatal({ err, kind }, `${kind === 'uncaughtException' ? 'an uncaught exception' : 'an unhandled rejection'} may have left the node's state wrong; stopping cleanly`)
      o.stop(kind)
      return
    }
    // a flood of one error (a disk full under many writes) is a few lines a minute, not a log storm
    const key = `${kind}:${message}`
    const now = Date.now()
    let s = seen.get(key)
    if (s === undefined || now - s.windowStart > 60_000) {
      if (s !== undefined && s.suppressed > 0) o.logger.error({ kind, suppressed: s.suppressed }, `${s.suppressed} more of: ${message}`)
      s = { windowStart: now, logged: 0, suppressed: 0 }
      seen.set(key, s)
      if (seen.size > 1000) seen.delete(seen.keys().next().value as string)
    }
    if (s.logged >= perMinute) {
      s.suppressed++
      return
    }
    s.logged++
    const what = fault !== undefined
      ? `a write to the data dir was refused (${fault}) with nobody waiting for it; nothing of it was written, the node carries on`
      : `${kind === 'uncaughtException' ? 'an uncaught socket error' : 'an unhandled rejection'}; the node carries on`
    o.logger.error({ err, kind, ...(fault === undefined ? {} : { fault }) }, what)
  }
  const onRejection = (reason: unknown): void => { handle('unhandledRejection', reason) }
  const onException = (err: Error): void => { handle('uncaughtException', err) }
  proc.on('unhandledRejection', onRejection)
  proc.on('uncaughtException', onException)
  return () => {
    proc.removeListener('unhandledRejection', onRejection)
    proc.removeListener('uncaughtException', onException)
  }
}
