// The `entropy` service when the node is pointed at an external source (--entropy-url): a
// REST client of SPEC 4.6, no pool and no server here. The source id it reports must be
// registered and trusted by this network, or the draw is refused before a block is built
// on it (the node's own validators would reject that block anyway).
import type { Logger } from 'pino'
import type { EntropyDraw, EntropyProvider, EntropyProviderStatus } from '../../core/kernel/services.ts'
import type { Hooks } from '../../core/kernel/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import { EntropyRestClient, EntropyRestError } from './rest-client.ts'
import type { BeaconEvidence } from '../../core/chain/types.ts'
import type { EntropyHealthResponse } from './rest-client.ts'
import { aggregatorId, AGGREGATOR_PREFIX, beaconPin, DEFAULT_SOURCE_ID, isRegisteredSource, sourceComponents } from '../../config/entropy-sources.ts'
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

/**
 * The source id a block may claim for these bytes: the reported one without the beacon
 * components no evidence was given for; null when nothing is left.
 */
export function claimable (source: string, beacons: readonly BeaconEvidence[]): string | null {
  const quoted = new Set(beacons.map((b) => b.source))
  const kept = sourceComponents(source).filter((c) => beaconPin(c) === null || quoted.has(c))
  if (kept.length === 0) return null
  if (!source.startsWith(AGGREGATOR_PREFIX)) return kept[0] as string
  return aggregatorId(kept)
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
    let draw: { bytes: Uint8Array; source: string | null; device: string | null; beacons: BeaconEvidence[] }
    try {
      draw = await this.#draw(n)
    } catch (err) {
      this.#set(false, (err as Error).message)
      throw new EntropyError(EntropyErrorCode.UNREACHABLE, `external entropy source: ${(err as Error).message}`)
    }
    const reported = draw.source ?? this.#health?.source ?? DEFAULT_SOURCE_ID
    // a beacon the source quotes no round of cannot be claimed by the block (it would be refused)
    const source = claimable(reported, draw.beacons)
    if (source === null) {
      const reason = `external source reports '${reported}' without the beacon evidence a block needs (does it serve /api/random/attested?)`
      this.#set(false, reason)
      throw new EntropyError(EntropyErrorCode.UNTRUSTED_SOURCE, reason)
    }
    const canonical = source.startsWith(AGGREGATOR_PREFIX) ? aggregatorId(sourceComponents(source)) : source
    if (!isRegisteredSource(source) || !this.#o.params.trustedSources.includes(canonical)) {
      const reason = `external source reports '${source}', which the ${this.#o.params.name} trust list does not accept`
      this.#set(false, reason)
      throw new EntropyError(EntropyErrorCode.UNTRUSTED_SOURCE, reason)
    }
    this.#lastFetchAt = Date.now() / 1000
    this.#set(true, null)
    const claimed = new Set(sourceComponents(canonical))
    const beacons = draw.beacons.filter((b) => claimed.has(b.source)).sort((a, b) => a.source < b.source ? -1 : 1)
    return { bytes: draw.bytes, source: canonical, device: draw.device ?? this.#health?.device ?? this.client.base.origin, beacons }
  }

  /** The attested endpoint; a source that only speaks SPEC 4.6 (404) gives bytes without evidence. */
  async #draw (n: number): Promise<{ bytes: Uint8Array; source: string | null; device: string | null; beacons: BeaconEvidence[] }> {
    try {
      return await this.client.attested(n, this.#stop.signal)
    } catch (err) {
      if (!(err instanceof EntropyRestError) || err.status !== 404) throw err
    }
    return { ...await this.client.bytes(n, this.#stop.signal), beacons: [] }
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
