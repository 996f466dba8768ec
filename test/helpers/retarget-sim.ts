// A pure, seeded simulator of the difficulty schedule (core/chain/difficulty.ts): blocks are
// found after exponential solve times (mean = the target's work / the network's hash rate at
// that height), stamped the way the miner stamps them (max(now, parent + 1 ms)), optionally
// with an attacker mining a share of the blocks with its timestamp as far ahead as the
// validator allows. The retarget tests assert the schedule's goals over many seeds with it,
// and its figures are the ones docs/protocol.md quotes.
import { nextBits, retargetTimestampCount } from '../../core/chain/difficulty.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import { workOfBits } from '../../core/chain/target.ts'
import { seededRandom } from './random.ts'

export interface SimulationOptions {
  params: NetworkParams
  blocks: number
  seed: number
  /** the network's hashes per second while block `height` is being mined */
  hashRate: (height: number) => number
  /** a miner with this share of the blocks stamps each one `ahead` seconds past real time */
  attacker?: { share: number; ahead: number }
  /** real time the simulation starts at (genesis is stamped a day earlier, as a real chain's is) */
  start?: number
}

export interface SimulatedBlock {
  height: number
  bits: number
  timestamp: number
  /** when it was really found */
  foundAt: number
  /** real seconds since the parent was found */
  interval: number
  /** the mean interval its target implies at the hash rate it was mined at */
  expectedInterval: number
  byAttacker: boolean
}

export function simulate (o: SimulationOptions): SimulatedBlock[] {
  const random = seededRandom(o.seed)
  const start = o.start ?? 1_800_000_000
  const window = retargetTimestampCount(o.params)
  const chain: SimulatedBlock[] = [{ height: 0, bits: o.params.initialBits, timestamp: start - 86_400, foundAt: start, interval: 0, expectedInterval: 0, byAttacker: false }]
  let now = start
  for (let height = 1; height <= o.blocks; height++) {
    const parent = chain[height - 1]!
    const bits = nextBits(o.params, height, parent.bits, () => chain.slice(Math.max(0, height - window), height).map((b) => b.timestamp))
    const mean = Number(workOfBits(bits)) / o.hashRate(height)
    const interval = -Math.log(1 - random()) * mean
    now += interval
    const byAttacker = o.attacker !== undefined && random() < o.attacker.share
    const stamped = byAttacker ? now + o.attacker!.ahead : now
    const timestamp = Math.max(stamped, parent.timestamp + 0.001)
    chain.push({ height, bits, timestamp, foundAt: now, interval, expectedInterval: mean, byAttacker })
  }
  return chain
}

export interface IntervalFigures { mean: number; sd: number; count: number }

/** Mean and standard deviation of the real intervals of blocks [from, to], in units of the target. */
export function intervalFigures (chain: readonly SimulatedBlock[], from: number, to: number, target: number): IntervalFigures {
  const xs = chain.slice(from, to + 1).map((b) => b.interval / target)
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1))
  return { mean, sd, count: xs.length }
}
