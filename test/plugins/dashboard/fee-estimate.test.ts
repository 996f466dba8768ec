// The fee estimate algorithm (docs/dashboard.md) on constructed inputs: mempool depth sets
// what it takes to enter within 1 / 3 / 6 blocks; recent full blocks set percentile floors.
import t from 'tap'
import { estimateFees } from '../../../plugins/dashboard/fee-estimate.ts'
import type { FeeInputs } from '../../../plugins/dashboard/fee-estimate.ts'
import { coinToBohm } from '../../../core/chain/money.ts'

const MIN = coinToBohm(0.0001)
const c = (coin: number): bigint => coinToBohm(coin)
const base: FeeInputs = { pendingFees: [], mempoolSize: 0, mempoolCapacity: 5000, recent: [], minFee: MIN, slots: 10 }

t.test('empty mempool, quiet chain: every tier is the minimum fee', async (t) => {
  t.same(estimateFees(base), { mempool_min: 0, mempool_median: 0, min_fee: 0.0001, low_fee: 0.0001, medium_fee: 0.0001, high_fee: 0.0001, mempool_fullness: 0 })
})

t.test('a shallow mempool (less than a block) still gets in at the minimum', async (t) => {
  const e = estimateFees({ ...base, pendingFees: [c(0.5), c(0.001), c(0.002)], mempoolSize: 3 })
  t.equal(e.mempool_min, 0.001)
  t.equal(e.mempool_median, 0.002)
  t.equal(e.high_fee, 0.0001)
  t.equal(e.mempool_fullness, 3 / 5000)
})

t.test('a deep mempool: outbid the transaction at the last slot of 1, 3 and 6 blocks', async (t) => {
  // 70 pending with fees 0.001 .. 0.070; 10 slots per block
  const fees = Array.from({ length: 70 }, (_, i) => c((i + 1) / 1000))
  const e = estimateFees({ ...base, pendingFees: fees, mempoolSize: 70 })
  t.equal(e.high_fee, 0.0611, '10th highest is 0.061')
  t.equal(e.medium_fee, 0.0411, '30th highest is 0.041')
  t.equal(e.low_fee, 0.0111, '60th highest is 0.011')
  t.equal(e.mempool_median, 0.0355, 'median of an even count')
  t.equal(e.mempool_min, 0.001)
  t.ok(e.low_fee <= e.medium_fee && e.medium_fee <= e.high_fee)
})

t.test('recent blocks near full: the fees they included are floors', async (t) => {
  const full = (fees: number[]) => ({ userFees: fees.map(c) })
  const recent = [full([0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1]), full([0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01])]
  const e = estimateFees({ ...base, recent })
  t.equal(e.high_fee, 0.09, 'p90 of 19 included fees')
  t.equal(e.medium_fee, 0.01, 'p50')
  t.equal(e.low_fee, 0.01, 'p10')
  const quiet = estimateFees({ ...base, recent: [full([0.5]), full([])] })
  t.equal(quiet.high_fee, 0.0001, 'half-empty blocks set no floor, however much one payer overpaid')
})

t.test('fullness is capped at 1 and never divides by zero', async (t) => {
  t.equal(estimateFees({ ...base, mempoolSize: 9000 }).mempool_fullness, 1)
  t.equal(estimateFees({ ...base, mempoolCapacity: 0 }).mempool_fullness, 0)
})
