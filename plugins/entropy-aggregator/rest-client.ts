// A client of the entropy-source REST contract (SPEC 4.6): GET /api/health,
// GET /api/random/bytes?n=. Used by the aggregator for a self-hosted upstream served by another
// process, and by the node when --entropy-url points at an external source. Every call is
// bounded in time: an unreachable source costs at most `timeoutMs`, never a hung request.
import { DEFAULT_SOURCE_ID } from '../../config/entropy-sources.ts'
import type { BeaconEvidence } from '../../core/chain/types.ts'

/** GET /api/health (SPEC 4.6). `reason` is ours: why status is not "ok" (null when it is). */
export interface EntropyHealthResponse {
  status: string
  uptime_seconds: number
  pool: { available_bytes: number; capacity: number; fill_percent: number }
  last_fill: { source: string | null; round: number | null; filled_at: string | null }
  source: string
  device: string
  reason?: string | null
}

/** Headers naming the sources that produced the bytes of one /api/random response. */
export const SOURCE_HEADER = 'x-entropy-source'
export const DEVICE_HEADER = 'x-entropy-device'

export interface RestDraw {
  bytes: Uint8Array
  /** the x-entropy-source header, when the server sends one */
  source: string | null
  device: string | null
}

/** GET /api/random/attested?n= (ours, docs/entropy.md): bytes with the beacon rounds that back them. */
export interface AttestedDraw {
  bytes: Uint8Array
  source: string
  device: string
  beacons: BeaconEvidence[]
}

/** more beacon entries than any registered composition has is not an honest answer */
const MAX_EVIDENCE = 8
const HEX_RE = /^(?:[0-9a-f]{2})*$/

/** Checks an attested body: exactly n bytes, a source, and well-formed evidence entries. */
export function parseAttested (body: unknown, n: number): AttestedDraw {
  if (!isObject(body) || typeof body.hex !== 'string' || typeof body.source !== 'string' || body.source.length === 0) throw new Error('attested response needs hex and source')
  if (body.hex.length !== n * 2 || !HEX_RE.test(body.hex)) throw new Error(`attested response must carry exactly ${n} bytes of lowercase hex`)
  if (!Array.isArray(body.beacons) || body.beacons.length > MAX_EVIDENCE) throw new Error(`attested response needs a beacons list of at most ${MAX_EVIDENCE}`)
  const beacons = body.beacons.map((b: unknown, i): BeaconEvidence => {
    if (!isObject(b) || typeof b.source !== 'string' || !Number.isSafeInteger(b.round) || typeof b.signature !== 'string' ||
        typeof b.randomness !== 'string' || (b.previous_signature !== undefined && typeof b.previous_signature !== 'string')) {
      throw new Error(`attested response beacons[${i}] is not beacon evidence`)
    }
    const e: BeaconEvidence = { source: b.source, round: b.round as number, signature: b.signature, randomness: b.randomness }
    if (typeof b.previous_signature === 'string') e.previous_signature = b.previous_signature
    return e
  })
  return { bytes: Uint8Array.from(Buffer.from(body.hex, 'hex')), source: body.source, device: typeof body.device === 'string' ? body.device : '', beacons }
}

export class EntropyRestError extends Error {
  /** HTTP status when the source answered, null when it could not be reached */
  override name = 'EntropyRestError'
  readonly status: number | null
  constructor (message: string, status: number | null) {
    super(message)
    this.status = status
  }
}

export interface EntropyRestClientOptions {
  /** base URL of the source, e.g. http://127.0.0.1:8420 (a path prefix is kept) */
  url: string
  /** per request; default 2000 ms */
  timeoutMs?: number
}

export const DEFAULT_REST_TIMEOUT_MS = 2000

function isObject (v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/** Checks a health body against the contract; a missing source id is SPEC 2.8's default. */
export function parseHealth (body: unknown): EntropyHealthResponse {
  if (!isObject(body) || typeof body.status !== 'string') throw new Error('health response has no status')
  const pool = body.pool
  if (!isObject(pool) || !num(pool.available_bytes) || !num(pool.capacity) || !num(pool.fill_percent)) throw new Error('health response has no valid pool')
  const lf = isObject(body.last_fill) ? body.last_fill : {}
  return {
    status: body.status,
    uptime_seconds: num(body.uptime_seconds) ? body.uptime_seconds : 0,
    pool: { available_bytes: pool.available_bytes, capacity: pool.capacity, fill_percent: pool.fill_percent },
    last_fill: {
      source: typeof lf.source === 'string' ? lf.source : null,
      round: num(lf.round) ? lf.round : null,
      filled_at: typeof lf.filled_at === 'string' ? lf.filled_at : null
    },
    source: typeof body.source === 'string' && body.source.length > 0 ? body.source : DEFAULT_SOURCE_ID,
    device: typeof body.device === 'string' ? body.device : '',
    reason: typeof body.reason === 'string' ? body.reason : null
  }
}

export class EntropyRestClient {
  readonly base: URL
  readonly host: string
  readonly port: number
  readonly timeoutMs: number

  constructor (opts: EntropyRestClientOptions) {
    let base: URL
    try {
      base = new URL(opts.url)
    } catch {
      throw new Error(`entropy url '${opts.url}' is not a URL`)
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`entropy url '${opts.url}' must be http:// or https://`)
    if (!base.pathname.endsWith('/')) base.pathname += '/'
    base.search = ''
    base.hash = ''
    this.base = base
    this.host = base.hostname
    this.port = base.port !== '' ? Number(base.port) : (base.protocol === 'https:' ? 443 : 80)
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_REST_TIMEOUT_MS
  }

  async health (signal?: AbortSignal): Promise<EntropyHealthResponse> {
    const res = await this.#get('api/health', signal)
    let body: unknown
    try {
      body = JSON.parse(new TextDecoder().decode(res.body))
    } catch {
      throw new EntropyRestError(`${this.base.origin} health is not JSON`, res.status)
    }
    try {
      return parseHealth(body)
    } catch (err) {
      throw new EntropyRestError(`${this.base.origin} ${(err as Error).message}`, res.status)
    }
  }

  /** Exactly n bytes, or an error: a short or long body is refused, never padded. */
  async bytes (n: number, signal?: AbortSignal): Promise<RestDraw> {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`)
    const res = await this.#get(`api/random/bytes?n=${n}`, signal)
    if (res.body.length !== n) throw new EntropyRestError(`${this.base.origin} returned ${res.body.length} bytes for n=${n}`, res.status)
    return { bytes: res.body, source: res.headers.get(SOURCE_HEADER), device: res.headers.get(DEVICE_HEADER) }
  }

  /** n bytes with their beacon evidence (GET /api/random/attested); a 404 means the source only speaks SPEC 4.6. */
  async attested (n: number, signal?: AbortSignal): Promise<AttestedDraw> {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`)
    const res = await this.#get(`api/random/attested?n=${n}`, signal)
    try {
      return parseAttested(JSON.parse(new TextDecoder().decode(res.body)), n)
    } catch (err) {
      throw new EntropyRestError(`${this.base.origin} ${(err as Error).message}`, res.status)
    }
  }

  /** One GET, body included, within the timeout; a non-2xx answer throws with the server's error text. */
  async #get (path: string, signal?: AbortSignal): Promise<{ status: number; headers: Headers; body: Uint8Array }> {
    const url = new URL(path, this.base)
    const timeout = AbortSignal.timeout(this.timeoutMs)
    let status: number
    let headers: Headers
    let body: Uint8Array
    try {
      const res = await fetch(url, { signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]) })
      status = res.status
      headers = res.headers
      body = new Uint8Array(await res.arrayBuffer())
    } catch (err) {
      if (timeout.aborted) throw new EntropyRestError(`${this.base.origin} did not answer within ${this.timeoutMs} ms`, null)
      if (signal?.aborted === true) throw new EntropyRestError(`request to ${this.base.origin} aborted`, null)
      const cause = (err as { cause?: { code?: string; message?: string } }).cause
      throw new EntropyRestError(`cannot reach ${this.base.origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}`, null)
    }
    if (status < 200 || status > 299) {
      let detail = `HTTP ${status}`
      try {
        const parsed: unknown = JSON.parse(new TextDecoder().decode(body))
        if (isObject(parsed) && typeof parsed.error === 'string') detail = parsed.error
      } catch { /* not JSON: keep the status */ }
      throw new EntropyRestError(`${this.base.origin} answered ${status}: ${detail}`, status)
    }
    return { status, headers, body }
  }
}
