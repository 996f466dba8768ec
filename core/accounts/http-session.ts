// The session cookie (SPEC 5) for every plugin on the public server: `session`, HttpOnly,
// SameSite=Lax, Path=/. @fastify/cookie is registered once on the root instance by whichever
// plugin asks first. Also resolves an API token for surfaces that accept one (playground):
// a session cookie wins over a Bearer token.
import fastifyCookie from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AccountStore } from './store.ts'
import { SESSION_IDLE_SECONDS } from './store.ts'
import type { ApprovedUser } from './types.ts'

export const SESSION_COOKIE = 'session'

/** Registers @fastify/cookie on the shared server unless another plugin already did. */
export async function ensureCookieSupport (app: FastifyInstance): Promise<void> {
  if (app.hasDecorator('parseCookie')) return
  await app.register(fastifyCookie)
}

export function sessionTokenOf (request: FastifyRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE]
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

export function setSessionCookie (reply: FastifyReply, token: string, secure = false): void {
  reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: SESSION_IDLE_SECONDS, secure })
}

export function clearSessionCookie (reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' })
}

export function sessionUser (accounts: AccountStore, request: FastifyRequest): ApprovedUser | undefined {
  return accounts.sessionUser(sessionTokenOf(request))
}

/** The session's user, else the user of a `Authorization: Bearer <API token>` with `scope`. */
export function requestUser (accounts: AccountStore, request: FastifyRequest, scope = 'playground'): ApprovedUser | undefined {
  const bySession = sessionUser(accounts, request)
  if (bySession !== undefined) return bySession
  const auth = request.headers.authorization
  const m = typeof auth === 'string' ? /^Bearer\s+(\S+)$/i.exec(auth) : null
  return m?.[1] === undefined ? undefined : accounts.authenticateApiToken(m[1], scope)
}
