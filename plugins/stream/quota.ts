// Streams one client may hold open (issue 31 item 4): the hub's global cap (10,000) let one
// session or one address take all of them. Each stream counts against its session (when it has
// one) and its client address; over either cap the request is a 429 in the one error shape.
import { HttpError } from '../../core/kernel/errors.ts'

export interface StreamQuotaLimits {
  perSession: number
  perAddress: number
}

export class StreamQuota {
  readonly #limits: StreamQuotaLimits
  readonly #sessions = new Map<string, number>()
  readonly #addresses = new Map<string, number>()

  constructor (limits: StreamQuotaLimits) {
    this.#limits = limits
  }

  /** counts one stream for the session and the address; returns its release (idempotent), or
   *  throws 429 naming the cap that was hit */
  take (sessionHash: string | null, address: string): () => void {
    if (sessionHash !== null && (this.#sessions.get(sessionHash) ?? 0) >= this.#limits.perSession) {
      throw new HttpError(429, `too many open streams for this session (at most ${this.#limits.perSession}); close one first`, { headers: { 'retry-after': '30' } })
    }
    if ((this.#addresses.get(address) ?? 0) >= this.#limits.perAddress) {
      throw new HttpError(429, `too many open streams from this address (at most ${this.#limits.perAddress}); close one first`, { headers: { 'retry-after': '30' } })
    }
    if (sessionHash !== null) bump(this.#sessions, sessionHash, 1)
    bump(this.#addresses, address, 1)
    let released = false
    return () => {
      if (released) return
      released = true
      if (sessionHash !== null) bump(this.#sessions, sessionHash, -1)
      bump(this.#addresses, address, -1)
    }
  }

  /** open streams counted for a session / an address */
  count (of: { session?: string; address?: string }): number {
    return of.session !== undefined ? this.#sessions.get(of.session) ?? 0 : this.#addresses.get(of.address ?? '') ?? 0
  }
}

function bump (m: Map<string, number>, key: string, by: number): void {
  const n = (m.get(key) ?? 0) + by
  if (n <= 0) m.delete(key)
  else m.set(key, n)
}
