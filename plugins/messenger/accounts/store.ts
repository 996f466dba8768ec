// The admin state (SPEC 1, 2.7, 3): pending queue, approved users, blocked names, sessions,
// invite codes and API tokens, shared by the messenger and admin plugins as the `accounts`
// service. An in-memory mirror answers reads synchronously; every mutation runs under one
// lock, is written to the admin database with `sync: true` and only then applied to the
// mirror, so what a client was told has happened survives a restart or a SIGKILL.
import type { Logger } from 'pino'
import type { KvOp, KvStore } from '../../../core/kernel/kv.ts'
import { jsonValue } from '../../../core/kernel/kv.ts'
import { normalizeAddress } from '../../../core/chain/address.ts'
import { accountErrors } from './errors.ts'
import { adminKey } from './keys.ts'
import { AdminMirror } from './mirror.ts'
import { isReservedName, isValidName, nameKey } from '../../../core/views/user-names.ts'
import {
  API_TOKEN_RE, TOKEN_HASH_RE, hashSecret, newApiToken, newInviteCode, newLoginToken,
  newSessionToken, newTokenId, secretsEqual
} from './secrets.ts'
import { toHttpError } from './errors.ts'
import { userOfCredentials } from './credentials.ts'
import { INVITE_DEFAULT_USES, INVITE_MAX_USES } from '../../../core/kernel/account-service.ts'
import type {
  AccountService, ApiTokenListing, ApiTokenRecord, ApprovalResult, ApprovedUser, BlockedRecord, FormerName, Invite,
  InviteRecord, RevokedSession, PendingRecord, PendingSignup, SessionRecord, SignupResult, TokenCreated, TokenRevokeRequest
} from '../../../core/kernel/account-service.ts'

export const TOKEN_LABEL_MAX = 64
export const TOKEN_SCOPES = ['playground'] as const
/** a session unused this long is dropped (its cookie expires at the same age) */
export const SESSION_IDLE_SECONDS = 30 * 24 * 3600
/** how stale last_seen / last_used_at may get before a read refreshes it on disk */
const TOUCH_INTERVAL_SECONDS = 60

export interface ProvisionedWallet { label: string; address: string; vmAddress: string }

export interface AccountStoreOptions {
  db: KvStore
  /** creates a fresh custodial wallet for a newly approved user */
  provisionWallet: (key: string) => ProvisionedWallet
  /** asks for the signup drip: its transaction id, or null when it waits in the faucet queue */
  faucet: (address: string, name: string) => string | null | Promise<string | null>
  logger: Logger
  /** pending signups at most; a signup without an invite beyond it is refused (queueFull) */
  maxPending?: number
  now?: () => number
}

export const DEFAULT_MAX_PENDING = 10_000

function inviteView (r: InviteRecord): Invite {
  return { ...r, remaining: Math.max(0, r.max_uses - r.used) }
}

function tokenListing (r: ApiTokenRecord): ApiTokenListing {
  const { token_hash: _hidden, ...listed } = r
  return listed
}

export class AccountStore implements AccountService {
  readonly #db: KvStore
  readonly #opts: AccountStoreOptions
  readonly #now: () => number
  readonly #m: AdminMirror
  #lock: Promise<unknown> = Promise.resolve()

  private constructor (opts: AccountStoreOptions, mirror: AdminMirror) {
    this.#db = opts.db
    this.#opts = opts
    this.#m = mirror
    this.#now = opts.now ?? (() => Date.now() / 1000)
  }

  static async open (opts: AccountStoreOptions): Promise<AccountStore> {
    const store = new AccountStore(opts, await AdminMirror.load(opts.db))
    await store.#dropStaleSessions()
    opts.logger.info(store.#m.counts(), 'admin state loaded')
    return store
  }

  async #dropStaleSessions (): Promise<void> {
    const stale = [...this.#m.sessions.values()].filter((s) => !this.#sessionLive(s))
    // a revocation notice outlives no cookie: the cookie expires at the same idle age
    const staleRevoked = [...this.#m.revokedSessions.values()].filter((r) => this.#now() - r.revoked_at >= SESSION_IDLE_SECONDS)
    if (stale.length === 0 && staleRevoked.length === 0) return
    await this.#commit([
      ...stale.map((s): KvOp => ({ type: 'del', key: adminKey.session(s.token_hash) })),
      ...staleRevoked.map((r): KvOp => ({ type: 'del', key: adminKey.revokedSession(r.token_hash) }))
    ])
    for (const s of stale) this.#m.sessions.delete(s.token_hash)
    for (const r of staleRevoked) this.#m.revokedSessions.delete(r.token_hash)
  }

  // ---- reads (synchronous, from the mirror)

  pendingList (): PendingSignup[] {
    return this.pendingPage(0, this.#m.pending.size).pending
  }

  /** `limit` pending signups from the `offset`-th oldest on, and how many wait in all */
  pendingPage (offset: number, limit: number): { pending: PendingSignup[]; total: number } {
    const total = this.#m.pending.size
    if (offset >= total) return { pending: [], total }
    const sorted = [...this.#m.pending.values()].sort((a, b) => a.seq - b.seq)
    return { pending: sorted.slice(offset, offset + limit).map(({ name, signed_up_at, ip }) => ({ name, signed_up_at, ip })), total }
  }

  users (): ApprovedUser[] {
    return [...this.#m.users.values()].sort((a, b) => a.joined_at - b.joined_at)
  }

  user (name: string): ApprovedUser | undefined { return this.#m.users.get(nameKey(name)) }

  blockedList (): BlockedRecord[] {
    return [...this.#m.blocked.values()].sort((a, b) => a.blocked_at - b.blocked_at)
  }

  isBlocked (name: string): boolean { return this.#m.blocked.has(nameKey(name)) }

  invites (): Invite[] {
    return [...this.#m.invites.values()].sort((a, b) => a.created_at - b.created_at).map(inviteView)
  }

  tokens (): ApiTokenListing[] {
    return [...this.#m.tokens.values()].sort((a, b) => a.created_at - b.created_at).map(tokenListing)
  }

  /** the approved user behind a wallet (32-hex) or VM (40-hex) address */
  userByAddress (address: string): ApprovedUser | undefined {
    const norm = normalizeAddress(address)
    const key = norm === null ? undefined : this.#m.byAddress.get(norm.address)
    return key === undefined ? undefined : this.#m.users.get(key)
  }

  /** the name a wallet signed with before its user was blocked (the wallet is never reused) */
  formerNameOf (address: string): string | undefined {
    const norm = normalizeAddress(address)
    return norm === null ? undefined : this.#m.formerNames.get(norm.address)
  }

  /** The approved user a session cookie belongs to; refreshes last_seen now and then. */
  sessionUser (token: string | undefined): ApprovedUser | undefined {
    if (typeof token !== 'string' || token.length === 0 || token.length > 256) return undefined
    const session = this.#m.sessions.get(hashSecret(token))
    if (session === undefined || !this.#sessionLive(session)) return undefined
    const user = this.#m.users.get(session.name)
    if (user === undefined) return undefined
    if (this.#now() - session.last_seen > TOUCH_INTERVAL_SECONDS) this.#touchSession(session.token_hash)
    return user
  }

  /** The block that ended this session cookie, if one did (and the name is still blocked). */
  revokedSession (token: string | undefined): RevokedSession | undefined {
    if (typeof token !== 'string' || token.length === 0 || token.length > 256) return undefined
    return this.#m.revokedSessions.get(hashSecret(token))
  }

  sessionKeyOf (token: string): string { return hashSecret(token) }

  userOfCredentials (sessionToken: string | undefined, authorization: string | undefined, scope = 'playground'): ApprovedUser | undefined {
    return userOfCredentials(this, sessionToken, authorization, scope)
  }

  httpErrorOf (err: unknown): unknown { return toHttpError(err) }

  /** whether a session (by its hash) still stands; the stream rechecks open connections */
  sessionActive (tokenHash: string): boolean {
    const s = this.#m.sessions.get(tokenHash)
    return s !== undefined && this.#m.users.has(s.name) && this.#sessionLive(s)
  }

  /** The approved user an API token acts as, if the token is active and has the scope. */
  authenticateApiToken (token: string | undefined, scope: string = 'playground'): ApprovedUser | undefined {
    if (typeof token !== 'string' || !API_TOKEN_RE.test(token)) return undefined
    const hash = hashSecret(token)
    const record = this.#m.tokens.get(hash)
    if (record === undefined || record.revoked_at !== null || !record.scope.split(',').includes(scope)) return undefined
    const user = this.#m.users.get(nameKey(record.name))
    if (user === undefined) return undefined
    if (record.last_used_at === null || this.#now() - record.last_used_at > TOUCH_INTERVAL_SECONDS) this.#touchToken(hash)
    return user
  }

  // ---- mutations (serialized, written synchronously before they take effect)

  async signup (input: { name: unknown; inviteCode?: unknown; ip: string }): Promise<SignupResult> {
    if (!isValidName(input.name)) throw accountErrors.nameInvalid()
    const name = input.name
    if (isReservedName(name)) throw accountErrors.nameReserved()
    const code = typeof input.inviteCode === 'string' && input.inviteCode.trim().length > 0 ? input.inviteCode.trim().toUpperCase() : null
    if (input.inviteCode !== undefined && input.inviteCode !== null && typeof input.inviteCode !== 'string') throw accountErrors.inviteInvalid()
    return await this.#mutate(async () => {
      const key = nameKey(name)
      if (this.#m.blocked.has(key)) throw accountErrors.nameBlocked()
      if (this.#m.users.has(key) || this.#m.pending.has(key)) throw accountErrors.nameTaken()
      const now = this.#now()
      if (code === null) {
        const cap = this.#opts.maxPending ?? DEFAULT_MAX_PENDING
        if (this.#m.pending.size >= cap) throw accountErrors.queueFull(cap)
        const record: PendingRecord = { name, signed_up_at: now, ip: input.ip, seq: this.#m.seq + 1 }
        await this.#commit([{ type: 'put', key: adminKey.pending(key), value: jsonValue(record) }])
        this.#m.seq = record.seq
        this.#m.pending.set(key, record)
        return { status: 'pending', signup: { name, signed_up_at: now, ip: input.ip } }
      }
      const invite = this.#m.invites.get(code)
      if (invite === undefined || invite.revoked) throw accountErrors.inviteInvalid()
      if (invite.used >= invite.max_uses) throw accountErrors.inviteExhausted()
      const user = this.#newUser(key, name, code)
      const used: InviteRecord = { ...invite, used: invite.used + 1 }
      const session = this.#newSession(key)
      await this.#commit([
        { type: 'put', key: adminKey.user(key), value: jsonValue(user) },
        { type: 'put', key: adminKey.invite(code), value: jsonValue(used) },
        { type: 'put', key: adminKey.session(session.record.token_hash), value: jsonValue(session.record) }
      ])
      this.#m.setUser(key, user)
      this.#m.invites.set(code, used)
      this.#m.sessions.set(session.record.token_hash, session.record)
      const faucetTx = await this.#opts.faucet(user.address, user.name)
      return { status: 'approved', user, sessionToken: session.token, invite: inviteView(used), faucetTx }
    })
  }

  async approve (name: unknown): Promise<ApprovalResult> {
    const label = this.#requireName(name)
    return await this.#mutate(async () => {
      const key = nameKey(label)
      const pending = this.#m.pending.get(key)
      if (pending === undefined) throw accountErrors.notPending(label)
      // a signup queued before the name was reserved is refused, never approved
      if (isReservedName(pending.name)) throw accountErrors.nameReserved()
      const user = this.#newUser(key, pending.name, null)
      await this.#commit([
        { type: 'del', key: adminKey.pending(key) },
        { type: 'put', key: adminKey.user(key), value: jsonValue(user) }
      ])
      this.#m.pending.delete(key)
      this.#m.setUser(key, user)
      return { user, faucetTx: await this.#opts.faucet(user.address, user.name) }
    })
  }

  /** Blocks a name (pending, approved or not yet seen): its sessions end, its API tokens are revoked. */
  async block (name: unknown, reason?: unknown): Promise<BlockedRecord> {
    const label = this.#requireName(name)
    if (reason !== undefined && reason !== null && (typeof reason !== 'string' || reason.length > 512)) throw accountErrors.badField('reason must be a string of at most 512 chars')
    return await this.#mutate(async () => {
      const key = nameKey(label)
      const now = this.#now()
      const earlier = this.#m.blocked.get(key)
      const display = this.#m.users.get(key)?.name ?? this.#m.pending.get(key)?.name ?? earlier?.name ?? label
      const record: BlockedRecord = { name: display, blocked_at: earlier?.blocked_at ?? now }
      const why = typeof reason === 'string' && reason.length > 0 ? reason : earlier?.reason
      if (why !== undefined) record.reason = why
      const sessions = [...this.#m.sessions.values()].filter((s) => s.name === key)
      const tokens = [...this.#m.tokens.values()].filter((t) => nameKey(t.name) === key && t.revoked_at === null).map((t) => ({ ...t, revoked_at: now }))
      const revoked = sessions.map((s): RevokedSession => ({ token_hash: s.token_hash, name: key, revoked_at: now }))
      const user = this.#m.users.get(key)
      const former: FormerName | undefined = user === undefined ? undefined : { name: user.name, address: user.address, vm_address: user.vm_address, until: now }
      await this.#commit([
        ...(former === undefined ? [] : [{ type: 'put', key: adminKey.formerName(former.address), value: jsonValue(former) } satisfies KvOp]),
        { type: 'del', key: adminKey.pending(key) },
        { type: 'del', key: adminKey.user(key) },
        { type: 'put', key: adminKey.blocked(key), value: jsonValue(record) },
        ...sessions.map((s): KvOp => ({ type: 'del', key: adminKey.session(s.token_hash) })),
        ...revoked.map((r): KvOp => ({ type: 'put', key: adminKey.revokedSession(r.token_hash), value: jsonValue(r) })),
        ...tokens.map((t): KvOp => ({ type: 'put', key: adminKey.token(t.token_hash), value: jsonValue(t) }))
      ])
      this.#m.pending.delete(key)
      this.#m.deleteUser(key)
      if (former !== undefined) this.#m.setFormerName(former)
      this.#m.blocked.set(key, record)
      for (const s of sessions) this.#m.sessions.delete(s.token_hash)
      for (const r of revoked) this.#m.revokedSessions.set(r.token_hash, r)
      for (const t of tokens) this.#m.tokens.set(t.token_hash, t)
      return record
    })
  }

  async unblock (name: unknown): Promise<BlockedRecord> {
    // a name that could never have signed up is simply not on the blocked list (SPEC 7: 404)
    if (typeof name === 'string' && name.length > 0 && !isValidName(name)) throw accountErrors.notBlocked()
    const label = this.#requireName(name)
    return await this.#mutate(async () => {
      const key = nameKey(label)
      const record = this.#m.blocked.get(key)
      if (record === undefined) throw accountErrors.notBlocked()
      const notices = [...this.#m.revokedSessions.values()].filter((r) => r.name === key)
      await this.#commit([
        { type: 'del', key: adminKey.blocked(key) },
        ...notices.map((r): KvOp => ({ type: 'del', key: adminKey.revokedSession(r.token_hash) }))
      ])
      this.#m.blocked.delete(key)
      for (const r of notices) this.#m.revokedSessions.delete(r.token_hash)
      return record
    })
  }

  /** Redeems a login token; returns the user and a new session token. */
  async login (name: unknown, token: unknown): Promise<{ user: ApprovedUser; sessionToken: string }> {
    if (typeof name !== 'string' || typeof token !== 'string' || name.length === 0 || token.length === 0) throw accountErrors.loginMissing()
    return await this.#mutate(async () => {
      const key = nameKey(name)
      if (this.#m.blocked.has(key)) throw accountErrors.loginBlocked()
      const user = this.#m.users.get(key)
      // compare even for an unknown name, so timing does not tell which names exist
      const match = secretsEqual(token, user?.login_token ?? '')
      if (user === undefined || !match) throw accountErrors.loginFailed()
      const session = this.#newSession(key)
      await this.#commit([{ type: 'put', key: adminKey.session(session.record.token_hash), value: jsonValue(session.record) }])
      this.#m.sessions.set(session.record.token_hash, session.record)
      return { user, sessionToken: session.token }
    })
  }

  /** Ends one session (logout). */
  async endSession (token: string): Promise<void> {
    const hash = hashSecret(token)
    await this.#mutate(async () => {
      if (!this.#m.sessions.has(hash)) return
      await this.#commit([{ type: 'del', key: adminKey.session(hash) }])
      this.#m.sessions.delete(hash)
    })
  }

  async createInvite (maxUses: unknown = INVITE_DEFAULT_USES): Promise<Invite> {
    const uses = maxUses === undefined || maxUses === null ? INVITE_DEFAULT_USES : maxUses
    if (typeof uses !== 'number' || !Number.isInteger(uses) || uses < 1 || uses > INVITE_MAX_USES) throw accountErrors.badField(`max_uses must be an integer 1-${INVITE_MAX_USES}`)
    return await this.#mutate(async () => {
      let code = newInviteCode()
      while (this.#m.invites.has(code)) code = newInviteCode()
      const record: InviteRecord = { code, max_uses: uses, used: 0, created_at: this.#now(), revoked: false }
      await this.#commit([{ type: 'put', key: adminKey.invite(code), value: jsonValue(record) }])
      this.#m.invites.set(code, record)
      return inviteView(record)
    })
  }

  async revokeInvite (code: unknown): Promise<Invite> {
    if (typeof code !== 'string' || code.trim().length === 0) throw accountErrors.badField('code is required')
    const wanted = code.trim().toUpperCase()
    return await this.#mutate(async () => {
      const invite = this.#m.invites.get(wanted)
      if (invite === undefined) throw accountErrors.unknownInvite()
      if (invite.revoked) return inviteView(invite)
      const revoked: InviteRecord = { ...invite, revoked: true }
      await this.#commit([{ type: 'put', key: adminKey.invite(wanted), value: jsonValue(revoked) }])
      this.#m.invites.set(wanted, revoked)
      return inviteView(revoked)
    })
  }

  async createToken (input: { label: unknown; name: unknown; scope?: unknown }): Promise<TokenCreated> {
    const { label, name } = input
    if (typeof label !== 'string' || label.length < 1 || label.length > TOKEN_LABEL_MAX) throw accountErrors.badField(`label must be 1-${TOKEN_LABEL_MAX} chars`)
    if (typeof name !== 'string' || name.length === 0) throw accountErrors.badField('name is required')
    const scope = this.#scope(input.scope)
    return await this.#mutate(async () => {
      const user = this.#m.users.get(nameKey(name))
      if (user === undefined) throw accountErrors.unknownUser(name)
      const token = newApiToken()
      const record: ApiTokenRecord = { id: newTokenId(), token_hash: hashSecret(token), label, name: user.name, scope, created_at: this.#now(), last_used_at: null, revoked_at: null }
      await this.#commit([{ type: 'put', key: adminKey.token(record.token_hash), value: jsonValue(record) }])
      this.#m.tokens.set(record.token_hash, record)
      return { token, record }
    })
  }

  /** Revokes by raw token, by token_hash, or by the listing's id. */
  async revokeToken (req: TokenRevokeRequest): Promise<ApiTokenRecord> {
    const hash = this.#tokenHashOf(req)
    return await this.#mutate(async () => {
      const record = hash === undefined ? undefined : this.#m.tokens.get(hash)
      if (record === undefined) throw accountErrors.unknownToken()
      if (record.revoked_at !== null) return record
      const revoked: ApiTokenRecord = { ...record, revoked_at: this.#now() }
      await this.#commit([{ type: 'put', key: adminKey.token(revoked.token_hash), value: jsonValue(revoked) }])
      this.#m.tokens.set(revoked.token_hash, revoked)
      return revoked
    })
  }

  // ---- internals

  #mutate<T> (fn: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(fn)
    this.#lock = run.catch(() => undefined)
    return run
  }

  async #commit (ops: KvOp[]): Promise<void> {
    await this.#db.write(ops, { sync: true })
  }

  #requireName (name: unknown): string {
    if (typeof name !== 'string' || name.length === 0) throw accountErrors.badField('name is required')
    if (!isValidName(name)) throw accountErrors.nameInvalid()
    return name
  }

  #scope (scope: unknown): string {
    if (scope === undefined || scope === null || scope === '') return 'playground'
    if (typeof scope !== 'string') throw accountErrors.badField('scope must be a comma-separated string')
    const parts = [...new Set(scope.split(',').map((s) => s.trim()).filter((s) => s.length > 0))]
    const unknown = parts.filter((p) => !(TOKEN_SCOPES as readonly string[]).includes(p))
    if (parts.length === 0 || unknown.length > 0) throw accountErrors.badField(`unknown scope: ${unknown.join(',') || scope} (recognized: ${TOKEN_SCOPES.join(', ')})`)
    return parts.join(',')
  }

  #tokenHashOf (req: TokenRevokeRequest): string | undefined {
    if (typeof req.token === 'string' && req.token.length > 0) return hashSecret(req.token)
    if (typeof req.token_hash === 'string' && req.token_hash.length > 0) {
      const h = req.token_hash.toLowerCase()
      if (!TOKEN_HASH_RE.test(h)) throw accountErrors.badField('token_hash must be 64 hex chars')
      return h
    }
    if (typeof req.id === 'string' && req.id.length > 0) return [...this.#m.tokens.values()].find((t) => t.id === req.id)?.token_hash
    throw accountErrors.badField('token or token_hash required')
  }

  #newUser (key: string, name: string, inviteCode: string | null): ApprovedUser {
    const wallet = this.#opts.provisionWallet(key)
    return { name, address: wallet.address, vm_address: wallet.vmAddress, wallet: wallet.label, joined_at: this.#now(), login_token: newLoginToken(), invite_code: inviteCode }
  }

  #newSession (key: string): { token: string; record: SessionRecord } {
    const token = newSessionToken()
    const now = this.#now()
    return { token, record: { token_hash: hashSecret(token), name: key, created_at: now, last_seen: now } }
  }

  #sessionLive (s: SessionRecord): boolean { return this.#now() - s.last_seen < SESSION_IDLE_SECONDS }

  #touchSession (hash: string): void {
    const now = this.#now()
    const current = this.#m.sessions.get(hash)
    if (current !== undefined) this.#m.sessions.set(hash, { ...current, last_seen: now })
    this.#background(async () => {
      const s = this.#m.sessions.get(hash)
      if (s === undefined) return
      await this.#commit([{ type: 'put', key: adminKey.session(hash), value: jsonValue(s) }])
    })
  }

  #touchToken (hash: string): void {
    const now = this.#now()
    const current = this.#m.tokens.get(hash)
    if (current !== undefined) this.#m.tokens.set(hash, { ...current, last_used_at: now })
    this.#background(async () => {
      const t = this.#m.tokens.get(hash)
      if (t === undefined) return
      await this.#commit([{ type: 'put', key: adminKey.token(hash), value: jsonValue(t) }])
    })
  }

  /** bookkeeping writes go through the lock too, so they can never resurrect a deleted record */
  #background (fn: () => Promise<void>): void {
    this.#mutate(fn).catch((err: unknown) => { this.#opts.logger.warn({ err }, 'admin bookkeeping write failed') })
  }
}
