// Admin state records (SPEC 2.7). Names are unique case-insensitively: every record is keyed
// by the lower-cased name and keeps the spelling the user signed up with.

export interface PendingSignup {
  name: string
  signed_up_at: number
  ip: string
}

/** stored form of a pending signup: `seq` keeps the queue FIFO across restarts */
export interface PendingRecord extends PendingSignup { seq: number }

export interface ApprovedUser {
  name: string
  /** 32-hex wallet address of the user's custodial ML-DSA-87 wallet */
  address: string
  vm_address: string
  /** label of the custodial wallet file in <dataDir>/wallets */
  wallet: string
  joined_at: number
  /** kept so an admin can re-share it (SPEC 4.4 users) */
  login_token: string
  /** the invite code the user signed up with, or null when an admin approved them */
  invite_code: string | null
}

export interface BlockedRecord {
  name: string
  blocked_at: number
  reason?: string
}

/** The name a wallet was known by when its user was blocked: messages it signed keep it. */
export interface FormerName {
  name: string
  address: string
  vm_address: string
  until: number
}

/** A session a block ended; it never authenticates, it only explains the 403. */
export interface RevokedSession {
  token_hash: string
  name: string
  revoked_at: number
}

/** A session is stored under the SHA3-256 of its token, never the token itself. */
export interface SessionRecord {
  token_hash: string
  name: string
  created_at: number
  last_seen: number
}

export interface InviteRecord {
  code: string
  max_uses: number
  used: number
  created_at: number
  revoked: boolean
}

export interface Invite extends InviteRecord { remaining: number }

export interface ApiTokenRecord {
  /** non-secret handle so a listed token can be revoked without its raw value or hash */
  id: string
  token_hash: string
  label: string
  name: string
  scope: string
  created_at: number
  last_used_at: number | null
  revoked_at: number | null
}

/** what GET /api/admin/tokens shows: never the hash */
export type ApiTokenListing = Omit<ApiTokenRecord, 'token_hash'>
