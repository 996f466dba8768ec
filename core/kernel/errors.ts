// Errors that are part of the plugin contract. A route handler throws HttpError to answer a
// client in the node's one error shape ({"error": "...", "phase"?}); the servers the `http`
// plugin builds turn it into that answer. A CLI command a plugin contributes throws
// UsageError for a mistake the user can fix (one line, exit code 2).

/** An error a handler throws to answer a client: status + the spec's exact text. */
export class HttpError extends Error {
  readonly statusCode: number
  readonly phase: string | undefined
  readonly headers: Record<string, string>
  readonly extra: Record<string, unknown>
  constructor (statusCode: number, message: string, opts: { phase?: string; headers?: Record<string, string>; extra?: Record<string, unknown> } = {}) {
    super(message)
    this.statusCode = statusCode
    this.phase = opts.phase
    this.headers = opts.headers ?? {}
    this.extra = opts.extra ?? {}
  }
}

export interface ErrorBody { error: string; phase?: string; [k: string]: unknown }

export function errorBody (message: string, phase?: string, extra: Record<string, unknown> = {}): ErrorBody {
  return phase === undefined ? { error: message, ...extra } : { error: message, phase, ...extra }
}

/** A command-line mistake the user can fix: printed as one line, exit code 2, no stack. */
export class UsageError extends Error {}

/**
 * A fault after which the node's state may be wrong (a half-applied in-memory update, a store
 * that answers what it should not). The process-wide fault policy (fault-policy.ts) stops the
 * node cleanly when one escapes unhandled; any other escaped error is logged and the node
 * carries on.
 */
export class NodeStateError extends Error {}
