// Bearer API-key check of the dashboard (SPEC 5, DESIGN 5). POST /api/tx/submit always needs
// the key; with requireAuth every other route does too, except /api/status and /metrics.
import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from '../../core/kernel/errors.ts'

export const AUTH_ERROR = 'invalid or missing API key'
export const ALWAYS_OPEN_ROUTES: ReadonlySet<string> = new Set(['/api/status', '/metrics'])

const digest = (s: string): Buffer => crypto.createHash('sha256').update(s).digest()

/** constant-time comparison of the presented bearer token with the key */
export function bearerMatches (header: string | undefined, key: string): boolean {
  if (typeof header !== 'string') return false
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)
  if (m === null) return false
  return crypto.timingSafeEqual(digest(m[1] as string), digest(key))
}

function unauthorized (): HttpError {
  return new HttpError(401, AUTH_ERROR, { headers: { 'www-authenticate': 'Bearer' } })
}

export function requireApiKey (request: FastifyRequest, key: string): void {
  if (!bearerMatches(request.headers.authorization, key)) throw unauthorized()
}

export interface AuthPolicy {
  key: string
  requireAuth: boolean
  /** route patterns that need the key whatever requireAuth says (write methods) */
  writeRoutes: ReadonlySet<string>
  /** route patterns never guarded: the page shell and its static assets, which hold no node data */
  openRoutes?: ReadonlySet<string>
}

export function installAuth (app: FastifyInstance, policy: AuthPolicy): void {
  app.addHook('onRequest', async (request) => {
    // the matched route pattern, not the raw URL: encodings or trailing bits cannot dodge it
    const route = request.routeOptions.url
    const write = route !== undefined && policy.writeRoutes.has(route)
    const open = route !== undefined && (ALWAYS_OPEN_ROUTES.has(route) || policy.openRoutes?.has(route) === true)
    if (write || (policy.requireAuth && !open)) requireApiKey(request, policy.key)
  })
}
