// Key layout of the admin database (<dataDir>/admin). One prefix per record kind; every
// mutation is one synchronous batch over these keys.

export const adminKey = {
  pending: (key: string) => `pending:${key}`,
  user: (key: string) => `user:${key}`,
  blocked: (key: string) => `blocked:${key}`,
  session: (tokenHash: string) => `session:${tokenHash}`,
  invite: (code: string) => `invite:${code}`,
  token: (tokenHash: string) => `token:${tokenHash}`,
  /** the name a blocked user's wallet signed with, keyed by that 32-hex wallet address */
  formerName: (address: string) => `former:${address}`,
  /** a session ended by a block: its owner is told why instead of seeing a signup form */
  revokedSession: (tokenHash: string) => `revoked:${tokenHash}`
}

export const ADMIN_PREFIXES = ['pending:', 'user:', 'blocked:', 'session:', 'invite:', 'token:', 'former:', 'revoked:'] as const
export type AdminPrefix = typeof ADMIN_PREFIXES[number]
