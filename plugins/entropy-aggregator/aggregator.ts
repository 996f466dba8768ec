// The aggregator (SPEC 4.6): asks every upstream source for a batch, XOR-mixes the answers
// into the pool when at least min_quorum answered, and serves the pool only while the last
// round met the quorum (fail closed). Rounds run on a background task: a request never waits
// on an upstream, it only takes from the pool (or waits, bounded, for the task to refill it).
import type { Logger } from 'pino'
import { aggregatorId, beaconPin } from '../../config/entropy-sources.ts'
import { beaconRoundTime } from '../../core/chain/attestation.ts'
import type { BeaconEvidence } from '../../core/chain/types.ts'
import { healthSnapshot, healthViolation } from '../../core/entropy/health.ts'
import { servedEvidence } from '../../core/chain/entropy-evidence.ts'
import type { EntropyEvidence } from '../../core/chain/entropy-evidence.ts'
import type { HealthBounds } from '../../core/entropy/health.ts'
import { EntropyPool } from './pool.ts'
import { xorMix } from './mixer.ts'
import { EntropyError, EntropyErrorCode } from './errors.ts'
import { SourceTracker } from './source-tracker.ts'
import type { BackoffPolicy, SourceState } from './source-tracker.ts'
import type { SourceResult, UpstreamSource } from './sources/types.ts'

export interface AggregatorOptions {
  sources: UpstreamSource[]
  minQuorum: number
  /** pool size in bytes (SPEC 8: at most 65,536) */
  capacity: number
  /** refill when the pool is below this fraction of capacity (0.5) */
  refillThreshold: number
  /** bytes asked of each source per refill (32 KB) */
  batchBytes: number
  /** deadline of one source's answer in a round */
  timeoutMs: number
  /** with a full pool, sources are still asked (a few bytes) this often, so a dead quorum is noticed */
  probeIntervalMs: number
  backoff: BackoffPolicy
  /** a batch whose statistics fall outside these is refused (a stuck device reads as down) */
  healthBounds: HealthBounds
  logger: Logger
  now?: () => number
}

export type AggregatorStatus = 'warming_up' | 'ok' | 'below_quorum' | 'stopped'

/** Bytes taken from the pool and the sources that produced them. */
export interface EntropyTake {
  bytes: Uint8Array
  /** composition id: aggregator:<a>+<b> (canonical), or the atomic id of a one-source server */
  source: string
  device: string
  contributors: string[]
  rounds: Record<string, number>
}

/** Bytes with the beacon rounds that back them: what a block's envelope v2 quotes. */
export interface AttestedTake extends EntropyTake {
  /** fresh verified rounds of the beacon contributors, sorted by source id */
  beacons: BeaconEvidence[]
}

/**
 * Evidence older than this (by the beacon's schedule) is refreshed before it is handed out:
 * a block must quote a round at most 60 s older than itself (docs/entropy.md), and a miner
 * may take a few seconds to find the nonce.
 */
export const EVIDENCE_MAX_AGE_S = 40
/** a held round younger than max(period, this) is quoted without asking the beacon again */
const EVIDENCE_REFRESH_MIN_S = 10

export interface LastFill {
  source: string
  contributors: string[]
  round: number
  rounds: Record<string, number>
  filled_at: string
}

export interface AggregatorHealth {
  status: AggregatorStatus
  /** why status is not ok; null when it is */
  reason: string | null
  uptime_seconds: number
  pool: { available_bytes: number; capacity: number; fill_percent: number }
  last_fill: { source: string | null; round: number | null; filled_at: string | null; rounds: Record<string, number> }
  source: string
  device: string
  min_quorum: number
  sources: SourceState[]
  /** what backs the bytes of the last fill (docs/entropy.md vocabulary): beacon rounds, or
   *  nothing; null before the first fill */
  evidence: EntropyEvidence | null
}

export interface RoundReport {
  kind: 'fill' | 'probe'
  answered: string[]
  failed: Record<string, string>
  quorum: boolean
  added: number
}

export type StatusListener = (status: AggregatorStatus, reason: string | null) => void

/**
 * The least a source is asked for (a probe, or a fill with little room): enough for the health
 * check to never refuse a good source by chance (monobit and Fano bounds both > 18σ away at
 * 1 KB, where at 64 bytes the monobit tail alone is 5e-6).
 */
const MIN_ASK_BYTES = 1024
const MIN_RETRY_SLEEP_MS = 250

export class EntropyAggregator {
  readonly pool: EntropyPool
  readonly minQuorum: number
  readonly #o: AggregatorOptions
  readonly #sources: ReadonlyArray<{ source: UpstreamSource; tracker: SourceTracker }>
  readonly #now: () => number
  readonly #startedAt: number
  readonly #stop = new AbortController()
  readonly #listeners: StatusListener[] = []
  #status: AggregatorStatus = 'warming_up'
  #reason: string | null = 'no round has run yet'
  #lastFill: LastFill | null = null
  /** newest verified round of each beacon source, from fills, probes and refreshes */
  readonly #evidence = new Map<string, BeaconEvidence>()
  #fills = 0
  #lastRoundAt = 0
  #round: Promise<RoundReport> | null = null
  /** composition of the sources the last quorum round mixed (null until one met it, or after quorum was lost) */
  #serving: string | null = null
  #roundWaiters: Array<() => void> = []
  #wake: (() => void) | null = null
  #demand = 0
  #loop: Promise<void> | null = null

  constructor (o: AggregatorOptions) {
    if (o.sources.length === 0) throw new Error('the aggregator needs at least one source')
    if (new Set(o.sources.map((s) => s.id)).size !== o.sources.length) throw new Error('each source may appear once')
    if (!Number.isInteger(o.minQuorum) || o.minQuorum < 1 || o.minQuorum > o.sources.length) {
      throw new Error(`min_quorum must be 1..${o.sources.length} (the number of sources), got ${o.minQuorum}`)
    }
    this.#o = o
    this.minQuorum = o.minQuorum
    this.pool = new EntropyPool(o.capacity)
    this.#now = o.now ?? Date.now
    this.#startedAt = this.#now()
    this.#sources = o.sources.map((source) => ({ source, tracker: new SourceTracker(source.id, source.device, o.backoff) }))
  }

  get status (): AggregatorStatus { return this.#status }
  get reason (): string | null { return this.#reason }
  get lastFill (): LastFill | null { return this.#lastFill }
  get lastRoundAt (): number { return this.#lastRoundAt }
  get sourceIds (): string[] { return this.#sources.map((s) => s.source.id) }

  onStatusChange (listener: StatusListener): void { this.#listeners.push(listener) }

  /** A one-source server speaks as that source; several speak as their canonical composition. */
  compositionId (contributors: readonly string[]): string {
    if (this.#sources.length === 1 && contributors.length === 1) return contributors[0] as string
    return aggregatorId(contributors)
  }

  /**
   * Starts the background task. Resolves after the first round, or after `warmupMs` if the
   * round is slower (boot is never held longer; the task keeps going).
   */
  async start (warmupMs: number): Promise<void> {
    if (this.#loop !== null) return
    const firstRound = new Promise<void>((resolve) => { this.#roundWaiters.push(resolve) })
    this.#loop = this.#run()
    let timer: NodeJS.Timeout | undefined
    await Promise.race([firstRound, new Promise<void>((resolve) => { timer = setTimeout(resolve, warmupMs) })])
    clearTimeout(timer)
  }

  async stop (): Promise<void> {
    if (this.#status === 'stopped') return
    this.#stop.abort()
    this.#wake?.()
    await this.#loop
    await this.#round?.catch(() => undefined)
    this.pool.clear()
    this.#setStatus('stopped', 'the aggregator was stopped')
    for (const w of this.#roundWaiters.splice(0)) w()
    await Promise.all(this.#sources.map(async ({ source }) => { await source.close?.() }))
  }

  /** Takes n bytes now, or throws: below quorum, warming up, stopped, or the pool holds fewer. */
  take (n: number): EntropyTake {
    this.#checkN(n)
    this.#checkServing()
    if (n > this.pool.available) throw new EntropyError(EntropyErrorCode.POOL_LOW, `the pool holds ${this.pool.available} of the ${n} bytes asked; it is being refilled`)
    const t = this.pool.take(n)
    if (this.#fillNeeded()) this.#wake?.()
    return { bytes: t.bytes, source: this.compositionId(t.contributors), device: this.#devices(t.contributors), contributors: t.contributors, rounds: t.rounds }
  }

  /** Like take(), but when the pool holds too few bytes, waits up to `waitMs` for the refill. */
  async draw (n: number, waitMs: number): Promise<EntropyTake> {
    this.#checkN(n)
    const deadline = this.#now() + waitMs
    try {
      for (;;) {
        if (this.#status === 'ok' && this.pool.available >= n) return this.take(n)
        if (this.#status === 'below_quorum' || this.#status === 'stopped') this.#checkServing()
        const remaining = deadline - this.#now()
        if (remaining <= 0) return this.take(n)
        this.#demand = Math.max(this.#demand, n)
        this.#wake?.()
        await this.#nextRound(remaining)
      }
    } finally {
      this.#demand = 0
    }
  }

  /**
   * Like draw(), plus fresh evidence of each beacon the bytes came from. A beacon whose fresh
   * round cannot be had now is left out of the reported source (its bytes are still mixed in,
   * but the block cannot claim it); when nothing is left, the draw fails.
   */
  async drawAttested (n: number, waitMs: number): Promise<AttestedTake> {
    const t = await this.draw(n, waitMs)
    const beacons: BeaconEvidence[] = []
    const claimed: string[] = []
    for (const id of t.contributors) {
      if (beaconPin(id) === null) { claimed.push(id); continue }
      const e = await this.#freshEvidence(id)
      if (e === null) continue
      beacons.push(e)
      claimed.push(id)
    }
    if (claimed.length === 0) {
      t.bytes.fill(0)
      throw new EntropyError(EntropyErrorCode.BELOW_QUORUM, `no fresh beacon round from ${t.contributors.join(', ')}: the bytes cannot be attested`)
    }
    beacons.sort((a, b) => a.source < b.source ? -1 : 1)
    return { ...t, source: this.compositionId(claimed), device: this.#devices(claimed), contributors: claimed, beacons }
  }

  async #freshEvidence (id: string): Promise<BeaconEvidence | null> {
    const pin = beaconPin(id)
    const known = this.#evidence.get(id)
    const nowS = this.#now() / 1000
    // the newest round is asked for once a period (at most every 10 s); what is held is used until then
    if (pin !== null && known !== undefined && beaconRoundTime(pin, known.round) >= nowS - Math.max(pin.period, EVIDENCE_REFRESH_MIN_S)) return known
    const source = this.#sources.find((s) => s.source.id === id)?.source
    if (source?.latestEvidence === undefined) return null
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(), this.#o.timeoutMs)
    try {
      const signal = AbortSignal.any([deadline.signal, this.#stop.signal])
      const e = await withDeadline(source.latestEvidence(signal), signal, () => `no answer within ${this.#o.timeoutMs} ms`)
      this.#evidence.set(id, e)
      return pin !== null && beaconRoundTime(pin, e.round) >= nowS - EVIDENCE_MAX_AGE_S ? e : null
    } catch (err) {
      this.#o.logger.warn({ source: id, reason: (err as Error).message }, 'no fresh beacon round for the evidence')
      return null
    } finally {
      clearTimeout(timer)
    }
  }

  /** One round now (the background task calls this; tests may too). Rounds never overlap. */
  runRound (kind: 'fill' | 'probe' = 'fill'): Promise<RoundReport> {
    this.#round ??= this.#doRound(kind).finally(() => {
      this.#round = null
      this.#lastRoundAt = this.#now()
      for (const w of this.#roundWaiters.splice(0)) w()
    })
    return this.#round
  }

  health (): AggregatorHealth {
    const now = this.#now()
    const lf = this.#lastFill
    const fallbackSource = this.compositionId(this.sourceIds)
    return {
      status: this.#status,
      reason: this.#reason,
      uptime_seconds: Math.floor((now - this.#startedAt) / 1000),
      pool: {
        available_bytes: this.pool.available,
        capacity: this.pool.capacity,
        fill_percent: Math.round((this.pool.available / this.pool.capacity) * 10_000) / 100
      },
      last_fill: lf === null
        ? { source: null, round: null, filled_at: null, rounds: {} }
        : { source: lf.source, round: lf.round, filled_at: lf.filled_at, rounds: lf.rounds },
      source: lf?.source ?? fallbackSource,
      device: this.#devices(lf === null ? this.sourceIds : lf.contributors),
      min_quorum: this.minQuorum,
      sources: this.#sources.map(({ tracker }) => tracker.view(now)),
      evidence: lf === null ? null : servedEvidence(Object.keys(lf.rounds).length)
    }
  }

  #checkN (n: number): void {
    if (!Number.isSafeInteger(n) || n < 1 || n > this.pool.capacity) {
      throw new EntropyError(EntropyErrorCode.BAD_REQUEST, `n must be an integer 1..${this.pool.capacity}`)
    }
  }

  #checkServing (): void {
    if (this.#status === 'ok') return
    const reason = this.#reason ?? this.#status
    if (this.#status === 'below_quorum') throw new EntropyError(EntropyErrorCode.BELOW_QUORUM, `entropy below quorum: ${reason}`)
    if (this.#status === 'stopped') throw new EntropyError(EntropyErrorCode.STOPPED, 'the entropy aggregator is stopped')
    throw new EntropyError(EntropyErrorCode.WARMING_UP, `entropy aggregator warming up: ${reason}`)
  }

  #fillNeeded (): boolean {
    const available = this.pool.available
    return this.pool.room > 0 && (available < this.pool.capacity * this.#o.refillThreshold || this.#demand > available)
  }

  #devices (ids: readonly string[]): string {
    return ids.map((id) => this.#sources.find((s) => s.source.id === id)?.tracker.device ?? id).join(' xor ')
  }

  async #doRound (kind: 'fill' | 'probe'): Promise<RoundReport> {
    // a fill asks only for the room left (the pool cuts the rest), never fewer bytes than the health check needs
    const n = kind === 'fill' ? Math.max(MIN_ASK_BYTES, Math.min(this.#o.batchBytes, this.pool.room)) : MIN_ASK_BYTES
    const now = this.#now()
    const failed: Record<string, string> = {}
    const due = this.#sources.filter(({ tracker }) => tracker.due(now))
    for (const { tracker } of this.#sources) {
      if (!tracker.due(now)) failed[tracker.id] = `${tracker.lastError ?? 'failed'} (retry in ${Math.ceil((tracker.retryAt() - now) / 1000)} s)`
    }
    const settled = await Promise.allSettled(due.map(({ source }) => this.#ask(source, n)))
    const answers: SourceResult[] = []
    if (this.#stop.signal.aborted) {
      // cut short by stop(): what the sources did not get to say is no verdict on them
      for (const r of settled) if (r.status === 'fulfilled') r.value.bytes.fill(0)
      return { kind, answered: [], failed: {}, quorum: false, added: 0 }
    }
    settled.forEach((r, i) => {
      const { source, tracker } = due[i] as { source: UpstreamSource; tracker: SourceTracker }
      tracker.device = source.device
      const at = this.#now()
      if (r.status === 'fulfilled') {
        if (tracker.ok !== true && tracker.ok !== null) this.#o.logger.info({ source: source.id }, 'entropy source answers again')
        tracker.succeeded(at, r.value.round)
        if (r.value.evidence !== undefined) this.#evidence.set(source.id, r.value.evidence)
        answers.push(r.value)
      } else {
        const reason = (r.reason as Error).message
        if (tracker.ok !== false || tracker.lastError !== reason) this.#o.logger.warn({ source: source.id, reason }, 'entropy source failed')
        tracker.failed(at, reason)
        failed[source.id] = reason
      }
    })

    const answered = answers.map((a) => a.source).sort()
    const quorum = answered.length >= this.minQuorum
    let added = 0
    if (quorum) {
      if (kind === 'fill') {
        const rounds: Record<string, number> = {}
        for (const a of answers) if (a.round !== undefined) rounds[a.source] = a.round
        const mixed = xorMix(answers.map((a) => a.bytes))
        added = this.pool.add(mixed.subarray(0, Math.min(this.#o.batchBytes, this.pool.room)), answered, rounds)
        mixed.fill(0)
        const source = this.compositionId(answered)
        this.#fills++
        // SPEC 4.6 last_fill.round: the beacon round, else (no beacon answered) the fill's sequence number
        const firstRound = answered.map((id) => rounds[id]).find((r) => r !== undefined) ?? this.#fills
        this.#lastFill = { source, contributors: answered, round: firstRound, rounds, filled_at: new Date(this.#now()).toISOString() }
        this.#o.logger.debug({ source, added, available: this.pool.available }, 'entropy pool refilled')
      }
      this.#setStatus('ok', null)
      this.#noteServing(answered, Object.keys(failed).sort(), answers.filter((a) => a.round !== undefined).length)
    } else {
      const detail = Object.entries(failed).map(([id, why]) => `${id}: ${why}`).join('; ')
      this.#setStatus('below_quorum', `${answered.length} of ${this.#sources.length} sources answered, min_quorum is ${this.minQuorum} (${detail})`)
    }
    for (const a of answers) a.bytes.fill(0)
    return { kind, answered, failed, quorum, added }
  }

  async #ask (source: UpstreamSource, n: number): Promise<SourceResult> {
    // a ref'd timer (AbortSignal.timeout's is not): a round in flight keeps the process alive
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(), this.#o.timeoutMs)
    const signal = AbortSignal.any([deadline.signal, this.#stop.signal])
    let result: SourceResult
    try {
      result = await withDeadline(source.generate(n, signal), signal, () => this.#stop.signal.aborted ? 'the aggregator stopped' : `no answer within ${this.#o.timeoutMs} ms`)
    } finally {
      clearTimeout(timer)
    }
    if (result.source !== source.id) throw new Error(`answered as '${result.source}'`)
    if (result.bytes.length !== n) throw new Error(`returned ${result.bytes.length} bytes, asked ${n}`)
    const violation = healthViolation(healthSnapshot(result.bytes), this.#o.healthBounds)
    if (violation !== null) throw new Error(`output fails the health check: ${violation}`)
    return result
  }

  /**
   * Logs what is being served when that changes: the sources that answered (never the
   * configured list, which may name a source that just failed) and what backs the bytes.
   */
  #noteServing (answered: string[], failed: string[], beaconRounds: number): void {
    const serving = this.compositionId(answered)
    if (serving === this.#serving) return
    const first = this.#serving === null
    this.#serving = serving
    const evidence = servedEvidence(beaconRounds)
    const fields = { serving, failed, evidence, minQuorum: this.minQuorum }
    if (first) this.#o.logger.info(fields, `entropy quorum met: serving ${serving} (${evidence})`)
    else this.#o.logger.info(fields, `entropy now serving ${serving} (${evidence})`)
  }

  #setStatus (status: AggregatorStatus, reason: string | null): void {
    if (status === this.#status && reason === this.#reason) return
    const changed = status !== this.#status
    this.#status = status
    this.#reason = reason
    if (changed) {
      if (status === 'below_quorum') {
        this.#serving = null
        this.#o.logger.warn({ reason }, 'entropy below quorum: not serving')
      }
    }
    for (const l of this.#listeners) {
      // a listener's fault (e.g. a hook subscriber) must not stop the refill task
      try { l(status, reason) } catch (err) { this.#o.logger.error({ err }, 'entropy status listener failed') }
    }
  }

  #nextRound (maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, maxMs)
      function done (): void { clearTimeout(timer); resolve() }
      this.#roundWaiters.push(done)
    })
  }

  async #run (): Promise<void> {
    const signal = this.#stop.signal
    while (!signal.aborted) {
      const fill = this.#fillNeeded()
      const probeDue = this.#now() - this.#lastRoundAt >= this.#o.probeIntervalMs
      if (this.#status !== 'ok' || fill || probeDue) {
        try {
          await this.runRound(fill || this.#status !== 'ok' ? 'fill' : 'probe')
        } catch (err) {
          this.#o.logger.error({ err }, 'entropy round failed')
        }
      }
      if (signal.aborted) break
      await this.#sleep(this.#nextDelay())
    }
  }

  /** ok: sleep until a probe is due (a take below the threshold wakes us); else until a failed source may be retried. */
  #nextDelay (): number {
    const now = this.#now()
    if (this.#status === 'ok') {
      if (this.#fillNeeded()) return 0
      return Math.max(0, this.#o.probeIntervalMs - (now - this.#lastRoundAt))
    }
    const retries = this.#sources.filter(({ tracker }) => tracker.ok === false).map(({ tracker }) => tracker.retryAt() - now)
    return Math.max(MIN_RETRY_SLEEP_MS, Math.min(...retries, this.#o.backoff.maxMs))
  }

  #sleep (ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined
      const done = (): void => {
        clearTimeout(timer)
        this.#wake = null
        resolve()
      }
      timer = setTimeout(done, ms)
      this.#wake = done
    })
  }
}

/** Rejects when the signal aborts, even if the source ignores its signal. */
function withDeadline<T> (p: Promise<T>, signal: AbortSignal, message: () => string): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error(message()))
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error(message()))
    signal.addEventListener('abort', onAbort, { once: true })
    p.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v) },
      (e: unknown) => { signal.removeEventListener('abort', onAbort); reject(e instanceof Error ? e : new Error(String(e))) }
    )
  })
}
