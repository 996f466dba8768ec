// Difficulty schedule (DESIGN 3): re-evaluated every `difficultyInterval` blocks from the
// time the last interval's blocks took; +1 when under half the target, -1 when over twice.
import type { NetworkParams } from './params.ts'

/**
 * Difficulty required of the block at `height`.
 * @param parentDifficulty difficulty of block height-1
 * @param intervalTimestamps timestamps of blocks [height - interval, height - 1] (only read at a boundary)
 */
export function nextDifficulty (params: NetworkParams, height: number, parentDifficulty: number, intervalTimestamps: () => number[]): number {
  if (params.fixedDifficulty) return params.initialDifficulty
  if (height <= 1) return params.initialDifficulty
  const interval = params.difficultyInterval
  if (height % interval !== 0 || height < interval) return parentDifficulty
  const ts = intervalTimestamps()
  const elapsed = (ts[ts.length - 1] as number) - (ts[0] as number)
  const expected = params.blockTimeTarget * (interval - 1)
  let next = parentDifficulty
  if (elapsed < expected / 2) next += 1
  else if (elapsed > expected * 2) next -= 1
  return Math.min(params.maxDifficulty, Math.max(params.minDifficulty, next))
}

/** Work of one block: 16^difficulty expected hashes (fork choice sums this). */
export function blockWork (difficulty: number): bigint {
  return 16n ** BigInt(difficulty)
}
