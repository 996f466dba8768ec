// The contract of the `http` service (provided by plugins/http): what a plugin needs to serve
// HTTP the node's way without importing another plugin. A plugin declares `needs: ['http']`
// and calls `ctx.resolve('http')`: servers with the one error shape, OpenAPI, web pages with
// the node's security headers, per-client rate limits, the cross-site guard, the Host check
// and the session cookie. Types only, plus the two values a manifest needs before any service
// exists (its config schema for a rate rule, the shared assets' URL prefix).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ChainViewsHttp } from './chain-views-http.ts'
export type { ChainViewsHttp, ChainViewSchemas, SearchHit, ViewErrorTexts } from './chain-views-http.ts'
import type { Logger } from 'pino'
import type { JsonSchema } from './plugin.ts'

/** Route options a plugin may set as fastify's `config` on one route. */
export interface HttpRouteConfig {
  /** extra keys for every 400 the server answers on this route, including those given before
   *  the handler runs (a body that is not JSON, is empty or nests too deep, a schema failure):
   *  a route with its own rejection shape (POST /api/tx/submit, DESIGN 5) keeps it for those */
  badRequestExtra?: (message: string) => Record<string, unknown>
}

declare module 'fastify' {
  interface FastifyContextConfig {
    badRequestExtra?: HttpRouteConfig['badRequestExtra']
  }
}

export interface HttpServerOptions {
  logger: Logger
  name: string
  /** request logging is noisy for a node; off unless asked */
  logRequests?: boolean
  /** believe X-Forwarded-For / -Proto / -Host: true (any peer) or the proxies' addresses /
   *  CIDRs; off by default, so request.ip is the socket's peer */
  trustProxy?: boolean | string[]
  /** the server's slow-client and bad-input limits; unset fields take DEFAULT_HTTP_LIMITS */
  limits?: Partial<HttpLimits>
}

/** What one client may hold of a server (issue 31 item 4): time, sockets, body bytes, nesting. */
export interface HttpLimits {
  /** the request line and headers must arrive within this (Node's headersTimeout) */
  headersTimeoutMs: number
  /** the whole request, body included, must arrive within this (Node's requestTimeout): a body
   *  trickled a byte at a time is cut off here */
  requestTimeoutMs: number
  /** an idle keep-alive socket between requests is closed after this */
  keepAliveTimeoutMs: number
  /** a socket with no traffic either way is closed after this (event streams send a heartbeat
   *  more often) */
  idleTimeoutMs: number
  /** open sockets on this server; a socket over the cap is closed at once. Unset: a quarter
   *  of the process's descriptor limit (ulimit -n), between 64 and 10,240, so sockets never
   *  take the descriptors the databases and peers need */
  maxConnections?: number
  /** open sockets from one client address (IPv6: one /64); not applied behind a trusted proxy,
   *  where every socket comes from the proxy */
  maxConnectionsPerAddress: number
  /** a body over the size limit is read and dropped up to this many bytes, so the client
   *  reads its 413 instead of a reset; a larger body gets the 413 and the socket closed */
  drainBytes: number
  /** and for at most this long */
  drainMs: number
  /** arrays and objects nested deeper than this in a JSON body → 400 before it is parsed */
  maxJsonDepth: number
}

export const DEFAULT_HTTP_LIMITS: Readonly<Omit<HttpLimits, 'maxConnections'>> = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 120_000,
  maxConnectionsPerAddress: 64,
  drainBytes: 16 * 1024 * 1024,
  drainMs: 10_000,
  maxJsonDepth: 64
}

/** JSON schema of HttpLimits with its defaults (a server plugin's `limits` config section) */
export function httpLimitsSchema (): JsonSchema {
  const ms = (d: number): JsonSchema => ({ type: 'integer', minimum: 1, maximum: 86_400_000, default: d })
  const count = (d: number): JsonSchema => ({ type: 'integer', minimum: 1, maximum: 1_000_000, default: d })
  const l = DEFAULT_HTTP_LIMITS
  return {
    type: 'object',
    description: 'slow-client and bad-input limits of this server (docs/protocol.md, "Limits at a glance")',
    properties: {
      headersTimeoutMs: ms(l.headersTimeoutMs),
      requestTimeoutMs: ms(l.requestTimeoutMs),
      keepAliveTimeoutMs: ms(l.keepAliveTimeoutMs),
      idleTimeoutMs: ms(l.idleTimeoutMs),
      maxConnections: { type: 'integer', minimum: 1, maximum: 1_000_000, description: 'default: a quarter of the descriptor limit, 64..10,240' },
      maxConnectionsPerAddress: count(l.maxConnectionsPerAddress),
      drainBytes: { type: 'integer', minimum: 0, maximum: 1024 * 1024 * 1024, default: l.drainBytes },
      drainMs: ms(l.drainMs),
      maxJsonDepth: { type: 'integer', minimum: 1, maximum: 1000, default: l.maxJsonDepth }
    },
    additionalProperties: false,
    default: {}
  }
}

/** at most `max` events per `windowSeconds` per client address */
export interface RateRule { max: number; windowSeconds: number }

/** JSON schema of one RateRule with its defaults, for plugin config schemas */
export function rateRuleSchema (defaults: RateRule, description: string): JsonSchema {
  return {
    type: 'object',
    description,
    properties: {
      max: { type: 'integer', minimum: 1, default: defaults.max },
      windowSeconds: { type: 'integer', minimum: 1, maximum: 86_400, default: defaults.windowSeconds }
    },
    additionalProperties: false,
    default: {}
  }
}

/** One counter per client address (request.ip; IPv6 counted per /64); refusals are 429s. */
export interface ClientRateLimit {
  /** counts this request; 429 once the client is over the limit */
  take(request: FastifyRequest): Promise<void>
  /** 429 when the client has used up the limit; counts nothing (pair with `count`) */
  ensureUnder(request: FastifyRequest): Promise<void>
  /** counts one event (a failure) without refusing this request */
  count(request: FastifyRequest): Promise<void>
  /** an onRequest hook that takes one count per request */
  readonly hook: (request: FastifyRequest) => Promise<void>
}

export interface WebPageOptions {
  /** the plugin's folder holding index.html and its assets */
  webDir: string
  /** where assets are served, e.g. /explorer/assets/ */
  assetPrefix: string
  /** paths answering with index.html, e.g. ['/explorer', '/explorer/'] */
  paths: string[]
  /** runs before the page is sent (e.g. redeem a login link into a cookie) */
  beforeSend?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
}

/** scripts and styles several pages share, served once per server under this prefix */
export const COMMON_ASSET_PREFIX = '/common/'

export interface CrossSiteOptions {
  /** extra origins (scheme://host[:port]) allowed to send state-changing requests */
  allowedOrigins: readonly string[]
}

export interface HostCheckOptions {
  /** the address the server is bound to */
  bindHost: string
  /** names (no port) clients may reach the server by besides IP literals and localhost */
  allowedHosts: readonly string[]
}

/** The session cookie of the public server (SPEC 5): `session`, HttpOnly, SameSite=Lax, Path=/. */
export interface SessionCookies {
  /** registers cookie parsing on the server unless another plugin already did */
  ensureSupport(app: FastifyInstance): Promise<void>
  tokenOf(request: FastifyRequest): string | undefined
  /** `maxAgeSeconds`: the session's idle lifetime; `secure` when the request came over HTTPS */
  set(reply: FastifyReply, token: string, opts: { maxAgeSeconds: number; secure?: boolean }): void
  clear(reply: FastifyReply): void
}

export interface HttpService {
  /** the chain views' schemas, error texts, page querystring and search, shared by every surface serving them */
  readonly chainViews: ChainViewsHttp
  /** a fastify server answering every failure in the node's one error shape; not listening */
  createServer(opts: HttpServerOptions): FastifyInstance
  /** OpenAPI + swagger-ui at /docs; await it before adding routes so every route is captured */
  publishOpenApi(app: FastifyInstance, info: { title: string; description: string; version: string }): Promise<void>
  /** one HTML page with the node's security headers, its assets, and the shared assets */
  registerWebPage(app: FastifyInstance, opts: WebPageOptions): Promise<void>
  /** the headers every page is sent with */
  readonly pageHeaders: Readonly<Record<string, string>>
  /** registers the rate-limit support on the server unless another plugin already did */
  ensureRateLimit(app: FastifyInstance): Promise<void>
  /** a per-client limit on `app` (after ensureRateLimit); `what` names the counted thing in the 429 */
  clientRateLimit(app: FastifyInstance, rule: RateRule, what: string): ClientRateLimit
  /** refuses state-changing requests a foreign page can make a browser send (415 / 403) */
  installCrossSiteGuard(app: FastifyInstance, opts: CrossSiteOptions): void
  /** answers only to IP literals, localhost, the bind address and the listed names (DNS rebinding) */
  installHostCheck(app: FastifyInstance, opts: HostCheckOptions): void
  /** whether the request came over HTTPS, directly or per X-Forwarded-Proto from a trusted proxy */
  cameOverHttps(request: FastifyRequest): boolean
  /** the client a per-address limit counts: request.ip, an IPv6 address per /64 */
  clientKey(request: FastifyRequest): string
  readonly session: SessionCookies
}

/** `http://host:port` of a listening server (0.0.0.0 / :: shown as 127.0.0.1), for the startup
 *  summary; undefined before it listens */
export function serverUrl (app: FastifyInstance | undefined): string | undefined {
  const a = app?.server.address()
  if (a === null || a === undefined || typeof a === 'string') return undefined
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${a.port}`
}
