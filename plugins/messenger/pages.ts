// The chat landing page at / and its assets under /chat/. A login link
// /?name=<name>&token=<login_token> is redeemed here, server side, so the session cookie
// arrives with the page; the page script then drops the token from the URL.
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { AccountStore } from '../../core/accounts/store.ts'
import { setSessionCookie } from '../../core/accounts/http-session.ts'
import { registerWebPage } from '../../core/web-page.ts'

export const CHAT_ASSET_PREFIX = '/chat/'

export async function registerChatPage (app: FastifyInstance, accounts: AccountStore, secureCookie: boolean): Promise<void> {
  await registerWebPage(app, {
    webDir: path.join(import.meta.dirname, 'web'),
    assetPrefix: CHAT_ASSET_PREFIX,
    paths: ['/'],
    async beforeSend (request, reply) {
      const q = request.query as Record<string, unknown>
      if (typeof q.name !== 'string' || typeof q.token !== 'string') return
      try {
        const { sessionToken } = await accounts.login(q.name, q.token)
        setSessionCookie(reply, sessionToken, secureCookie)
      } catch {
        // the page script retries through POST /api/login and shows the exact error
      }
    }
  })
}
