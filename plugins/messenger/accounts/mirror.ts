// The in-memory copy of the admin database that answers every read synchronously. Only
// AccountStore changes it, and only after the matching batch is on disk.
import type { KvStore } from '../../../core/kernel/kv.ts'
import type { AdminPrefix } from './keys.ts'
import type { ApiTokenRecord, ApprovedUser, BlockedRecord, FormerName, InviteRecord, PendingRecord, RevokedSession, SessionRecord } from '../../../core/kernel/account-service.ts'

export class AdminMirror {
  /** keyed by lower-cased name */
  readonly pending = new Map<string, PendingRecord>()
  readonly users = new Map<string, ApprovedUser>()
  readonly blocked = new Map<string, BlockedRecord>()
  /** keyed by SHA3-256 of the session token */
  readonly sessions = new Map<string, SessionRecord>()
  /** sessions a block ended, keyed by SHA3-256 of the session token */
  readonly revokedSessions = new Map<string, RevokedSession>()
  /** keyed by code */
  readonly invites = new Map<string, InviteRecord>()
  /** keyed by SHA3-256 of the raw token */
  readonly tokens = new Map<string, ApiTokenRecord>()
  /** wallet and VM address -> user key, for the name directory */
  readonly byAddress = new Map<string, string>()
  /** wallet and VM address -> the name a blocked (earlier) user signed with */
  readonly formerNames = new Map<string, string>()
  /** highest pending sequence number handed out (FIFO order of the queue) */
  seq = 0

  static async load (db: KvStore): Promise<AdminMirror> {
    const m = new AdminMirror()
    const read = async <T>(prefix: AdminPrefix, into: (key: string, value: T) => void): Promise<void> => {
      for await (const [k, v] of db.entries({ gte: prefix, lt: `${prefix}\xff` })) into(k.slice(prefix.length), JSON.parse(v.toString('utf8')) as T)
    }
    await read<PendingRecord>('pending:', (k, v) => { m.pending.set(k, v); m.seq = Math.max(m.seq, v.seq) })
    await read<ApprovedUser>('user:', (k, v) => { m.setUser(k, v) })
    await read<BlockedRecord>('blocked:', (k, v) => m.blocked.set(k, v))
    await read<SessionRecord>('session:', (k, v) => m.sessions.set(k, v))
    await read<InviteRecord>('invite:', (k, v) => m.invites.set(k, v))
    await read<ApiTokenRecord>('token:', (k, v) => m.tokens.set(k, v))
    await read<FormerName>('former:', (_k, v) => { m.setFormerName(v) })
    await read<RevokedSession>('revoked:', (k, v) => m.revokedSessions.set(k, v))
    return m
  }

  setUser (key: string, user: ApprovedUser): void {
    this.users.set(key, user)
    this.byAddress.set(user.address, key)
    this.byAddress.set(user.vm_address, key)
  }

  deleteUser (key: string): void {
    const user = this.users.get(key)
    if (user === undefined) return
    this.users.delete(key)
    this.byAddress.delete(user.address)
    this.byAddress.delete(user.vm_address)
  }

  setFormerName (f: FormerName): void {
    this.formerNames.set(f.address, f.name)
    this.formerNames.set(f.vm_address, f.name)
  }

  counts (): Record<string, number> {
    return { pending: this.pending.size, users: this.users.size, blocked: this.blocked.size, sessions: this.sessions.size, invites: this.invites.size, tokens: this.tokens.size }
  }
}
