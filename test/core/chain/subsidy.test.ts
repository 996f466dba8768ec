// Subsidy 5 coin halving every 2,100,000 blocks, capped by the 21,000,000 maximum supply.
import t from 'tap'
import { blockSubsidy } from '../../../core/chain/apply.ts'
import { coinToBohm } from '../../../core/chain/money.ts'
import { NETWORKS } from '../../../config/networks.ts'

const p = NETWORKS.mainnet
const premine = coinToBohm(1_000_000)

t.test('halvings at their boundaries', async (t) => {
  t.equal(blockSubsidy(p, 1, premine), coinToBohm(5))
  t.equal(blockSubsidy(p, 2_099_999, premine), coinToBohm(5))
  t.equal(blockSubsidy(p, 2_100_000, premine), coinToBohm(2.5))
  t.equal(blockSubsidy(p, 4_200_000, premine), coinToBohm(1.25))
  t.equal(blockSubsidy(p, 2_100_000 * 63, premine), coinToBohm(5) >> 63n)
  t.equal(blockSubsidy(p, 2_100_000 * 64, premine), 0n, 'no subsidy after 64 halvings')
})

t.test('never beyond the maximum supply', async (t) => {
  const max = coinToBohm(21_000_000)
  t.equal(blockSubsidy(p, 10, max - coinToBohm(1)), coinToBohm(1), 'only what room is left')
  t.equal(blockSubsidy(p, 10, max - 1n), 1n)
  t.equal(blockSubsidy(p, 10, max), 0n)
  t.equal(blockSubsidy(p, 10, max + 5n), 0n)
})
