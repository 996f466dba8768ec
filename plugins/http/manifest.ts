// The public server ({base_url}, default 127.0.0.1:8081). Other plugins add their routes to
// the `publicHttp` service while they register; it starts listening once all have.
import { definePlugin } from '../../core/plugin.ts'
import { createHttpServer } from '../../core/http.ts'
import { publishOpenApi } from '../../core/openapi.ts'
import { nodeVersion } from '../../core/version.ts'

interface HttpConfig { host: string; port: number }

export default definePlugin<HttpConfig>({
  name: 'http',
  description: 'public HTTP server: explorer, messenger, admin, playground, stream and web pages',
  provides: ['publicHttp'],
  needs: [],
  configSchema: {
    properties: {
      host: { type: 'string', minLength: 1, default: '127.0.0.1' },
      port: { type: 'integer', minimum: 0, maximum: 65535, default: 8081 }
    },
    additionalProperties: false
  },
  async register (ctx) {
    const app = createHttpServer({ logger: ctx.logger, name: 'public' })
    await publishOpenApi(app, { title: 'ledger node — public API', description: 'explorer, messenger, admin, playground, stream', version: nodeVersion(ctx.params) })
    ctx.provide('publicHttp', app)
    ctx.onStart(async () => {
      const address = await app.listen({ host: ctx.config.host, port: ctx.config.port })
      ctx.logger.info({ address }, 'public server listening')
    })
    ctx.onClose(async () => { await app.close() })
  }
})
