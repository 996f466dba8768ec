import t from 'tap'
import { nextDifficulty, blockWork } from '../../../core/chain/difficulty.ts'
import { NETWORKS } from '../../../config/networks.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'

// testnet: interval 10, target 5 s, so the interval's 9 gaps are expected to take 45 s.
const testnet = NETWORKS.testnet
const span = (elapsed: number): number[] => Array.from({ length: 10 }, (_, i) => 1000 + (elapsed * i) / 9)

function next (params: NetworkParams, height: number, parent: number, elapsed: number): { value: number; read: boolean } {
  let read = false
  const value = nextDifficulty(params, height, parent, () => { read = true; return span(elapsed) })
  return { value, read }
}

t.test('only heights that are multiples of the interval re-evaluate', async (t) => {
  for (const height of [9, 11, 19, 21]) {
    const r = next(testnet, height, 4, 1)
    t.same(r, { value: 4, read: false }, `height ${height} keeps the parent difficulty without reading timestamps`)
  }
  for (const height of [10, 20, 30]) {
    const r = next(testnet, height, 4, 1)
    t.same(r, { value: 5, read: true }, `height ${height} re-evaluates`)
  }
  t.equal(next(testnet, 1, 6, 1).value, testnet.initialDifficulty, 'block 1 uses the initial difficulty')
  t.equal(next(testnet, 0, 6, 1).value, testnet.initialDifficulty)
})

t.test('+1 under half the target, -1 over twice, hold in between (boundaries inclusive of hold)', async (t) => {
  t.equal(next(testnet, 10, 4, 22.4).value, 5, 'faster than half of 45 s: +1')
  t.equal(next(testnet, 10, 4, 22.5).value, 4, 'exactly half: hold')
  t.equal(next(testnet, 10, 4, 45).value, 4, 'on target: hold')
  t.equal(next(testnet, 10, 4, 90).value, 4, 'exactly twice: hold')
  t.equal(next(testnet, 10, 4, 90.1).value, 3, 'slower than twice: -1')
  t.equal(next(testnet, 20, 4, 0).value, 5)
})

t.test('the interval is measured from its first to its last block timestamp', async (t) => {
  const ts = [100, 101, 102, 103, 104, 105, 106, 107, 108, 100 + 22.4]
  t.equal(nextDifficulty(testnet, 10, 3, () => ts), 4)
  const slow = [100, 500, 101, 101, 101, 101, 101, 101, 101, 100 + 91]
  t.equal(nextDifficulty(testnet, 10, 3, () => slow), 2, 'only the ends count')
})

t.test('clamped to [min, max]', async (t) => {
  t.equal(next(testnet, 10, testnet.maxDifficulty, 1).value, testnet.maxDifficulty, 'no +1 past the ceiling')
  t.equal(next(testnet, 10, testnet.minDifficulty, 1000).value, testnet.minDifficulty, 'no -1 below the floor')
  const mainnet = NETWORKS.mainnet
  t.equal(mainnet.minDifficulty, 2)
  t.equal(mainnet.maxDifficulty, 8)
  t.equal(mainnet.blockTimeTarget, 60)
  t.equal(next(mainnet, 10, 8, 1).value, 8)
  t.equal(next(mainnet, 10, 7, 1).value, 8)
  t.equal(next(mainnet, 10, 2, 10_000).value, 2)
  t.equal(next(mainnet, 10, 3, 60 * 9 * 2 + 1).value, 2)
})

t.test('devnet difficulty is fixed', async (t) => {
  const devnet = NETWORKS.devnet
  t.equal(devnet.fixedDifficulty, true)
  for (const [height, elapsed] of [[10, 0], [20, 10_000], [11, 0]] as const) {
    const r = next(devnet, height, 5, elapsed)
    t.same(r, { value: devnet.initialDifficulty, read: false })
  }
})

t.test('block work is 16^difficulty; cumulative work sums it', async (t) => {
  t.equal(blockWork(0), 1n)
  t.equal(blockWork(1), 16n)
  t.equal(blockWork(8), 4_294_967_296n)
  t.equal(blockWork(40), 16n ** 40n, 'exact beyond 2^53')
  const chain = [2, 2, 3, 4]
  t.equal(chain.reduce((w, d) => w + blockWork(d), 0n), 256n + 256n + 4096n + 65536n)
  t.ok(blockWork(3) > blockWork(2) * 15n, 'one block one step harder outweighs fifteen easier ones')
})
