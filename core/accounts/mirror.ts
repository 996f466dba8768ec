// The in-memory copy of the admin database that answers every read synchronously. Only
// AccountStore changes it, and only after the matching batch is on disk.
import type { KvStore } from '../kv.ts'
import type { AdminPrefix } from './keys.ts'
import type { ApiTokenRecord, ApprovedUser, BlockedRecord, InviteRecord, PendingRecord, SessionRecord } from './types.ts'

export class AdminMirror {
  /** keyed by lower-cased name */
  readonly pending = new Map<string, PendingRecord>()
  readonly users = new Map<string, ApprovedUser>()
  readonly blocked = new Map<string, BlockedRecord>()
  /** keyed by SHA3-256 of the session token */
  readonly sessions = new Map<string, SessionRecord>()
  /** keyed by code */
  readonly invites = new Map<string, InviteRecord>()
  /** keyed by SHA3-256 of the raw token */
  readonly tokens = new Map<string, ApiTokenRecord>()
  /** wallet and VM address -> user key, for the name directory */
  readonly byAddress = new Map<string, string>()
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

  counts (): Record<string, number> {
    return { pending: this.pending.size, users: this.users.size, blocked: this.blocked.size, sessions: this.sessions.size, invites: this.invites.size, tokens: this.tokens.size }
  }
}
