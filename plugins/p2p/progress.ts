// The sync status line (STYLE 11, as Lodestar's notifier and geth's downloader print):
//   Syncing 4,210/10,000 (42%) - 850 blocks/s - eta 7s - peers 2
import { formatDuration } from '../../core/kernel/duration.ts'

const count = (n: number): string => Math.max(0, Math.floor(n)).toLocaleString('en-US')

export interface SyncLine { current: number; target: number; blocksPerSecond: number; peers: number }

export function formatSyncLine (p: SyncLine): string {
  const target = Math.max(p.target, p.current)
  const pct = target === 0 ? 100 : Math.floor((p.current / target) * 100)
  const rate = Math.round(p.blocksPerSecond)
  const eta = rate > 0 ? formatDuration((target - p.current) / p.blocksPerSecond) : '?'
  return `Syncing ${count(p.current)}/${count(target)} (${pct}%) - ${count(rate)} blocks/s - eta ${eta} - peers ${p.peers}`
}

/** Blocks per second over the interval between two status lines. */
export class RateMeter {
  #blocks = 0
  #since: number
  readonly #now: () => number

  constructor (now: () => number = () => Date.now() / 1000) {
    this.#now = now
    this.#since = now()
  }

  add (blocks: number): void { this.#blocks += blocks }

  /** the rate since the previous call, then starts a new interval */
  take (): number {
    const now = this.#now()
    const elapsed = now - this.#since
    const rate = elapsed > 0 ? this.#blocks / elapsed : 0
    this.#blocks = 0
    this.#since = now
    return rate
  }
}
