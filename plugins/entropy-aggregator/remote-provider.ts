// The `entropy` service when the node is pointed at an external source (--entropy-url): a
// REST client of SPEC 4.6, no pool and no server here. The source id it reports must be
// registered and trusted by this network, or the draw is refused before a block is built
// on it (the node's own validators would reject that block anyway).
import type { Logger } from 'pino'
import type { EntropyDraw, EntropyProvider, EntropyProviderStatus } from '../../core/services.ts'
import type { Hooks } from '../../core/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import { EntropyRestClient } from '../../core/entropy/rest-client.ts'
import type { EntropyHealthResponse } from '../../core/entropy/rest-client.ts'
import { aggregatorId, AGGREGATOR_PREFIX, DEFAULT_SOURCE_ID, isRegisteredSource, sourceComponents } from '../../config/entropy-sources.ts'
import { EntropyError, EntropyErrorCode } from './errors.ts'
import { ReachabilityNotifier } from './reachability.ts'

export interface RemoteProviderOptions {
  url: string
  timeoutMs: number
  /** health is polled this often, so the dashboard sees a source go down between blocks */
  pollIntervalMs: number
  params: NetworkParams
  logger: Logger
  hooks?: Hooks
}

/** States that mean "serving"; other implementations of the contract may say healthy. */
const SERVING = new Set(['ok', 'healthy'])

export class RemoteEntropyProvider implements EntropyProvider {
  readonly client: EntropyRestClient
  readonly #o: RemoteProviderOptions
  readonly #notifier: ReachabilityNotifier
  #health: EntropyHealthResponse | null = null
  #reachable = false
  #reason: string | null = 'not contacted yet'
  #lastFetchAt: number | null = null
  #timer: NodeJS.Timeout | null = null
  readonly #stop = new AbortController()

  constructor (o: RemoteProviderOptions) {
    this.#o = o
    this.client = new EntropyRestClient({ url: o.url, timeoutMs: o.timeoutMs })
    this.#notifier = new ReachabilityNotifier(o.hooks)
  }

  /** One health check (bounded by the client timeout), then polling. Never throws. */
  async start (): Promise<void> {
    await this.refreshHealth()
    this.#timer = setInterval(() => { void this.refreshHealth() }, this.#o.pollIntervalMs)
    this.#timer.unref()
  }

  stop (): void {
    this.#stop.abort()
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
  }

  async refreshHealth (): Promise<void> {
    try {
      const h = await this.client.health(this.#stop.signal)
      this.#health = h
      const serving = SERVING.has(h.status)
      this.#set(serving, serving ? null : `source status '${h.status}'${h.reason != null ? `: ${h.reason}` : ''}`)
    } catch (err) {
      if (!this.#stop.signal.aborted) this.#set(false, (err as Error).message)
    }
  }

  async getBytes (n: number): Promise<EntropyDraw> {
    let draw
    try {
      draw = await this.client.bytes(n, this.#stop.signal)
    } catch (err) {
      this.#set(false, (err as Error).message)
      throw new EntropyError(EntropyErrorCode.UNREACHABLE, `external entropy source: ${(err as Error).message}`)
    }
    const source = draw.source ?? this.#health?.source ?? DEFAULT_SOURCE_ID
    const canonical = source.startsWith(AGGREGATOR_PREFIX) ? aggregatorId(sourceComponents(source)) : source
    if (!isRegisteredSource(source) || !this.#o.params.trustedSources.includes(canonical)) {
      const reason = `external source reports '${source}', which the ${this.#o.params.name} trust list does not accept`
      this.#set(false, reason)
      throw new EntropyError(EntropyErrorCode.UNTRUSTED_SOURCE, reason)
    }
    this.#lastFetchAt = Date.now() / 1000
    this.#set(true, null)
    return { bytes: draw.bytes, source: canonical, device: draw.device ?? this.#health?.device ?? this.client.base.origin }
  }

  status (): EntropyProviderStatus {
    return {
      reachable: this.#reachable,
      host: this.client.host,
      port: this.client.port,
      last_fetch_at: this.#lastFetchAt,
      pool_available_bytes: this.#health?.pool.available_bytes ?? 0,
      source: this.#health?.source ?? null,
      reason: this.#reason
    }
  }

  #set (reachable: boolean, reason: string | null): void {
    if (reachable !== this.#reachable) {
      if (reachable) this.#o.logger.info({ url: this.client.base.origin }, 'external entropy source reachable')
      else this.#o.logger.warn({ url: this.client.base.origin, reason }, 'external entropy source unreachable')
    }
    this.#reachable = reachable
    this.#reason = reason
    this.#notifier.update(reachable, this.#health?.source ?? null, reason)
  }
}
