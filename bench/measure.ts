// Timing helpers for the quick benches: best of several rounds, since the machine is shared.

/** Runs `batch` (which returns how many operations it did) for ~`ms`, `rounds` times; best ops/s. */
export function bestRate (batch: () => number, ms = 700, rounds = 3): number {
  let best = 0
  for (let r = 0; r < rounds; r++) {
    let ops = 0
    const started = performance.now()
    let elapsed = 0
    do {
      ops += batch()
      elapsed = performance.now() - started
    } while (elapsed < ms)
    best = Math.max(best, ops * 1000 / elapsed)
  }
  return best
}

export const wantsJson = process.argv.includes('--json')

export function printTable (rows: Array<Record<string, string | number>>): void {
  if (wantsJson) return
  console.table(rows)
}
