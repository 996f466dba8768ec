// The chat landing page at / (plain HTML/CSS/JS, no build step) and its assets under /chat/.
// A login link /?name=<name>&token=<login_token> is redeemed here, server side, so the
// session cookie arrives with the page; the page script then drops the token from the URL.
import path from 'node:path'
import { readFileSync } from 'node:fs'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import type { AccountStore } from '../../core/accounts/store.ts'
import { setSessionCookie } from '../../core/accounts/http-session.ts'

const WEB_DIR = path.join(import.meta.dirname, 'web')
export const CHAT_ASSET_PREFIX = '/chat/'

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
}

export async function registerChatPage (app: FastifyInstance, accounts: AccountStore, secureCookie: boolean): Promise<void> {
  await app.register(fastifyStatic, { root: WEB_DIR, prefix: CHAT_ASSET_PREFIX, decorateReply: false, index: false })
  const html = readFileSync(path.join(WEB_DIR, 'index.html'), 'utf8')
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const q = request.query as Record<string, unknown>
    if (typeof q.name === 'string' && typeof q.token === 'string') {
      try {
        const { sessionToken } = await accounts.login(q.name, q.token)
        setSessionCookie(reply, sessionToken, secureCookie)
      } catch {
        // the page script retries through POST /api/login and shows the exact error
      }
    }
    return reply.headers(PAGE_HEADERS).send(html)
  })
}
