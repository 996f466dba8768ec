// The contract VM's view of the chain state (core/vm/host.ts VmState) over a StateOverlay, so
// everything a contract does lands in the block's one atomic batch and its undo record.
//
// Balances live in the chain's accounts: a VM address the chain knows as a wallet's
// (`vm2w:` index) reads and writes that wallet's account `acct:<32 hex>`; any other VM address
// (contracts, addresses only ever paid in VM form) has its own account `acct:<40 hex>`.
// Contract code is `code:<vm>` (raw bytes), storage `st:<vm>:<slot as 64 hex>` (the value as
// hex text; a zero value deletes the key), the VM nonce `vmn:<vm>` (decimal text). Snapshots
// are the overlay's journal positions: a revert undoes every overlay write since, a commit
// keeps them (an enclosing revert still undoes them).
import type { VmState } from '../vm/host.ts'
import { StateOverlay, stateKey } from './state.ts'

export class ChainVmState implements VmState {
  readonly #o: StateOverlay

  constructor (overlay: StateOverlay) { this.#o = overlay }

  /** the key of the account that holds this VM address's balance */
  accountKey (vm: string): string { return this.#o.accountKeyOfVm(vm) }

  getStorage (addr: string, slot: bigint): bigint {
    const raw = this.#o.get(stateKey.storage(addr, slot))
    return raw === undefined ? 0n : BigInt('0x' + Buffer.from(raw).toString('utf8'))
  }

  setStorage (addr: string, slot: bigint, value: bigint): void {
    const key = stateKey.storage(addr, slot)
    if (value === 0n) {
      if (this.#o.get(key) !== undefined) this.#o.del(key)
      return
    }
    this.#o.putText(key, value.toString(16))
  }

  getCode (addr: string): Uint8Array | null {
    const raw = this.#o.get(stateKey.code(addr))
    return raw === undefined || raw.length === 0 ? null : raw
  }

  setCode (addr: string, code: Uint8Array): void {
    this.#o.put(stateKey.code(addr), Buffer.from(code))
  }

  getBalance (addr: string): bigint {
    return this.#o.getAccount(this.accountKey(addr)).balance
  }

  setBalance (addr: string, value: bigint): void {
    if (value < 0n) throw new RangeError(`negative balance for ${addr}`)
    const key = this.accountKey(addr)
    const account = this.#o.getAccount(key)
    account.balance = value
    this.#o.putAccount(key, account)
  }

  getNonce (addr: string): bigint {
    return this.#o.getBigint(stateKey.vmNonce(addr))
  }

  setNonce (addr: string, nonce: bigint): void {
    this.#o.putBigint(stateKey.vmNonce(addr), nonce)
  }

  snapshot (): number { return this.#o.snapshot() }

  revert (id: number): void { this.#o.revert(id) }

  commit (_id: number): void {
    // the overlay keeps the writes; the journal entries stay so an outer revert undoes them
  }
}
