// Who a request speaks for: the user of its session token, else the user of an
// `Authorization: Bearer <API token>` with the asked scope (a session wins over a token).
// The caller reads the cookie and the header; this only decides.
import type { AccountService, ApprovedUser } from '../../../core/kernel/account-service.ts'

export function userOfCredentials (accounts: Pick<AccountService, 'sessionUser' | 'authenticateApiToken'>, sessionToken: string | undefined, authorization: string | undefined, scope = 'playground'): ApprovedUser | undefined {
  const bySession = accounts.sessionUser(sessionToken)
  if (bySession !== undefined) return bySession
  const m = typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization) : null
  return m?.[1] === undefined ? undefined : accounts.authenticateApiToken(m[1], scope)
}
