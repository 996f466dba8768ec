// The chat landing page at / and its assets under /chat/. A login link
// /?name=<name>&token=<login_token> is redeemed here, server side, so the session cookie
// arrives with the page; the page script then drops the token from the URL.
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { AccountStore } from './accounts/store.ts'
import { SESSION_IDLE_SECONDS } from './accounts/store.ts'
import type { ClientRateLimit, HttpService } from '../../core/kernel/http-service.ts'

export const CHAT_ASSET_PREFIX = '/chat/'

export async function registerChatPage (http: HttpService, app: FastifyInstance, accounts: AccountStore, secureCookie: boolean, loginLimit: ClientRateLimit): Promise<void> {
  await http.registerWebPage(app, {
    webDir: path.join(import.meta.dirname, 'web'),
    assetPrefix: CHAT_ASSET_PREFIX,
    paths: ['/'],
    async beforeSend (request, reply) {
      const q = request.query as Record<string, unknown>
      if (typeof q.name !== 'string' || typeof q.token !== 'string') return
      try {
        // a login link is a login attempt: it counts against the same per-address limit
        await loginLimit.take(request)
        const { sessionToken } = await accounts.login(q.name, q.token)
        http.session.set(reply, sessionToken, { maxAgeSeconds: SESSION_IDLE_SECONDS, secure: secureCookie || http.cameOverHttps(request) })
      } catch {
        // the page still loads; its script retries through POST /api/login and shows the
        // exact error (a 429 there too when the limit is what failed)
      }
    }
  })
}
