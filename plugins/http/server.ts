// Builds a fastify server with the node's one error shape: {"error": "...", "phase"?}.
// Every surface (public, dashboard, entropy) is built here so that invalid JSON, schema
// failures, oversized bodies and unknown routes answer the same way everywhere. No route
// lives here: plugins add them. The error class and body shape are the kernel's
// (core/kernel/errors.ts), so a plugin throws HttpError without importing this plugin.
import { readFileSync } from 'node:fs'
import Fastify, { LogController } from 'fastify'
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { errorBody, HttpError } from '../../core/kernel/errors.ts'
import { storageFault } from '../../core/kernel/kv.ts'
import type { ErrorBody } from '../../core/kernel/errors.ts'
import { DEFAULT_HTTP_LIMITS } from '../../core/kernel/http-service.ts'
import type { HttpLimits, HttpServerOptions } from '../../core/kernel/http-service.ts'
import { installConnectionCaps } from './connection-caps.ts'
import { drainRequest } from './body-drain.ts'
import { installJsonDepthLimit } from './json-depth.ts'
import type { Logger } from 'pino'

export const BODY_LIMIT = 1024 * 1024

function validationMessage (err: FastifyError): string {
  const first = err.validation?.[0]
  if (first === undefined) return err.message
  const where = err.validationContext ?? 'body'
  const path = first.instancePath.replace(/^\//, '').replace(/\//g, '.')
  const params = first.params as Record<string, unknown>
  if (first.keyword === 'required') return `${where}.${String(params.missingProperty)} is required`
  if (first.keyword === 'additionalProperties') return `${where}.${String(params.additionalProperty)} is not allowed`
  const field = path.length > 0 ? `${where}.${path}` : where
  return `${field} ${first.message ?? 'is invalid'}`
}

function send (reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body)
}

/** how often Node looks for requests past their headers or request timeout: often enough
 *  that a short timeout (a test's) is kept to within a quarter of itself */
function checkingIntervalMs (l: HttpLimits): number {
  return Math.min(5000, Math.max(50, Math.floor(Math.min(l.headersTimeoutMs, l.requestTimeoutMs) / 4)))
}

/** Fastify logs "Server listening at ..." on every listen; each plugin logs its own line with
 *  what the operator needs (which server, auth, sources), so fastify's is dropped: one line per
 *  server. */
function withoutListenLine (logger: Logger): Logger {
  return new Proxy(logger, {
    get (target, prop) {
      if (prop !== 'info') return Reflect.get(target, prop, target)
      return (...args: Parameters<Logger['info']>) => {
        if (typeof args[0] === 'string' && args[0].startsWith('Server listening at ')) return
        target.info(...args)
      }
    }
  })
}

/** a quarter of the process's open-file limit (Linux /proc; 4,096 where it cannot be read),
 *  between 64 and 10,240: the public server, the dashboard and the entropy server each get
 *  this much, and the databases and peers keep the rest */
export function descriptorShare (limitsFile = '/proc/self/limits'): number {
  let soft = 4096
  try {
    const line = readFileSync(limitsFile, 'utf8').split('\n').find((l) => l.startsWith('Max open files'))
    const value = line?.split(/\s{2,}/)[1]
    if (value !== undefined && /^\d+$/.test(value)) soft = Number(value)
    else if (value === 'unlimited') soft = Number.MAX_SAFE_INTEGER
  } catch { /* not Linux */ }
  return Math.min(10_240, Math.max(64, Math.floor(soft / 4)))
}

export function createHttpServer (opts: HttpServerOptions): FastifyInstance {
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...opts.limits }
  const app = Fastify({
    loggerInstance: withoutListenLine(opts.logger.child({ server: opts.name })),
    logController: new LogController({ disableRequestLogging: opts.logRequests !== true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: opts.trustProxy ?? false,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false } },
    return503OnClosing: true,
    forceCloseConnections: true,
    // slow clients (issue 31 item 4): Node leaves requestTimeout off when fastify passes 0
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    http: {
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits)
    },
    // a 0x-prefixed SHA3-512 block hash is 130 characters; the router's default limit is 100
    routerOptions: { maxParamLength: 256 },
    // URLs the router refuses before any route runs get the same error shape as the rest
    frameworkErrors (err, _request, reply) {
      const code = (err as FastifyError).code
      if (code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, 414, errorBody('path parameter too long'))
      if (code === 'FST_ERR_BAD_URL') return send(reply, 400, errorBody('malformed URL: bad percent-encoding'))
      return send(reply, 400, errorBody((err as Error).message))
    },
    // a request the HTTP parser cannot read never reaches fastify: answer on the raw socket
    clientErrorHandler (err, socket) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ECONNRESET' || !socket.writable) return
      // a client too slow to send its headers or body (issue 31 item 4) is told so, then cut off
      const timedOut = code === 'ERR_HTTP_REQUEST_TIMEOUT'
      const body = JSON.stringify(errorBody(timedOut ? `request not received within the server's time limit (headers ${Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs)} ms, whole request ${limits.requestTimeoutMs} ms)` : 'malformed HTTP request'))
      socket.end(`HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
    }
  })

  installConnectionCaps(app.server, {
    maxConnections: limits.maxConnections ?? descriptorShare(),
    // behind a trusted proxy every socket is the proxy's
    maxConnectionsPerAddress: opts.trustProxy === undefined || opts.trustProxy === false ? limits.maxConnectionsPerAddress : undefined
  }, opts.logger.child({ server: opts.name }))
  installJsonDepthLimit(app as unknown as FastifyInstance, limits.maxJsonDepth)

  app.setErrorHandler(async (err: FastifyError | HttpError, request, reply) => {
    // a route's own keys for its 400s (HttpRouteConfig), also where no handler of it ran
    const badRequest = (message: string): FastifyReply =>
      send(reply, 400, errorBody(message, undefined, request.routeOptions.config.badRequestExtra?.(message)))
    if (err instanceof HttpError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v)
      if (err.statusCode === 400 && err.phase === undefined && Object.keys(err.extra).length === 0) return badRequest(err.message)
      return send(reply, err.statusCode, errorBody(err.message, err.phase, err.extra))
    }
    if (err.validation !== undefined) return badRequest(validationMessage(err))
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500
    if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // read the rest first, so a client still writing gets its 413, not a reset
      await drainRequest(request.raw, { maxBytes: limits.drainBytes, maxMs: limits.drainMs })
      reply.header('connection', 'close')
      return send(reply, 413, errorBody(`request body larger than ${BODY_LIMIT} bytes`))
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) return badRequest('request body is not valid JSON')
    if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return badRequest('request body is empty')
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 415, errorBody('unsupported content type; send application/json'))
    if (status >= 400 && status < 500) return send(reply, status, errorBody(err.message))
    // a full disk or a read-only data dir refused a write: the operator's fault, not the
    // client's; nothing was committed and the same request may succeed later (issue 31 item 5)
    const fault = storageFault(err)
    if (fault !== undefined) {
      request.log.error({ err, fault }, 'a write to the data dir was refused')
      reply.header('retry-after', '30')
      return send(reply, 503, errorBody(`the node cannot write to its data dir (${fault}); nothing was changed, try again later`))
    }
    request.log.error({ err }, 'internal error')
    return send(reply, 500, errorBody('internal error'))
  })

  app.setNotFoundHandler((request, reply) => send(reply, 404, errorBody(`no route ${request.method} ${request.url.split('?')[0] ?? ''}`)))
  // fastify types the instance by its pino logger; plugins only need the base logger surface
  return app as unknown as FastifyInstance
}
