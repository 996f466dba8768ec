// The retarget rule (core/chain/difficulty.ts): when it re-evaluates, what it reads, the
// exponential step and its bounds, the median-time-past window against timestamp games, and,
// through the seeded simulator (test/helpers/retarget-sim.ts), the goals of issue 28: the mean
// interval on target with an exponential's spread at constant hash rate, and recovery within
// 40 blocks after the hash rate halves.
import t from 'tap'
import { blockWork, medianTime, nextBits, retargetTimestampCount, scaleTarget } from '../../../core/chain/difficulty.ts'
import { NETWORKS } from '../../../config/networks.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import { decodeBits, encodeBits, workOfBits } from '../../../core/chain/target.ts'
import { intervalFigures, simulate } from '../../helpers/retarget-sim.ts'

const testnet = NETWORKS.testnet // target 5 s, interval 10, τ = 15 blocks (75 s)
const T = testnet.blockTimeTarget
const TAU = testnet.retargetHalfLife * T
/** `count` timestamps `gap` seconds apart, oldest first */
const evenly = (gap: number, count = retargetTimestampCount(testnet)): number[] => Array.from({ length: count }, (_, i) => 1_800_000_000 + gap * i)
const ratio = (a: number, b: number): number => Number(decodeBits(a) * 1_000_000n / decodeBits(b)) / 1_000_000

function next (params: NetworkParams, height: number, parentBits: number, ts: readonly number[]): { bits: number; read: boolean } {
  let read = false
  const bits = nextBits(params, height, parentBits, () => { read = true; return ts })
  return { bits, read }
}

t.test('only heights that are multiples of 10, from 20 on, re-evaluate; block 1 takes the initial target', async (t) => {
  const parent = 0x3d2fffff
  for (const height of [2, 9, 10, 11, 19, 21, 29]) t.same(next(testnet, height, parent, evenly(1)), { bits: parent, read: false }, `height ${height} keeps the parent's bits`)
  for (const height of [20, 30, 1000]) t.equal(next(testnet, height, parent, evenly(1)).read, true, `height ${height} re-evaluates`)
  t.same(next(testnet, 1, parent, evenly(1)), { bits: testnet.initialBits, read: false })
  const devnet = NETWORKS.devnet
  for (const height of [1, 20, 30]) t.same(next(devnet, height, devnet.initialBits, evenly(1000)), { bits: devnet.initialBits, read: false }, `devnet at ${height}: fixed`)
})

t.test('the step is 2^((span − 10 T) / τ): on schedule it holds, one τ late it doubles the target', async (t) => {
  const parent = 0x3d2fffff
  t.equal(next(testnet, 20, parent, evenly(T)).bits, parent, 'blocks every T: the same bits')
  const late = evenly(T).map((ts, i) => ts + (i >= 11 ? TAU : 0)) // the last interval took 10 T + τ between medians
  t.equal(decodeBits(next(testnet, 20, parent, late).bits), decodeBits(parent) * 2n, 'one τ late: twice the target (half the work)')
  const fast = next(testnet, 20, parent, evenly(T / 2)).bits // 5 T instead of 10 T: 2^(−5/15)
  t.ok(Math.abs(ratio(fast, parent) - 2 ** (-5 * T / TAU)) < 1e-4, `twice as fast: × ${ratio(fast, parent).toFixed(4)}, expected × ${(2 ** (-5 * T / TAU)).toFixed(4)}`)
  const still = next(testnet, 20, parent, evenly(0.001)).bits // the fastest chain there can be
  t.ok(ratio(still, parent) > 2 ** (-10 * T / TAU) - 1e-4, 'the hardest step a retarget can take is 2^(−10 T / τ)')
})

t.test('the step is bounded: at most a factor 2 a retarget (a day-long pause is not paid back in a burst)', async (t) => {
  const parent = 0x3d2fffff
  const paused = evenly(T).map((ts, i) => ts + (i >= 15 ? 86_400 : 0))
  t.equal(decodeBits(next(testnet, 20, parent, paused).bits), decodeBits(parent) * 2n, 'a day late: twice the target, not 2^1152')
  t.equal(next(testnet, 20, testnet.easiestBits, paused).bits, testnet.easiestBits, 'never easier than the network\'s easiest target')
  t.equal(next(testnet, 20, testnet.hardestBits, evenly(0.001)).bits, testnet.hardestBits, 'never harder than its hardest')
  const mainnet = NETWORKS.mainnet
  t.equal(next(mainnet, 20, mainnet.hardestBits, evenly(0.001)).bits, mainnet.hardestBits, 'mainnet stops at its ceiling (difficulty 8)')
})

t.test('scaleTarget: aserti3-2d\'s integer cubic is within 0.02% of 2^x', async (t) => {
  const base = 1n << 400n
  for (let e = -3 * 65536; e <= 3 * 65536; e += 4099) {
    const got = Number(scaleTarget(base, BigInt(e)) * 1_000_000_000n / base) / 1e9
    const want = 2 ** (e / 65536)
    if (Math.abs(got / want - 1) > 2e-4) t.fail(`exponent ${e}: ${got} vs ${want}`)
  }
  t.equal(scaleTarget(base, 0n), base, 'exponent 0 is exact')
  t.equal(scaleTarget(base, 65536n), base * 2n, 'exponent 1 is exact')
  t.equal(scaleTarget(base, -65536n), base / 2n, 'exponent −1 is exact')
})

t.test('the window is read between medians of eleven timestamps', async (t) => {
  t.equal(medianTime([5, 1, 4, 2, 3]), 3)
  t.equal(medianTime([4, 1, 3, 2]), 3, 'an even count takes the upper median')
  const parent = 0x3d2fffff
  // 21 timestamps: the span is MTP(last 11) − MTP(the 11 ending ten earlier)
  t.throws(() => nextBits(testnet, 20, parent, () => evenly(T, 10)), RangeError, 'too few timestamps')
  // height 20 has only blocks 0..19: the first median is of ten (0..9, the upper one: 5), so the
  // span is nine intervals and a chain exactly on schedule is read one block time fast
  const shorter = ratio(next(testnet, 20, parent, evenly(T, 20)).bits, parent)
  t.ok(Math.abs(shorter - 2 ** (-T / TAU)) < 1e-4, `height 20 on an even chain: × ${shorter.toFixed(4)}`)
})

t.test('timestamp games: one block stamped 120 s ahead moves the span by one rank, not by its lie', async (t) => {
  const parent = 0x3d2fffff
  const honest = evenly(T)
  const forged = honest.map((ts, i) => (i === honest.length - 1 ? ts + 120 : ts)) // the parent, the last before the retarget
  const moved = ratio(next(testnet, 20, parent, forged).bits, parent)
  t.ok(moved <= 2 ** (T / TAU) + 1e-4, `forged parent: × ${moved.toFixed(4)} at most (one block time of span, 2^(T/τ))`)
  t.ok(moved < 2 ** (120 / TAU), 'the raw endpoints would have eased by 2^(120/τ)')
  const early = honest.map((ts, i) => (i === 0 ? ts - 10_000 : ts)) // a window start forged into the past cannot widen the span either
  t.equal(next(testnet, 20, parent, early).bits, parent, 'an outlier at the window start changes nothing')
  // a miner with under half the blocks cannot carry a median past the honest timestamps: five
  // of the last eleven forged 120 s ahead move it to the newest honest one (five ranks), no further
  const half = honest.map((ts, i) => (i % 2 === 1 && i > 10 ? ts + 120 : ts))
  const halfMoved = ratio(next(testnet, 20, parent, half).bits, parent)
  t.ok(halfMoved <= 2 ** (5 * T / TAU) + 1e-4, `five of the last eleven forged: × ${halfMoved.toFixed(4)}, at most five ranks`)
  const further = honest.map((ts, i) => (i % 2 === 1 && i > 10 ? ts + 1000 : ts))
  t.equal(next(testnet, 20, parent, further).bits, next(testnet, 20, parent, half).bits, 'a bigger lie moves it no further')
})

t.test('blockWork is the target\'s work, 2^512 / (target + 1)', async (t) => {
  t.equal(blockWork(testnet.initialBits), workOfBits(testnet.initialBits))
  t.equal(blockWork(encodeBits((1n << 480n) - 1n)) > blockWork(encodeBits((1n << 481n) - 1n)), true, 'a smaller target is more work')
})

// ---- the simulator: the goals of issue 28 over many seeds ----

const HASH_RATE = Number(workOfBits(testnet.initialBits)) / T // the initial target gives T at this rate
const sims = (count: number, from: number): number[] => Array.from({ length: count }, (_, i) => from + i)

t.test('constant hash rate: mean interval 0.9-1.1× target, σ within 1.25× an exponential\'s, every seed', async (t) => {
  const means: number[] = []
  for (const seed of sims(30, 1)) {
    const chain = simulate({ params: testnet, blocks: 600, seed, hashRate: () => HASH_RATE })
    const f = intervalFigures(chain, 21, 600, T)
    means.push(f.mean)
    if (f.mean < 0.9 || f.mean > 1.1) t.fail(`seed ${seed}: mean interval ${f.mean.toFixed(3)} × target`)
    // an exponential's σ equals its mean
    if (f.sd > 1.25 * f.mean) t.fail(`seed ${seed}: σ ${f.sd.toFixed(3)} > 1.25 × mean ${f.mean.toFixed(3)}`)
  }
  const overall = means.reduce((a, b) => a + b) / means.length
  t.ok(overall > 0.97 && overall < 1.03, `mean over 30 seeds ${overall.toFixed(3)} × target`)
})

/** the mean over seeds of the interval each block's target implies, per height */
function meanExpected (seeds: number[], blocks: number, hashRate: (h: number) => number): number[] {
  const sum = new Array<number>(blocks + 1).fill(0)
  for (const seed of seeds) {
    simulate({ params: testnet, blocks, seed, hashRate }).forEach((b, i) => { sum[i]! += b.expectedInterval / T / seeds.length })
  }
  return sum
}

t.test('the hash rate halves: back inside 0.8-1.25× within 40 blocks, and stays there', async (t) => {
  for (const at of [200, 205]) { // on a retarget boundary, and half way between two
    const expected = meanExpected(sims(60, 1000 + at), 400, (h) => (h >= at ? HASH_RATE / 2 : HASH_RATE))
    t.ok(expected[at]! > 1.8, `block ${at} takes about twice the target (${expected[at]!.toFixed(2)} ×)`)
    const outside = expected.slice(at + 40, 400).map((x, i) => [at + 40 + i, x] as const).filter(([, x]) => x < 0.8 || x > 1.25)
    t.same(outside, [], `halved at ${at}: from block ${at + 40} on, every block's mean interval is within 0.8-1.25× (at +40: ${expected[at + 40]!.toFixed(2)} ×)`)
    const realised = sims(60, 2000 + at).map((seed) => intervalFigures(simulate({ params: testnet, blocks: 400, seed, hashRate: (h) => (h >= at ? HASH_RATE / 2 : HASH_RATE) }), at + 40, at + 100, T).mean)
    const mean = realised.reduce((a, b) => a + b) / realised.length
    t.ok(mean >= 0.8 && mean <= 1.25, `realised intervals of blocks +40..+100 average ${mean.toFixed(3)} × target`)
  }
})

t.test('the hash rate doubles: back inside 0.8-1.25× within 40 blocks', async (t) => {
  const expected = meanExpected(sims(60, 3000), 400, (h) => (h >= 200 ? HASH_RATE * 2 : HASH_RATE))
  t.ok(expected[200]! < 0.6)
  t.same(expected.slice(240, 400).filter((x) => x < 0.8 || x > 1.25), [], `from block +40 on within 0.8-1.25× (at +40: ${expected[240]!.toFixed(2)} ×)`)
})

t.test('timestamp games over a whole chain: a miner with 30% of the blocks stamping each 120 s ahead moves nothing', async (t) => {
  const honest: number[] = []
  const gamed: number[] = []
  for (const seed of sims(30, 4000)) {
    honest.push(intervalFigures(simulate({ params: testnet, blocks: 600, seed, hashRate: () => HASH_RATE }), 21, 600, T).mean)
    const chain = simulate({ params: testnet, blocks: 600, seed, hashRate: () => HASH_RATE, attacker: { share: 0.3, ahead: testnet.maxFutureDrift } })
    gamed.push(intervalFigures(chain, 21, 600, T).mean)
  }
  const avg = (xs: number[]): number => xs.reduce((a, b) => a + b) / xs.length
  t.ok(avg(gamed) > 0.9 && avg(gamed) < 1.1, `mean interval with the attacker ${avg(gamed).toFixed(3)} × target (honest ${avg(honest).toFixed(3)} ×)`)
  t.ok(Math.abs(avg(gamed) - avg(honest)) < 0.05, 'within 5% of the honest chain')
})
