// What the VM needs from the chain: account state with nested snapshots. Addresses are VM
// addresses (40 lowercase hex chars, no 0x), amounts are bohm (1 coin = 10^18 bohm).
// The chain implements VmState over its state overlay; MemoryVmState serves tests and the
// playground's dry runs.

export interface VmState {
  getStorage(addr: string, slot: bigint): bigint
  setStorage(addr: string, slot: bigint, value: bigint): void
  /** null when the account has no code (a wallet, or nothing at all) */
  getCode(addr: string): Uint8Array | null
  setCode(addr: string, code: Uint8Array): void
  getBalance(addr: string): bigint
  setBalance(addr: string, value: bigint): void
  getNonce(addr: string): bigint
  setNonce(addr: string, nonce: bigint): void
  /** opens a nested checkpoint; its id is passed to exactly one revert or commit */
  snapshot(): number
  /** undoes every change since the checkpoint */
  revert(id: number): void
  /** keeps the changes since the checkpoint (an enclosing revert still undoes them) */
  commit(id: number): void
}

/** Block context visible to contracts (BLOCKHEIGHT, TIMESTAMP, MINER). */
export interface ExecEnv {
  blockHeight: number
  /** Unix seconds; contracts see the integer part */
  timestamp: number
  /** VM address of the block's miner */
  miner: string
}

interface Account {
  balance: bigint
  nonce: bigint
  code: Uint8Array | null
  storage: Map<bigint, bigint>
}

/** A plain JSON-able picture of one account, for tests and dry-run previews. */
export interface AccountDump {
  balance: string
  nonce: string
  code: string | null
  storage: Record<string, string>
}

type Undo = () => void

/**
 * VmState in memory with an undo journal; a snapshot id is a journal position. Changes are
 * journaled only while a snapshot is open, so a long-lived state does not grow a journal.
 */
export class MemoryVmState implements VmState {
  readonly #accounts = new Map<string, Account>()
  readonly #journal: Undo[] = []
  #open = 0

  #record (undo: Undo): void {
    if (this.#open > 0) this.#journal.push(undo)
  }

  #account (addr: string): Account {
    let acct = this.#accounts.get(addr)
    if (acct === undefined) {
      acct = { balance: 0n, nonce: 0n, code: null, storage: new Map() }
      this.#accounts.set(addr, acct)
      this.#record(() => { this.#accounts.delete(addr) })
    }
    return acct
  }

  getStorage (addr: string, slot: bigint): bigint {
    return this.#accounts.get(addr)?.storage.get(slot) ?? 0n
  }

  setStorage (addr: string, slot: bigint, value: bigint): void {
    const { storage } = this.#account(addr)
    const before = storage.get(slot)
    this.#record(() => { if (before === undefined) storage.delete(slot); else storage.set(slot, before) })
    if (value === 0n) storage.delete(slot)
    else storage.set(slot, value)
  }

  getCode (addr: string): Uint8Array | null { return this.#accounts.get(addr)?.code ?? null }

  setCode (addr: string, code: Uint8Array): void {
    const acct = this.#account(addr)
    const before = acct.code
    this.#record(() => { acct.code = before })
    acct.code = Uint8Array.from(code)
  }

  getBalance (addr: string): bigint { return this.#accounts.get(addr)?.balance ?? 0n }

  setBalance (addr: string, value: bigint): void {
    if (value < 0n) throw new RangeError(`negative balance for ${addr}`)
    const acct = this.#account(addr)
    const before = acct.balance
    this.#record(() => { acct.balance = before })
    acct.balance = value
  }

  getNonce (addr: string): bigint { return this.#accounts.get(addr)?.nonce ?? 0n }

  setNonce (addr: string, nonce: bigint): void {
    const acct = this.#account(addr)
    const before = acct.nonce
    this.#record(() => { acct.nonce = before })
    acct.nonce = nonce
  }

  snapshot (): number {
    this.#open++
    return this.#journal.length
  }

  revert (id: number): void {
    this.#close(id)
    while (this.#journal.length > id) (this.#journal.pop() as Undo)()
  }

  commit (id: number): void {
    this.#close(id)
    // with no snapshot left open, nothing can be undone any more
    if (this.#open === 0) this.#journal.length = 0
  }

  #close (id: number): void {
    if (this.#open === 0 || id > this.#journal.length) throw new RangeError(`snapshot ${id} is not open`)
    this.#open--
  }

  /** Every account that holds something, sorted by address (empty accounts are left out). */
  dump (): Record<string, AccountDump> {
    const out: Record<string, AccountDump> = {}
    for (const addr of [...this.#accounts.keys()].sort()) {
      const a = this.#accounts.get(addr) as Account
      if (a.balance === 0n && a.nonce === 0n && a.code === null && a.storage.size === 0) continue
      const storage: Record<string, string> = {}
      for (const slot of [...a.storage.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))) {
        storage['0x' + slot.toString(16)] = '0x' + (a.storage.get(slot) as bigint).toString(16)
      }
      out[addr] = {
        balance: a.balance.toString(),
        nonce: a.nonce.toString(),
        code: a.code === null ? null : Buffer.from(a.code).toString('hex'),
        storage
      }
    }
    return out
  }
}
