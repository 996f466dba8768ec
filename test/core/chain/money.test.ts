import t from 'tap'
import type { Test } from 'tap'
import { coinToBohm, bohmToCoin, bohmToCoinFloor, isCoinAmount, AmountError, BOHM_PER_COIN } from '../../../core/chain/money.ts'

t.test('coinToBohm is exact for the decimal text a sender signs', async (t) => {
  t.equal(coinToBohm(0), 0n)
  t.equal(coinToBohm(1), BOHM_PER_COIN)
  t.equal(coinToBohm(0.1), 100_000_000_000_000_000n, '0.1 is not a float approximation')
  t.equal(coinToBohm(0.0001), 100_000_000_000_000n)
  t.equal(coinToBohm(5.001), 5_001_000_000_000_000_000n)
  t.equal(coinToBohm(1e-18), 1n, 'exponent form, smallest unit')
  t.equal(coinToBohm(1.5e-10), 150_000_000n)
  t.equal(coinToBohm(21_000_000), 21_000_000n * BOHM_PER_COIN)
  t.equal(coinToBohm(1e21), 10n ** 39n, 'positive exponent form')
})

function refused (t: Test, fn: () => unknown, reason: RegExp): void {
  try { fn(); t.fail('expected an AmountError') } catch (err) {
    t.ok(err instanceof AmountError, 'AmountError')
    t.match((err as Error).message, reason)
  }
}

t.test('coinToBohm refuses more than 18 decimals, negatives, NaN and infinities', async (t) => {
  refused(t, () => coinToBohm(1e-19), /more than 18 decimals/)
  refused(t, () => coinToBohm(1.5e-18), /more than 18 decimals/)
  refused(t, () => coinToBohm(0.0012345678901234567), /more than 18 decimals/)
  refused(t, () => coinToBohm(-1), /non-negative finite/)
  refused(t, () => coinToBohm(-1e-18), /non-negative finite/)
  refused(t, () => coinToBohm(Number.NaN), /non-negative finite/)
  refused(t, () => coinToBohm(Number.POSITIVE_INFINITY), /non-negative finite/)
  refused(t, () => coinToBohm('1' as unknown as number), /non-negative finite/)
  t.equal(isCoinAmount(0.5), true)
  t.equal(isCoinAmount(-0.5), false)
  t.equal(isCoinAmount('0.5'), false)
  t.equal(isCoinAmount(1e-19), false)
})

t.test('coin -> bohm -> coin round-trips for values a wallet sends', async (t) => {
  const samples = [0, 1, 0.1, 0.2, 0.3, 0.0001, 0.001, 5, 5.001, 1234.5678, 999999.999999, 21_000_000, 1e-18, 3e-7, 0.000123456789012345]
  for (const coin of samples) t.equal(bohmToCoin(coinToBohm(coin)), coin, `round-trip ${coin}`)
})

t.test('bohm -> coin -> bohm round-trips when the value fits a double', async (t) => {
  const samples = [0n, 1n, 10n ** 18n, 123_456_789n, 5_001_000_000_000_000_000n, 999_999_999_999_999n]
  for (const bohm of samples) t.equal(coinToBohm(bohmToCoin(bohm)), bohm, `round-trip ${bohm}`)
  t.equal(bohmToCoin(-1_500_000_000_000_000_000n), -1.5, 'negative values render with a sign')
})

t.test('bohmToCoinFloor never exceeds the bohm value and is itself a valid amount', async (t) => {
  // 24 significant digits: more than a double holds, so the nearest number may lie above.
  const exact = 123_456_123_456_789_012_345_678n
  t.ok(coinToBohm(bohmToCoin(exact)) !== exact, 'nearest coin number is not exact for this value')
  const floor = bohmToCoinFloor(exact)
  t.ok(coinToBohm(floor) <= exact, 'floor does not exceed')
  t.ok(exact - coinToBohm(floor) < 10n ** 8n, 'floor stays within a double step')

  let seed = 12345
  const rand = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed }
  for (let i = 0; i < 3000; i++) {
    const digits = 1 + (rand() % 26)
    let text = ''
    for (let j = 0; j < digits; j++) text += String(rand() % 10)
    const bohm = BigInt(text)
    const coin = bohmToCoinFloor(bohm)
    if (!(isCoinAmount(coin) && coinToBohm(coin) <= bohm)) { t.fail(`floor of ${bohm} gave ${coin}`); return }
  }
  t.pass('3000 pseudo-random values floored without exceeding')
})
