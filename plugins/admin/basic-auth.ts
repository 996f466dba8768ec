// HTTP Basic for /admin and /api/admin/* (SPEC 5). Both parts are compared through their
// SHA3-256 digests with timingSafeEqual, and both always, so timing reveals neither.
import { HttpError } from '../../core/kernel/errors.ts'
import { secretsEqual } from '../../core/crypto/secrets.ts'
import type { AdminCredentials } from './credentials.ts'

export const ADMIN_REALM = 'ledger-admin'

export function adminAuthError (): HttpError {
  return new HttpError(401, 'admin authentication required', { headers: { 'www-authenticate': `Basic realm="${ADMIN_REALM}"` } })
}

export function parseBasic (header: string | undefined): { user: string; password: string } | null {
  if (typeof header !== 'string') return null
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (m?.[1] === undefined) return null
  const decoded = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

export function checkBasic (creds: AdminCredentials, header: string | undefined): boolean {
  const given = parseBasic(header)
  const userOk = secretsEqual(given?.user ?? '', creds.user)
  const passwordOk = secretsEqual(given?.password ?? '', creds.password)
  return given !== null && userOk && passwordOk
}
