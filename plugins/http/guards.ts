// Guards the public and dashboard servers share (issue 12 items 8 and 10): per-client rate
// limits on top of @fastify/rate-limit, the cross-site rules for state-changing requests and
// the dashboard's Host check against DNS rebinding. Every refusal is an HttpError, so it
// answers in the one error shape {"error": "..."}.
import { isIP } from 'node:net'
import fastifyRateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'
import type { ClientRateLimit as ClientRateLimitContract, CrossSiteOptions, HostCheckOptions, RateRule } from '../../core/kernel/http-service.ts'

// ---- rate limits

/** Registers @fastify/rate-limit on the shared server unless another plugin already did.
 *  It limits nothing by itself (global: false): each ClientRateLimit opts in. */
export async function ensureRateLimit (app: FastifyInstance): Promise<void> {
  if (app.hasDecorator('createRateLimit')) return
  await app.register(fastifyRateLimit, { global: false })
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>

/** One counter per client address (request.ip: the socket's peer, or X-Forwarded-For when
 *  http.trustProxy is set; IPv6 counted per /64). `what` names the counted thing in the 429. */
export class ClientRateLimit implements ClientRateLimitContract {
  readonly #limiter: Limiter
  readonly #what: string

  constructor (app: FastifyInstance, rule: RateRule, what: string) {
    if (!app.hasDecorator('createRateLimit')) throw new Error('ClientRateLimit needs ensureRateLimit(app) first')
    this.#limiter = app.createRateLimit({ max: rule.max, timeWindow: rule.windowSeconds * 1000 })
    this.#what = what
  }

  #refuse (seconds: number): never {
    const wait = Math.max(1, seconds)
    throw new HttpError(429, `too many ${this.#what} from this address: retry in ${wait} seconds`, { headers: { 'retry-after': String(wait) } })
  }

  /** counts this request; 429 once the client is over the limit */
  async take (request: FastifyRequest): Promise<void> {
    const r = await this.#limiter(request)
    if (!r.isAllowed && r.isExceeded) this.#refuse(r.ttlInSeconds)
  }

  /** 429 when the client has used up the limit; counts nothing (pair with `count`) */
  async ensureUnder (request: FastifyRequest): Promise<void> {
    const r = await this.#limiter(request, { increment: false })
    if (!r.isAllowed && r.remaining === 0) this.#refuse(r.ttlInSeconds)
  }

  /** counts one event (a failure) without refusing this request */
  async count (request: FastifyRequest): Promise<void> {
    await this.#limiter(request)
  }

  /** an onRequest hook that takes one count per request */
  get hook (): (request: FastifyRequest) => Promise<void> {
    return async (request) => { await this.take(request) }
  }
}

// ---- cross-site requests

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
export const JSON_ONLY_TEXT = 'unsupported content type; send application/json'

function hasBody (request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  if (request.headers['transfer-encoding'] !== undefined) return true
  return length !== undefined && length !== '0'
}

function isJson (contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json'
}

/** host[:port] with the scheme's default port dropped, lower-cased */
function authority (hostname: string, port: string, scheme: string): string {
  const defaultPort = scheme === 'https:' ? '443' : scheme === 'http:' ? '80' : ''
  const host = hostname.toLowerCase()
  return port === '' || port === defaultPort ? host : `${host}:${port}`
}

/** Whether `origin` names the server this request reached (its Host, through a trusted proxy
 *  the forwarded one), or is listed in `allowed`. */
export function sameOrigin (origin: string, request: FastifyRequest, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin.toLowerCase())) return true
  let o: URL
  let h: URL
  try {
    o = new URL(origin)
    h = new URL(`${o.protocol}//${request.host}`)
  } catch {
    return false
  }
  return authority(o.hostname, o.port, o.protocol) === authority(h.hostname, h.port, o.protocol)
}

/** Refuses what a foreign page can make a browser send with the user's cookie or cached
 *  Basic credentials: a state-changing request whose body is not JSON (415: a cross-site
 *  form can only send form or text bodies, and JSON needs a CORS preflight this server never
 *  grants) or whose Origin is not this server (403). Clients without an Origin (curl, the
 *  node CLI) are not browsers and pass. */
export function installCrossSiteGuard (app: FastifyInstance, opts: CrossSiteOptions): void {
  const allowed = new Set(opts.allowedOrigins.map((o) => o.toLowerCase().replace(/\/+$/, '')))
  const refusal = (request: FastifyRequest): HttpError | undefined => {
    const contentType = request.headers['content-type']
    if ((contentType !== undefined || hasBody(request)) && !isJson(contentType)) return new HttpError(415, JSON_ONLY_TEXT)
    const origin = request.headers.origin
    if (origin !== undefined) {
      if (!sameOrigin(origin, request, allowed)) return new HttpError(403, `cross-site request refused: origin ${origin} is not this server`)
    } else if (request.headers['sec-fetch-site'] === 'cross-site') {
      return new HttpError(403, 'cross-site request refused')
    }
    return undefined
  }
  // a callback hook, not an async one: every GET passes through it, and a promise per request
  // is measurable on the explorer's cached answers (issue 15)
  app.addHook('onRequest', (request, _reply, done) => {
    done(SAFE_METHODS.has(request.method) ? undefined : refusal(request))
  })
}

/** Whether the request came over HTTPS: directly, or per X-Forwarded-Proto from a trusted proxy. */
export function cameOverHttps (request: FastifyRequest): boolean {
  return request.protocol === 'https'
}

// ---- Host check (DNS rebinding)

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.'])

function hostnameOf (hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase().replace(/^\[|\]$/g, '')
  } catch {
    return null
  }
}

/** A page on attacker.example whose name is re-pointed at 127.0.0.1 reaches the server with
 *  `Host: attacker.example`. Answer only to IP literals (no DNS involved), localhost, the bind
 *  address and the configured names. */
export function installHostCheck (app: FastifyInstance, opts: HostCheckOptions): void {
  const allowed = new Set([...opts.allowedHosts, opts.bindHost].map((h) => h.toLowerCase().replace(/^\[|\]$/g, '')))
  app.addHook('onRequest', async (request) => {
    const header = request.headers.host
    if (header === undefined || header === '') return
    const name = hostnameOf(header)
    if (name !== null && (isIP(name) !== 0 || LOOPBACK_NAMES.has(name) || allowed.has(name))) return
    throw new HttpError(403, `host ${JSON.stringify(header)} is not allowed: reach this server by its address or add the name to dashboard.allowedHosts`)
  })
}
