// Fee estimate (SPEC 2.2 GET /api/fee) from mempool depth and recent block contents. The
// algorithm is documented in docs/dashboard.md; in short: a fee "enters within k blocks" when
// it outbids the pending transaction that sits at rank k x (block slots) in the mempool's
// fee order, and when recent blocks were nearly full the fees they actually included set a
// floor (p90 / p50 / p10 for high / medium / low). Everything is integer bohm until rendered.
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import { MINING_REWARD_SENDER } from '../../core/chain/types.ts'
import { bohmToCoin, coinToBohm } from '../../core/chain/money.ts'

export interface FeeEstimate {
  mempool_min: number
  mempool_median: number
  min_fee: number
  low_fee: number
  medium_fee: number
  high_fee: number
  mempool_fullness: number
}

/** blocks of history the estimate looks at */
export const RECENT_BLOCKS = 10
/** average fill of recent blocks above which their included fees become a floor */
export const CONGESTED_FILL = 0.8
/** how many blocks' worth of pending transactions each tier may wait behind */
export const TIER_BLOCKS = { high: 1, medium: 3, low: 6 } as const

export interface RecentBlock { userFees: bigint[] }

export interface FeeInputs {
  /** fees of pending transactions, any order */
  pendingFees: bigint[]
  mempoolSize: number
  mempoolCapacity: number
  /** newest first; coinbase excluded */
  recent: RecentBlock[]
  minFee: bigint
  /** user transactions a block holds (the coinbase takes one slot) */
  slots: number
}

const maxOf = (...xs: bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a))

/** nearest-rank percentile of an ascending list; undefined when empty */
function percentile (ascending: bigint[], p: number): bigint | undefined {
  if (ascending.length === 0) return undefined
  const rank = Math.min(ascending.length - 1, Math.max(0, Math.ceil(p * ascending.length) - 1))
  return ascending[rank]
}

function median (ascending: bigint[]): bigint {
  const n = ascending.length
  if (n === 0) return 0n
  const mid = Math.floor(n / 2)
  return n % 2 === 1 ? ascending[mid] as bigint : ((ascending[mid - 1] as bigint) + (ascending[mid] as bigint)) / 2n
}

const asc = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)

export function estimateFees (inp: FeeInputs): FeeEstimate {
  const pendingAsc = [...inp.pendingFees].sort(asc)
  const pendingDesc = [...pendingAsc].reverse()
  const slots = Math.max(1, inp.slots)

  // outbid the transaction that would take the last slot of the first k blocks (ties lose:
  // selection orders equal fees by arrival)
  const toEnterWithin = (blocks: number): bigint => {
    const last = pendingDesc[blocks * slots - 1]
    return last === undefined ? inp.minFee : last + inp.minFee
  }

  const fills = inp.recent.map((b) => Math.min(1, b.userFees.length / slots))
  const avgFill = fills.length === 0 ? 0 : fills.reduce((a, b) => a + b, 0) / fills.length
  const includedAsc = inp.recent.flatMap((b) => b.userFees).sort(asc)
  const congested = avgFill >= CONGESTED_FILL
  const floor = (p: number): bigint => (congested ? percentile(includedAsc, p) : undefined) ?? inp.minFee

  return {
    mempool_min: bohmToCoin(pendingAsc[0] ?? 0n),
    mempool_median: bohmToCoin(median(pendingAsc)),
    min_fee: bohmToCoin(inp.minFee),
    low_fee: bohmToCoin(maxOf(inp.minFee, toEnterWithin(TIER_BLOCKS.low), floor(0.1))),
    medium_fee: bohmToCoin(maxOf(inp.minFee, toEnterWithin(TIER_BLOCKS.medium), floor(0.5))),
    high_fee: bohmToCoin(maxOf(inp.minFee, toEnterWithin(TIER_BLOCKS.high), floor(0.9))),
    mempool_fullness: inp.mempoolCapacity > 0 ? Math.min(1, inp.mempoolSize / inp.mempoolCapacity) : 0
  }
}

/** Reads the inputs from the node; recent blocks are cached per tip. */
export class FeeEstimator {
  readonly #chain: ChainService
  readonly #mempool: MempoolService
  readonly #params: NetworkParams
  #cache: { tip: string; recent: RecentBlock[] } | null = null

  constructor (chain: ChainService, mempool: MempoolService, params: NetworkParams) {
    this.#chain = chain
    this.#mempool = mempool
    this.#params = params
  }

  async #recentBlocks (): Promise<RecentBlock[]> {
    const tip = this.#chain.tip()
    if (this.#cache?.tip === tip.hash) return this.#cache.recent
    const recent: RecentBlock[] = []
    for (let h = tip.height; h >= 1 && recent.length < RECENT_BLOCKS; h--) {
      const block = await this.#chain.getBlockByHeight(h)
      if (block === undefined) break
      recent.push({ userFees: block.transactions.filter((tx) => tx.sender !== MINING_REWARD_SENDER).map((tx) => coinToBohm(tx.fee)) })
    }
    this.#cache = { tip: tip.hash, recent }
    return recent
  }

  async estimate (): Promise<FeeEstimate> {
    return estimateFees({
      pendingFees: this.#mempool.list().map((tx) => coinToBohm(tx.fee)),
      mempoolSize: this.#mempool.size,
      mempoolCapacity: this.#mempool.capacity,
      recent: await this.#recentBlocks(),
      minFee: coinToBohm(this.#params.minFeeCoin),
      slots: this.#params.maxTxPerBlock - 1
    })
  }
}
