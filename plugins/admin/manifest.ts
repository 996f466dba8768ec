// Admin (SPEC 4.4, 5): the API under /api/admin and the UI at /admin, all behind HTTP Basic.
// State lives in the `accounts` service (core/accounts) that the messenger provides.
import type { FastifyInstance } from 'fastify'
import { definePlugin } from '../../core/plugin.ts'
import { resolveAdminCredentials } from './credentials.ts'
import { adminAuthError, checkBasic } from './basic-auth.ts'
import { registerAdminRoutes } from './routes.ts'
import { registerAdminPage } from './pages.ts'

export default definePlugin({
  name: 'admin',
  description: 'admin API and UI: approve, block, unblock, invites, API tokens (HTTP Basic)',
  provides: [],
  needs: ['accounts', 'chain', 'publicHttp'],
  optional: ['faucet'],
  async register (ctx) {
    const creds = resolveAdminCredentials(ctx.node.dataDir, process.env, ctx.logger)
    const accounts = ctx.resolve('accounts')
    const chain = ctx.resolve('chain')
    const app = ctx.resolve('publicHttp')
    // an encapsulated scope: the auth hook guards exactly the admin routes and pages
    await app.register(async (scope: FastifyInstance) => {
      scope.addHook('onRequest', async (request) => {
        if (!checkBasic(creds, request.headers.authorization)) throw adminAuthError()
      })
      registerAdminRoutes(scope, { accounts, chain, faucet: ctx.tryResolve('faucet') })
      await registerAdminPage(scope)
    })
    ctx.logger.info({ user: creds.user, source: creds.source }, 'admin interface at /admin')
  }
})
