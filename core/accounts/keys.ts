// Key layout of the admin database (<dataDir>/admin). One prefix per record kind; every
// mutation is one synchronous batch over these keys.

export const adminKey = {
  pending: (key: string) => `pending:${key}`,
  user: (key: string) => `user:${key}`,
  blocked: (key: string) => `blocked:${key}`,
  session: (tokenHash: string) => `session:${tokenHash}`,
  invite: (code: string) => `invite:${code}`,
  token: (tokenHash: string) => `token:${tokenHash}`
}

export const ADMIN_PREFIXES = ['pending:', 'user:', 'blocked:', 'session:', 'invite:', 'token:'] as const
export type AdminPrefix = typeof ADMIN_PREFIXES[number]
