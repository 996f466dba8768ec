// Admin (SPEC 4.4, 5): the API under /api/admin and the UI at /admin, all behind HTTP Basic.
// State lives in the `accounts` service (plugins/messenger/accounts, typed by core/kernel/account-service.ts) that the messenger provides.
import type { FastifyInstance } from 'fastify'
import { definePlugin } from '../../core/kernel/plugin.ts'
import path from 'node:path'
import { serverUrl } from '../../core/kernel/http-service.ts'
import { CREDENTIALS_FILE } from './credentials.ts'
import { resolveAdminCredentials } from './credentials.ts'
import { adminAuthError, checkBasic } from './basic-auth.ts'
import { registerAdminRoutes } from './routes.ts'
import { registerAdminPage } from './pages.ts'
import { rateRuleSchema } from '../../core/kernel/http-service.ts'
import type { RateRule } from '../../core/kernel/http-service.ts'

interface AdminConfig {
  /** per client address (issue 12 item 8): wrong Basic credentials */
  rateLimits: { failedLogins: RateRule }
}

export default definePlugin<AdminConfig>({
  name: 'admin',
  description: 'admin API and UI: approve, block, unblock, invites, API tokens (HTTP Basic)',
  apiVersion: '1.0',
  provides: [],
  needs: ['accounts', 'chain', 'http', 'publicHttp'],
  optional: ['faucet'],
  configSchema: {
    properties: {
      rateLimits: {
        type: 'object',
        properties: {
          failedLogins: rateRuleSchema({ max: 20, windowSeconds: 600 }, 'requests with wrong admin credentials')
        },
        additionalProperties: false,
        default: {}
      }
    },
    additionalProperties: false
  },
  summary: (view) => {
    const pub = serverUrl(view.service('publicHttp'))
    const fromEnv = (view.env.LEDGER_ADMIN_PASSWORD ?? '').length > 0
    return [
      ...(pub === undefined ? [] : [{ key: 'admin', label: 'admin', value: `${pub}/admin`, order: 110 }]),
      { key: 'adminCredentials', label: 'admin login', value: fromEnv ? 'from LEDGER_ADMIN_USER / LEDGER_ADMIN_PASSWORD' : path.join(view.dataDir, CREDENTIALS_FILE), order: 900, top: true }
    ]
  },
  async register (ctx) {
    const creds = resolveAdminCredentials(ctx.node.dataDir, process.env, ctx.logger)
    const accounts = ctx.resolve('accounts')
    const chain = ctx.resolve('chain')
    const http = ctx.resolve('http')
    const app = ctx.resolve('publicHttp')
    await http.ensureRateLimit(app)
    const failedLogins = http.clientRateLimit(app, ctx.config.rateLimits.failedLogins, 'failed admin logins')
    // an encapsulated scope: the auth hook guards exactly the admin routes and pages
    await app.register(async (scope: FastifyInstance) => {
      scope.addHook('onRequest', async (request) => {
        const offered = request.headers.authorization !== undefined
        // a client that guessed wrong too often is refused even with the right password,
        // or the limit would only slow the guessing down; a request without credentials
        // guesses nothing (the browser's first visit) and is not counted
        if (offered) await failedLogins.ensureUnder(request)
        if (checkBasic(creds, request.headers.authorization)) return
        if (offered) await failedLogins.count(request)
        throw adminAuthError()
      })
      registerAdminRoutes(scope, { accounts, chain, faucet: ctx.tryResolve('faucet') })
      await registerAdminPage(http, scope)
    })
    ctx.logger.info({ user: creds.user, source: creds.source }, 'admin interface at /admin')
  }
})
