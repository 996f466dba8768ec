// Per-source reachability with exponential backoff: a source that failed is left out of the
// next rounds until its retry time, so an unreachable beacon costs one timeout per backoff
// period instead of one per refill.

export interface BackoffPolicy { baseMs: number; maxMs: number }

export interface SourceState {
  id: string
  device: string
  /** null until first asked */
  ok: boolean | null
  last_error: string | null
  /** Unix seconds of the last good answer */
  last_ok_at: number | null
  /** seconds until the source is asked again (0: next round) */
  retry_in_seconds: number
  round: number | null
}

export class SourceTracker {
  readonly id: string
  device: string
  ok: boolean | null = null
  lastError: string | null = null
  lastOkAt: number | null = null
  round: number | null = null
  #failures = 0
  #retryAt = 0
  readonly #policy: BackoffPolicy

  constructor (id: string, device: string, policy: BackoffPolicy) {
    this.id = id
    this.device = device
    this.#policy = policy
  }

  due (nowMs: number): boolean { return nowMs >= this.#retryAt }

  retryAt (): number { return this.#retryAt }

  succeeded (nowMs: number, round: number | undefined): void {
    this.ok = true
    this.lastError = null
    this.lastOkAt = nowMs / 1000
    this.round = round ?? null
    this.#failures = 0
    this.#retryAt = 0
  }

  failed (nowMs: number, reason: string): void {
    this.ok = false
    this.lastError = reason
    this.#failures++
    this.#retryAt = nowMs + Math.min(this.#policy.maxMs, this.#policy.baseMs * 2 ** (this.#failures - 1))
  }

  view (nowMs: number): SourceState {
    return {
      id: this.id,
      device: this.device,
      ok: this.ok,
      last_error: this.lastError,
      last_ok_at: this.lastOkAt,
      retry_in_seconds: Math.max(0, Math.ceil((this.#retryAt - nowMs) / 1000)),
      round: this.round
    }
  }
}
