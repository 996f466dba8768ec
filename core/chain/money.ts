// Money is integer bohm internally (1 coin = 10^18 bohm) and never accumulates in floats.
// Coin values arrive as JSON numbers; they are converted through their shortest decimal
// text, which is exactly what the sender signed (RFC 8785 renders numbers the same way).

export const BOHM_PER_COIN = 10n ** 18n
export const GAS_PRICE_BOHM = 10n ** 9n
const DECIMALS = 18

export class AmountError extends Error {}

/** Exact bohm value of a coin amount given as a JS number; throws on negatives, NaN, >18 decimals. */
export function coinToBohm (coin: number): bigint {
  if (typeof coin !== 'number' || !Number.isFinite(coin) || coin < 0) throw new AmountError('amount must be a non-negative finite number')
  const text = coin.toString()
  const [mantissa, expText] = text.split('e') as [string, string | undefined]
  const exp = expText === undefined ? 0 : Number(expText)
  const [intPart, fracPart = ''] = mantissa.split('.') as [string, string | undefined]
  const digits = BigInt(intPart + fracPart)
  const scale = DECIMALS - fracPart.length + exp
  if (scale < 0) {
    const div = 10n ** BigInt(-scale)
    if (digits % div !== 0n) throw new AmountError('amount has more than 18 decimals')
    return digits / div
  }
  return digits * 10n ** BigInt(scale)
}

/** Nearest coin number for display (API responses). */
export function bohmToCoin (bohm: bigint): number {
  const neg = bohm < 0n
  const abs = neg ? -bohm : bohm
  const whole = abs / BOHM_PER_COIN
  const frac = (abs % BOHM_PER_COIN).toString().padStart(DECIMALS, '0').replace(/0+$/, '')
  const n = Number(frac.length > 0 ? `${whole}.${frac}` : `${whole}`)
  return neg ? -n : n
}

/** The largest coin number whose exact bohm value does not exceed `bohm` (used for coinbase amounts). */
export function bohmToCoinFloor (bohm: bigint): number {
  let coin = bohmToCoin(bohm)
  while (coinToBohm(coin) > bohm) coin = nextDown(coin)
  return coin
}

function nextDown (x: number): number {
  if (x <= 0) return 0
  const buf = new DataView(new ArrayBuffer(8))
  buf.setFloat64(0, x)
  buf.setBigUint64(0, buf.getBigUint64(0) - 1n)
  return buf.getFloat64(0)
}

export function isCoinAmount (coin: unknown): coin is number {
  if (typeof coin !== 'number') return false
  try { coinToBohm(coin); return true } catch { return false }
}
