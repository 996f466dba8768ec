// The `entropy` service backed by the built-in aggregator: the miner draws from the same pool
// the REST server serves, in-process. No fallback: below quorum, getBytes throws.
import type { EntropyDraw, EntropyProvider, EntropyProviderStatus } from '../../core/kernel/services.ts'
import type { Hooks } from '../../core/kernel/hooks.ts'
import { ReachabilityNotifier } from './reachability.ts'
import type { EntropyAggregator } from './aggregator.ts'

export interface AggregatorProviderOptions {
  aggregator: EntropyAggregator
  /** bounded wait for the background refill when the pool holds too few bytes */
  waitMs: number
  /** where the REST contract is served (the bound port once listening) */
  address: () => { host: string; port: number }
  hooks?: Hooks
}

export class AggregatorEntropyProvider implements EntropyProvider {
  readonly #o: AggregatorProviderOptions
  readonly #notifier: ReachabilityNotifier

  /** the aggregator behind this provider (`ledger entropy` reports on it) */
  get aggregator (): EntropyAggregator { return this.#o.aggregator }

  constructor (o: AggregatorProviderOptions) {
    this.#o = o
    this.#notifier = new ReachabilityNotifier(o.hooks)
    o.aggregator.onStatusChange((status, reason) => {
      if (status === 'warming_up') return
      this.#notifier.update(status === 'ok', o.aggregator.lastFill?.source ?? null, reason)
    })
  }

  async getBytes (n: number): Promise<EntropyDraw> {
    const t = await this.#o.aggregator.drawAttested(n, this.#o.waitMs)
    return { bytes: t.bytes, source: t.source, device: t.device, beacons: t.beacons }
  }

  /** last_fetch_at: when the pool was last filled from the upstream sources (Unix seconds). */
  status (): EntropyProviderStatus {
    const a = this.#o.aggregator
    const { host, port } = this.#o.address()
    const filledAt = a.lastFill === null ? null : Date.parse(a.lastFill.filled_at) / 1000
    return {
      reachable: a.status === 'ok',
      host,
      port,
      last_fetch_at: filledAt,
      pool_available_bytes: a.pool.available,
      source: a.lastFill?.source ?? null,
      reason: a.reason
    }
  }
}
