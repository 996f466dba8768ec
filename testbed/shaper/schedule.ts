// When a chunk written into one direction of a shaped link comes out of the other end: a pure
// clock, so the shaper's timing is tested without sockets. A chunk first waits for the link's
// bandwidth (it is serialised after the chunks before it), then travels the one-way latency
// plus a jitter drawn uniformly from [-jitter, +jitter]; like TCP, a chunk never overtakes the
// one before it, so a jittered delay is at least the previous chunk's.

export interface LinkSettings {
  /** one-way delay, ms */
  latencyMs: number
  /** uniform ± spread around the latency, ms */
  jitterMs: number
  /** bytes per second each way; null: unlimited */
  bandwidthBps: number | null
  /** no traffic: connections are closed and new ones refused */
  cut: boolean
}

export const OPEN_LINK: LinkSettings = { latencyMs: 0, jitterMs: 0, bandwidthBps: null, cut: false }

export class DirectionClock {
  #wireFreeAt = 0
  #lastDeliveryAt = 0

  /** delivery time (ms) of `bytes` handed to the link at `now`; `random` in [0, 1) */
  deliver (now: number, bytes: number, s: LinkSettings, random: () => number): number {
    let sentAt = now
    if (s.bandwidthBps !== null && s.bandwidthBps > 0) {
      sentAt = Math.max(now, this.#wireFreeAt) + bytes * 1000 / s.bandwidthBps
      this.#wireFreeAt = sentAt
    }
    const jitter = s.jitterMs > 0 ? (random() * 2 - 1) * s.jitterMs : 0
    const at = Math.max(sentAt + Math.max(0, s.latencyMs + jitter), this.#lastDeliveryAt)
    this.#lastDeliveryAt = at
    return at
  }
}

/** "10mbit", "500kbit", "2MB", "64kB" (per second), or a bare number of bytes per second */
export function parseBandwidth (text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(kbit|mbit|gbit|bit|kb|mb|gb|b)?(?:\/s|ps)?$/i.exec(text.trim())
  if (m === null) throw new Error(`bandwidth '${text}' is not like 10mbit, 500kbit, 2MB or a number of bytes per second`)
  const n = Number(m[1])
  const unit = (m[2] ?? 'b').toLowerCase()
  const factor: Record<string, number> = { bit: 1 / 8, kbit: 1000 / 8, mbit: 1e6 / 8, gbit: 1e9 / 8, b: 1, kb: 1000, mb: 1e6, gb: 1e9 }
  const bps = n * (factor[unit] ?? 1)
  if (!(bps > 0)) throw new Error(`bandwidth '${text}' must be above zero`)
  return bps
}
