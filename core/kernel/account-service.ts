// The contract of the `accounts` and `faucet` services (the messenger plugin provides them,
// plugins/messenger/accounts/): the admin state records of SPEC 2.7 and what a plugin may call.
// The admin, playground and stream plugins reach the state only through these interfaces, so
// no plugin imports another's files. Names are unique case-insensitively: every record is
// keyed by the lower-cased name and keeps the spelling the user signed up with.

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

/** the largest `max_uses` an invite may carry, and the default (SPEC 4.4 invites) */
export const INVITE_MAX_USES = 10_000
export const INVITE_DEFAULT_USES = 25

export type SignupResult =
  | { status: 'pending'; signup: PendingSignup }
  | { status: 'approved'; user: ApprovedUser; sessionToken: string; invite: Invite; faucetTx: string | null }

export interface ApprovalResult { user: ApprovedUser; faucetTx: string | null }

export interface TokenCreated { token: string; record: ApiTokenRecord }

export interface TokenRevokeRequest { token?: unknown; token_hash?: unknown; id?: unknown }

/**
 * The admin state (`accounts` service). Reads are synchronous (an in-memory mirror); changes
 * are serialized, check their untrusted input, and are on disk before they take effect. A
 * change refuses with an account error: `httpErrorOf` turns it into the HTTP answer it stands
 * for (status and text, SPEC 7), so a route of any plugin answers as the messenger's do.
 */
export interface AccountService {
  pendingList(): PendingSignup[]
  /** `limit` pending signups from the `offset`-th oldest on, and how many wait in all */
  pendingPage(offset: number, limit: number): { pending: PendingSignup[]; total: number }
  users(): ApprovedUser[]
  user(name: string): ApprovedUser | undefined
  blockedList(): BlockedRecord[]
  isBlocked(name: string): boolean
  invites(): Invite[]
  tokens(): ApiTokenListing[]
  /** the approved user behind a wallet (32-hex) or VM (40-hex) address */
  userByAddress(address: string): ApprovedUser | undefined
  /** the name a wallet signed with before its user was blocked */
  formerNameOf(address: string): string | undefined
  /** the approved user a session cookie belongs to */
  sessionUser(token: string | undefined): ApprovedUser | undefined
  /** the block that ended this session cookie, if one did */
  revokedSession(token: string | undefined): RevokedSession | undefined
  /** the key a session is kept under (never the token itself): what `sessionActive` takes */
  sessionKeyOf(token: string): string
  /** whether a session (by its key) still stands; the stream rechecks open connections */
  sessionActive(tokenHash: string): boolean
  /** the approved user an API token acts as, if the token is active and has the scope */
  authenticateApiToken(token: string | undefined, scope?: string): ApprovedUser | undefined
  /** who a request speaks for: its session's user, else its `Authorization: Bearer` API token's (with `scope`) */
  userOfCredentials(sessionToken: string | undefined, authorization: string | undefined, scope?: string): ApprovedUser | undefined
  /** an account error as the HTTP error it stands for; anything else is returned as it is */
  httpErrorOf(err: unknown): unknown
  signup(input: { name: unknown; inviteCode?: unknown; ip: string }): Promise<SignupResult>
  approve(name: unknown): Promise<ApprovalResult>
  block(name: unknown, reason?: unknown): Promise<BlockedRecord>
  unblock(name: unknown): Promise<BlockedRecord>
  login(name: unknown, token: unknown): Promise<{ user: ApprovedUser; sessionToken: string }>
  endSession(token: string): Promise<void>
  createInvite(maxUses?: unknown): Promise<Invite>
  revokeInvite(code: unknown): Promise<Invite>
  createToken(input: { label: unknown; name: unknown; scope?: unknown }): Promise<TokenCreated>
  revokeToken(req: TokenRevokeRequest): Promise<ApiTokenRecord>
}

export interface DripRecord {
  seq: number
  address: string
  name: string
  /** coin */
  amount: number
  requested_at: number
  attempts: number
  last_attempt_at: number | null
  last_error: string | null
  /** set once submitted; the record goes when this transaction is in a block */
  tx_id: string | null
}

export interface DripView extends DripRecord {
  status: 'waiting' | 'sent'
  /** 1-based place among the waiting drips; null once sent */
  position: number | null
}

export interface FaucetState {
  status: 'waiting' | 'sent'
  position: number | null
  waiting: number
  tx_id: string | null
  amount: number
}

/** Signup drips the faucet wallet could not pay yet, paid in order as it can (`faucet` service). */
export interface FaucetService {
  /** the address the faucet pays from */
  readonly from: string
  /** coin per drip */
  readonly amount: number
  list(): DripView[]
  stateOf(address: string): FaucetState | null
  /** pays now or queues: the transaction id, or null when the drip waits */
  request(address: string, name: string): Promise<string | null>
  payAgain(address: string, name: string): Promise<DripView>
  /** drops the waiting drips of `address`; how many went */
  cancel(address: string): Promise<number>
  process(): Promise<void>
}
