// HTTP for every plugin. The `http` service (core/kernel/http-service.ts) builds servers with
// the node's one error shape and gives them OpenAPI, web pages, guards and the session
// cookie, so the dashboard and the entropy aggregator build theirs without importing this
// plugin. The public server ({base_url}, default 127.0.0.1:8081) is the `publicHttp`
// service: built when the first plugin resolves it (explorer, messenger, admin, stream,
// playground add their routes while they register) and listening once all have; a node
// whose plugins serve nothing publicly opens no public port. Every state-changing request on
// it is JSON from this server's own origin (issue 12 item 10), and @fastify/rate-limit is
// registered on it for the plugins' per-client limits (item 8).
import type { FastifyInstance } from 'fastify'
import { definePlugin } from '../../core/kernel/plugin.ts'
import { serverUrl } from '../../core/kernel/http-service.ts'
import { flags } from './commands.ts'
import { nodeVersion } from '../../core/kernel/version.ts'
import { createHttpService } from './service.ts'
import { httpLimitsSchema } from '../../core/kernel/http-service.ts'
import type { HttpLimits } from '../../core/kernel/http-service.ts'

interface HttpConfig {
  host: string
  port: number
  /** behind a reverse proxy: take the client address from X-Forwarded-For (and the scheme
   *  from X-Forwarded-Proto) — true for any peer, or the proxies' addresses / CIDRs */
  trustProxy: boolean | string[]
  /** origins besides this server's own that may send state-changing requests */
  allowedOrigins: string[]
  /** slow-client and bad-input limits (timeouts, connection caps, 413 drain, JSON depth) */
  limits: HttpLimits
}

export default definePlugin<HttpConfig>({
  name: 'http',
  description: 'public HTTP server: explorer, messenger, admin, playground, stream and web pages',
  apiVersion: '1.0',
  provides: ['http', 'publicHttp'],
  needs: [],
  configSchema: {
    properties: {
      host: { type: 'string', minLength: 1, default: '127.0.0.1' },
      port: { type: 'integer', minimum: 0, maximum: 65535, default: 8081 },
      trustProxy: {
        anyOf: [
          { type: 'boolean' },
          { type: 'array', items: { type: 'string', minLength: 1 } }
        ],
        default: false
      },
      allowedOrigins: { type: 'array', items: { type: 'string', pattern: '^https?://[^/]+$' }, default: [] },
      limits: httpLimitsSchema()
    },
    additionalProperties: false
  },
  flags,
  summary: (view) => {
    const pub = serverUrl(view.service('publicHttp'))
    return pub === undefined ? [] : [{ key: 'docs', label: 'API docs', value: `${pub}/docs`, order: 140 }]
  },
  async register (ctx) {
    const http = createHttpService()
    ctx.provide('http', http)
    // OpenAPI and the rate-limit support register asynchronously and must precede every
    // route, so the server is prepared here; it is handed out (and later listens) only once a
    // plugin resolves it
    const app = http.createServer({ logger: ctx.logger, name: 'public', trustProxy: ctx.config.trustProxy, limits: ctx.config.limits })
    await http.publishOpenApi(app, { title: 'ledger node — public API', description: 'explorer, messenger, admin, playground, stream', version: nodeVersion(ctx.params) })
    http.installCrossSiteGuard(app, { allowedOrigins: ctx.config.allowedOrigins })
    await http.ensureRateLimit(app)
    let served: FastifyInstance | undefined
    ctx.provideFactory('publicHttp', () => { served = app; return app }, { dispose: async (server) => { await server.close() } })
    ctx.onStart(async () => {
      if (served === undefined) {
        ctx.logger.debug('no plugin serves on the public server; not listening')
        return
      }
      const address = await served.listen({ host: ctx.config.host, port: ctx.config.port })
      ctx.logger.info({ address }, 'public server listening')
    })
    // a server prepared but never handed out holds no socket; close it with the node all the same
    ctx.onClose(async () => { if (served === undefined) await app.close() })
  }
})
