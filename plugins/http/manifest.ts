// The public server ({base_url}, default 127.0.0.1:8081). Other plugins add their routes to
// the `publicHttp` service while they register; it starts listening once all have.
// Every state-changing request on it is JSON from this server's own origin (issue 12 item 10),
// and @fastify/rate-limit is registered here for the plugins' per-client limits (item 8).
import { definePlugin } from '../../core/kernel/plugin.ts'
import { createHttpServer } from '../../core/http.ts'
import { ensureRateLimit, installCrossSiteGuard } from '../../core/http-guards.ts'
import { publishOpenApi } from '../../core/openapi.ts'
import { nodeVersion } from '../../core/kernel/version.ts'

interface HttpConfig {
  host: string
  port: number
  /** behind a reverse proxy: take the client address from X-Forwarded-For (and the scheme
   *  from X-Forwarded-Proto) — true for any peer, or the proxies' addresses / CIDRs */
  trustProxy: boolean | string[]
  /** origins besides this server's own that may send state-changing requests */
  allowedOrigins: string[]
}

export default definePlugin<HttpConfig>({
  name: 'http',
  description: 'public HTTP server: explorer, messenger, admin, playground, stream and web pages',
  provides: ['publicHttp'],
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
      allowedOrigins: { type: 'array', items: { type: 'string', pattern: '^https?://[^/]+$' }, default: [] }
    },
    additionalProperties: false
  },
  async register (ctx) {
    const app = createHttpServer({ logger: ctx.logger, name: 'public', trustProxy: ctx.config.trustProxy })
    await publishOpenApi(app, { title: 'ledger node — public API', description: 'explorer, messenger, admin, playground, stream', version: nodeVersion(ctx.params) })
    installCrossSiteGuard(app, { allowedOrigins: ctx.config.allowedOrigins })
    await ensureRateLimit(app)
    ctx.provide('publicHttp', app)
    ctx.onStart(async () => {
      const address = await app.listen({ host: ctx.config.host, port: ctx.config.port })
      ctx.logger.info({ address }, 'public server listening')
    })
    ctx.onClose(async () => { await app.close() })
  }
})
