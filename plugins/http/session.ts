// The session cookie (SPEC 5) for every plugin on the public server: `session`, HttpOnly,
// SameSite=Lax, Path=/. @fastify/cookie is registered once on the root instance by whichever
// plugin asks first. Who the token belongs to is the accounts library's business
// (plugins/messenger/accounts/credentials.ts); this is only the cookie.
import fastifyCookie from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SessionCookies } from '../../core/kernel/http-service.ts'

export const SESSION_COOKIE = 'session'

export const sessionCookies: SessionCookies = {
  async ensureSupport (app: FastifyInstance): Promise<void> {
    if (app.hasDecorator('parseCookie')) return
    await app.register(fastifyCookie)
  },
  tokenOf (request: FastifyRequest): string | undefined {
    const value = request.cookies?.[SESSION_COOKIE]
    return typeof value === 'string' && value.length > 0 ? value : undefined
  },
  set (reply: FastifyReply, token: string, opts: { maxAgeSeconds: number; secure?: boolean }): void {
    reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: opts.maxAgeSeconds, secure: opts.secure ?? false })
  },
  clear (reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
  }
}
