// Mempool economics: eviction by fee per byte with an incremental relay fee, and the minimum
// fee rate that rises when the pool evicts and decays (with an injected clock) once blocks come.
import t from 'tap'
import type { Test } from 'tap'
import { openTestChain, mineBlock, transfer, devWallet, generateWallet, cleanup } from '../../helpers/chain.ts'
import type { TestChain } from '../../helpers/chain.ts'
import { Mempool, ROLLING_FEE_HALFLIFE_SECONDS } from '../../../plugins/consensus/mempool.ts'
import type { MempoolOptions } from '../../../plugins/consensus/mempool.ts'
import { TxError, TxErrorCode, txRefusalClass } from '../../../core/chain/errors.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import type { Wallet } from '../../../core/chain/wallet.ts'
import { bohmToCoin, coinToBohm } from '../../../core/chain/money.ts'
import { txSize } from '../../../core/chain/block-size.ts'

const dev = devWallet()
const START = 1_800_000_000
const INC = 10n ** 9n // bohm per byte: round numbers in the test's fees
const MEMO = 'x'.repeat(300)

interface Fixture { tc: TestChain; w: Wallet[] }

async function fixture (t: Test): Promise<Fixture> {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const w = Array.from({ length: 5 }, () => generateWallet())
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: w.map((x, i) => transfer(tc.params, dev, x.address, 100, i)) }), 'test')
  return { tc, w }
}

/** A transfer of the same size as every other made here (numbers are fixed-width in the binary form). */
function sized (tc: TestChain, from: Wallet, to: Wallet, fee: bigint, nonce = 0): Transaction {
  const coin = bohmToCoin(fee)
  if (coinToBohm(coin) !== fee) throw new Error(`fee ${fee} has no exact coin number`)
  return transfer(tc.params, from, to.address, 1, nonce, { fee: coin, timestamp: START, withKey: true, data: { memo: MEMO } })
}

function expectFull (t: Test, mp: Mempool, tx: Transaction, reason: RegExp): void {
  try {
    mp.add(tx)
    t.fail(`expected MEMPOOL_FULL (${reason.source})`)
  } catch (err) {
    t.ok(err instanceof TxError && err.code === TxErrorCode.MEMPOOL_FULL, 'MEMPOOL_FULL')
    t.match((err as Error).message, reason)
  }
}

function pool (tc: TestChain, clock: { now: number }, opts: Partial<MempoolOptions> = {}): Mempool {
  return new Mempool({ chain: tc.chain, params: tc.params, hooks: tc.hooks, contractsEnabled: false, incrementalFeePerByte: INC, now: () => clock.now, ...opts })
}

t.test('displacing a transaction costs its fee per byte plus the incremental fee over the newcomer\'s size', async (t) => {
  const { tc, w } = await fixture(t)
  const [a, b, c, d] = w as [Wallet, Wallet, Wallet, Wallet]
  const clock = { now: START }
  const mp = pool(tc, clock, { capacity: 2 })
  const FEE = coinToBohm(0.001)
  const victim = sized(tc, a, d, FEE)
  const keeper = sized(tc, b, d, 2n * FEE)
  mp.add(victim)
  mp.add(keeper)
  const bytes = BigInt(txSize(victim))
  const required = FEE + INC * bytes
  t.equal(txSize(sized(tc, c, d, required)), txSize(victim), 'the newcomers are the victim\'s size')

  expectFull(t, mp, sized(tc, c, d, FEE + 1n), new RegExp(`incremental relay fee of ${INC} bohm per byte \\(${required} bohm for ${bytes} bytes\\)`))
  expectFull(t, mp, sized(tc, c, d, required - 1n), /incremental relay fee/)
  t.equal(mp.size, 2)
  t.ok(mp.has(victim.transaction_id), 'nothing evicted by the refused ones')
  t.equal(mp.minFeePerByte(), 0n, 'no minimum before anything was evicted')

  const newcomer = sized(tc, c, d, required)
  mp.add(newcomer)
  t.notOk(mp.has(victim.transaction_id), 'exactly the required fee displaces the victim')
  t.ok(mp.has(newcomer.transaction_id) && mp.has(keeper.transaction_id))
  t.equal(mp.minFeePerByte(), FEE / bytes + INC, 'the minimum rose to the evicted rate plus the incremental fee')
})

t.test('the byte budget evicts the lowest fee per byte, not the lowest fee', async (t) => {
  const { tc, w } = await fixture(t)
  const [a, b, c, d] = w as [Wallet, Wallet, Wallet, Wallet]
  const clock = { now: START }
  const small = transfer(tc.params, a, d.address, 1, 0, { fee: 0.002, timestamp: START, withKey: true })
  const large = transfer(tc.params, b, d.address, 1, 0, { fee: 0.00205, timestamp: START, withKey: true, data: { memo: 'x'.repeat(500) } })
  t.ok(coinToBohm(0.00205) * BigInt(txSize(small)) < coinToBohm(0.002) * BigInt(txSize(large)), 'the larger pays more, but less per byte')
  const mp = pool(tc, clock, { maxBytes: txSize(small) + txSize(large) })
  mp.add(small)
  mp.add(large)
  mp.add(transfer(tc.params, c, d.address, 1, 0, { fee: 0.0021, timestamp: START, withKey: true }))
  t.notOk(mp.has(large.transaction_id), 'the lowest fee per byte went')
  t.ok(mp.has(small.transaction_id))
})

t.test('the minimum fee rate rises while the pool is full and decays with its half-life once blocks come', async (t) => {
  const { tc, w } = await fixture(t)
  const [a, b, c, d, e] = w as [Wallet, Wallet, Wallet, Wallet, Wallet]
  const clock = { now: START }
  const mp = pool(tc, clock, { capacity: 2 })
  const FEE = coinToBohm(0.001)
  const bytes = BigInt(txSize(sized(tc, a, d, FEE)))
  mp.add(sized(tc, a, d, FEE))
  const high = sized(tc, b, d, 10n * FEE)
  mp.add(high)
  const evictor = sized(tc, c, d, FEE + INC * bytes)
  mp.add(evictor)
  const min = FEE / bytes + INC
  t.equal(mp.minFeePerByte(), min)

  // the pool empties (its transactions confirmed), but the minimum stays until a block passes
  mp.revalidate([], []) // a block arrived (its transactions are not these)
  t.equal(mp.minFeePerByte(), min, 'no time passed')
  // a newcomer under the minimum is refused even with room in the pool
  mp.revalidate([high.transaction_id, evictor.transaction_id], [])
  t.equal(mp.size, 0)
  expectFull(t, mp, sized(tc, e, d, min * bytes - 1n), /below the mempool's minimum of \d+, raised while it was full/)

  // an empty pool decays with a quarter of the half-life
  clock.now += ROLLING_FEE_HALFLIFE_SECONDS / 4
  const halved = mp.minFeePerByte()
  t.ok(halved >= min / 2n - 1n && halved <= min / 2n + 1n, `halved after a quarter half-life at low usage (${halved} of ${min})`)
  mp.add(sized(tc, e, d, halved * bytes))
  t.equal(mp.size, 1, 'a fee at the decayed minimum is admitted')

  clock.now += 20 * ROLLING_FEE_HALFLIFE_SECONDS
  t.equal(mp.minFeePerByte(), 0n, 'back to zero once below half the incremental fee')
})

t.test('no decay until a block came after the bump; then the whole time since the bump counts (as in Bitcoin Core)', async (t) => {
  const { tc, w } = await fixture(t)
  const [a, b, c, d] = w as [Wallet, Wallet, Wallet, Wallet]
  const clock = { now: START }
  const mp = pool(tc, clock, { capacity: 1 })
  const FEE = coinToBohm(0.001)
  const bytes = BigInt(txSize(sized(tc, a, d, FEE)))
  mp.add(sized(tc, a, d, FEE))
  mp.add(sized(tc, b, d, FEE + INC * bytes))
  const min = mp.minFeePerByte()
  clock.now += ROLLING_FEE_HALFLIFE_SECONDS
  t.equal(mp.minFeePerByte(), min, 'no block: no decay')
  mp.revalidate([], [])
  // the pool is full (1 of 1): the plain half-life
  const after = mp.minFeePerByte()
  t.ok(after >= min / 2n - 1n && after <= min / 2n + 1n, `halved after one half-life (${after} of ${min})`)
  void c
})

t.test('refusal classes for the peer layer', async (t) => {
  t.equal(txRefusalClass(TxErrorCode.BAD_SIGNATURE), 'invalid')
  t.equal(txRefusalClass(TxErrorCode.FEE_TOO_LOW), 'invalid')
  t.equal(txRefusalClass(TxErrorCode.BAD_NONCE), 'stale')
  t.equal(txRefusalClass(TxErrorCode.INSUFFICIENT_BALANCE), 'stale')
  t.equal(txRefusalClass(TxErrorCode.MEMPOOL_FULL), 'policy')
  t.equal(txRefusalClass(TxErrorCode.DUPLICATE), 'policy')
  t.equal(txRefusalClass('POLICY_SANCTIONED_ADDRESS'), 'policy', 'a policy plugin\'s own code costs nothing')
})
