// Beacon rounds already proven valid. A pairing costs tens of milliseconds and one round
// backs many blocks (every block mined within its window quotes it), so each (key, round,
// signature) is verified once per process. Only successes are kept, keyed by everything the
// verdict depends on, so a forged entry can never hit a cached verdict.
import type { DrandBeacon } from './beacon-verify.ts'

export function beaconCacheKey (publicKey: string, scheme: string, beacon: Pick<DrandBeacon, 'round' | 'signature' | 'previous_signature'>): string {
  return `${publicKey}|${scheme}|${beacon.round}|${beacon.signature}|${beacon.previous_signature ?? ''}`
}

export class VerifiedBeacons {
  readonly #max: number
  readonly #keys = new Set<string>()

  constructor (max = 4096) { this.#max = max }

  has (key: string): boolean { return this.#keys.has(key) }

  add (key: string): void {
    if (this.#keys.has(key)) return
    if (this.#keys.size >= this.#max) {
      const oldest = this.#keys.values().next().value
      if (oldest !== undefined) this.#keys.delete(oldest)
    }
    this.#keys.add(key)
  }

  get size (): number { return this.#keys.size }

  /** forgets every verdict (a bench measuring what a fresh node verifies; tests) */
  clear (): void { this.#keys.clear() }
}

/** The process-wide cache every validator path shares. */
export const verifiedBeacons = new VerifiedBeacons()
