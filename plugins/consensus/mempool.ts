// Pending transactions and their admission rules (DESIGN 3): signature, nonce sequence,
// balance including the sender's other pending spends, fee floor, contract gas cover, a
// count cap and a byte budget with lowest-fee-per-byte eviction (the newcomer pays the
// displaced fee rate plus an incremental relay fee), a minimum fee rate that rises when the
// pool evicts and decays after (Bitcoin Core's mempoolminfee), a per-sender cap and a
// time-to-live. Beside it, peers' transactions whose nonce is ahead of their sender's next
// one wait in a bounded orphan pool (orphan-pool.ts) and are retried, in nonce order, when the
// gap closes.
import type { Hooks } from '../../core/kernel/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Transaction } from '../../core/chain/types.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import { checkTxFormat, checkTxSignature } from '../../core/chain/tx-rules.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'
import type { MldsaCore } from '../../core/crypto/mldsa.ts'
import { TxError, TxErrorCode, TxPolicyError } from '../../core/chain/errors.ts'
import { CONTRACT_RECIPIENT } from '../../core/chain/types.ts'
import { inBlockBytes, txSize } from '../../core/chain/block-size.ts'
import { declaredGas } from '../../core/chain/tx-rules.ts'
import type { TemplateBudget } from '../../core/chain/template.ts'
import { coinToBohm } from '../../core/chain/money.ts'
import { OrphanPool } from './orphan-pool.ts'
import type { TxOffer } from '../../core/chain/mempool-service.ts'

/** default byte budget: 5,000 ordinary transfers (~5-7 KB) fit many times, or ~440 of the largest allowed */
export const DEFAULT_MEMPOOL_BYTES = 128 * 1024 * 1024

/**
 * The incremental relay fee, bohm per byte: what a transaction must pay per byte on top of
 * the fee rate of what it displaces, so that pushing others out is never free (without it, a
 * newcomer paying 1 bohm more evicted a whole transaction). 0.0001 coin — the network's
 * minimum fee — per 5,000 bytes, about one ordinary transfer.
 */
export const DEFAULT_INCREMENTAL_FEE_PER_BYTE = coinToBohm(0.0001) / 5000n
/** the minimum fee rate's half-life once a block arrived after the pool evicted (Bitcoin Core's 12 h; /2 under half full, /4 under a quarter) */
export const ROLLING_FEE_HALFLIFE_SECONDS = 12 * 3600

export interface MempoolOptions {
  chain: ChainService
  params: NetworkParams
  hooks: Hooks
  capacity?: number
  /** bytes (txSize) all pending transactions together may take */
  maxBytes?: number
  perSenderLimit?: number
  ttlSeconds?: number
  maxFutureSeconds?: number
  contractsEnabled: boolean
  /** the kernel's SHA3 and ML-DSA cores (transaction ids, addresses, signatures); default WASM SHA3, native ML-DSA */
  cores?: { sha3: Sha3Core; mldsa: MldsaCore }
  /** bohm per byte (DEFAULT_INCREMENTAL_FEE_PER_BYTE) */
  incrementalFeePerByte?: bigint
  /** seconds */
  now?: () => number
  /** where peers' transactions ahead of their sender's nonce wait (default: ORPHAN_LIMITS, per-sender cap = perSenderLimit) */
  orphans?: OrphanPool
}

/** a nonce ahead of the sender's next one: a client's mistake, or a peer's honest reordering (held as an orphan) */
class NonceGapError extends TxError {}

interface Entry { tx: Transaction; amount: bigint; fee: bigint; addedAt: number; bytes: number }

/** a pays less per byte than b */
const cheaperPerByte = (a: Entry, b: Entry): boolean => a.fee * BigInt(b.bytes) < b.fee * BigInt(a.bytes)

export class Mempool implements MempoolService {
  readonly capacity: number
  readonly maxBytes: number
  readonly #perSender: number
  readonly #ttl: number
  readonly #maxFuture: number
  readonly #opts: MempoolOptions
  readonly #byId = new Map<string, Entry>()
  /** per sender, ordered by nonce (always contiguous from the state nonce) */
  readonly #bySender = new Map<string, Entry[]>()
  /** signatures this node verified, so block connection does not verify them again */
  readonly #verified = new Map<string, string>()
  #bytes = 0
  #now: () => number
  readonly incrementalFeePerByte: bigint
  readonly orphans: OrphanPool
  /** bohm per byte; a double like Bitcoin Core's, for the smooth decay */
  #rollingMinFee = 0
  #lastRollingUpdate = 0
  /** decay starts once a block arrived after the last bump (a burst is not forgotten between blocks) */
  #blockSinceBump = false

  constructor (opts: MempoolOptions) {
    this.#opts = opts
    this.capacity = opts.capacity ?? 5000
    this.maxBytes = opts.maxBytes ?? DEFAULT_MEMPOOL_BYTES
    this.#perSender = opts.perSenderLimit ?? 64
    this.#ttl = opts.ttlSeconds ?? 72 * 3600
    this.#maxFuture = opts.maxFutureSeconds ?? 2 * 3600
    this.#now = opts.now ?? (() => Date.now() / 1000)
    this.incrementalFeePerByte = opts.incrementalFeePerByte ?? DEFAULT_INCREMENTAL_FEE_PER_BYTE
    this.orphans = opts.orphans ?? new OrphanPool({ now: this.#now, limits: { perSender: this.#perSender } })
  }

  /**
   * The fee per byte (bohm) a transaction must pay now: 0 until the pool evicts; then the
   * evicted rate plus the incremental fee, decaying by half every ROLLING_FEE_HALFLIFE_SECONDS
   * (faster while the pool is emptier) once a block arrived, and 0 again below half the
   * incremental fee.
   */
  minFeePerByte (): bigint {
    if (!this.#blockSinceBump || this.#rollingMinFee === 0) return BigInt(Math.round(this.#rollingMinFee))
    const now = this.#now()
    if (now > this.#lastRollingUpdate + 10) {
      const usage = Math.max(this.size / this.capacity, this.#bytes / this.maxBytes)
      const halfLife = ROLLING_FEE_HALFLIFE_SECONDS / (usage < 0.25 ? 4 : usage < 0.5 ? 2 : 1)
      this.#rollingMinFee /= 2 ** ((now - this.#lastRollingUpdate) / halfLife)
      this.#lastRollingUpdate = now
      if (this.#rollingMinFee < Number(this.incrementalFeePerByte) / 2) {
        this.#rollingMinFee = 0
        return 0n
      }
    }
    const rolling = BigInt(Math.round(this.#rollingMinFee))
    return rolling > this.incrementalFeePerByte ? rolling : this.incrementalFeePerByte
  }

  #bumpMinFee (evicted: Entry): void {
    const rate = Number(evicted.fee / BigInt(evicted.bytes) + this.incrementalFeePerByte)
    if (rate > this.#rollingMinFee) this.#rollingMinFee = rate
    this.#lastRollingUpdate = this.#now()
    this.#blockSinceBump = false
  }

  get size (): number { return this.#byId.size }
  /** bytes (txSize) of all pending transactions */
  get bytes (): number { return this.#bytes }
  has (txId: string): boolean { return this.#byId.has(txId) }
  get (txId: string): Transaction | undefined { return this.#byId.get(txId)?.tx }

  list (): Transaction[] {
    return [...this.#byId.values()].sort((a, b) => (b.fee > a.fee ? 1 : b.fee < a.fee ? -1 : a.tx.timestamp - b.tx.timestamp)).map((e) => e.tx)
  }

  isVerified (tx: Transaction): boolean { return this.#verified.get(tx.transaction_id) === tx.signature }

  #remember (tx: Transaction): void {
    if (this.#verified.size >= 4 * this.capacity) this.#verified.delete(this.#verified.keys().next().value as string)
    this.#verified.set(tx.transaction_id, tx.signature)
  }

  pendingSpend (sender: string): bigint {
    let sum = 0n
    for (const e of this.#bySender.get(sender) ?? []) sum += e.amount + e.fee
    return sum
  }

  nextNonce (sender: string): number {
    return this.#opts.chain.getAccount(sender).nonce + (this.#bySender.get(sender)?.length ?? 0)
  }

  add (tx: Transaction): Transaction {
    this.#admit(tx)
    this.#adoptOrphans(tx.sender)
    return tx
  }

  holds (txId: string): boolean { return this.orphans.has(txId) }

  /**
   * A peer's transaction: admitted as `add` does, or, when its nonce is ahead of the sender's
   * next one (the network reorders one wallet's transactions honestly), held as an orphan once
   * its signature verifies, and admitted when the gap closes. Throws TxError otherwise.
   */
  offer (tx: Transaction, peerId: string): TxOffer {
    try {
      this.add(tx)
      return 'admitted'
    } catch (err) {
      if (!(err instanceof NonceGapError)) throw err
    }
    const expected = this.nextNonce(tx.sender)
    if (tx.nonce - expected >= this.#perSender) throw new TxError(TxErrorCode.SENDER_LIMIT, `nonce ${tx.nonce} is more than ${this.#perSender} ahead of the sender's next (${expected})`)
    if (this.orphans.has(tx.transaction_id)) return 'orphan'
    const account = this.#opts.chain.getAccount(tx.sender)
    const carried = account.publicKey === null ? this.#bySender.get(tx.sender)?.find((e) => typeof e.tx.data.public_key === 'string')?.tx.data.public_key as string | undefined : undefined
    // checked before it is held: forgeries cannot fill the pool (and cost their relay as invalid)
    checkTxSignature(tx, carried === undefined ? account : { ...account, publicKey: carried }, this.#opts.cores)
    this.orphans.add(tx, peerId, txSize(tx))
    return 'orphan'
  }

  /** Admits, in nonce order, the sender's orphans its next nonce reaches; drops those it passed. */
  #adoptOrphans (sender: string): void {
    for (;;) {
      const expected = this.nextNonce(sender)
      this.orphans.dropBelow(sender, expected)
      const next = this.orphans.take(sender, expected)
      if (next === undefined) return
      try { this.#admit(next) } catch { /* it fails on its own (balance, fee): the gap stays */ }
    }
  }

  #admit (tx: Transaction): void {
    if (tx !== null && typeof tx === 'object' && typeof tx.transaction_id === 'string' && this.#byId.has(tx.transaction_id)) {
      throw new TxError(TxErrorCode.DUPLICATE, 'duplicate transaction id: already in the mempool')
    }
    const { amount, fee } = checkTxFormat(this.#opts.params, tx, this.#opts.cores?.sha3)
    if (tx.recipient === CONTRACT_RECIPIENT && !this.#opts.contractsEnabled) throw new TxError(TxErrorCode.BAD_FORMAT, 'this node runs no contract VM')
    if (this.#opts.chain.stateView().get(`tx:${tx.transaction_id}`) !== undefined) throw new TxError(TxErrorCode.ALREADY_CONFIRMED, 'transaction already confirmed')
    const now = this.#now()
    if (tx.timestamp < now - this.#ttl) throw new TxError(TxErrorCode.EXPIRED, `transaction older than ${this.#ttl / 3600} hours`)
    if (tx.timestamp > now + this.#maxFuture) throw new TxError(TxErrorCode.FUTURE_TIMESTAMP, 'transaction timestamp too far in the future')

    const account = this.#opts.chain.getAccount(tx.sender)
    const pending = this.#bySender.get(tx.sender) ?? []
    const expected = account.nonce + pending.length
    // a used nonce is a relay that crossed a block (policy); one ahead a gap (held when a peer's)
    if (tx.nonce < expected) throw new TxError(TxErrorCode.BAD_NONCE, `nonce ${tx.nonce} but the sender's next nonce is ${expected}`, 'policy')
    if (tx.nonce > expected) throw new NonceGapError(TxErrorCode.BAD_NONCE, `nonce ${tx.nonce} but the sender's next nonce is ${expected}`)
    if (pending.length >= this.#perSender) throw new TxError(TxErrorCode.SENDER_LIMIT, `sender already has ${this.#perSender} pending transactions`)
    if (account.balance < this.pendingSpend(tx.sender) + amount + fee) {
      throw new TxError(TxErrorCode.INSUFFICIENT_BALANCE, 'balance does not cover amount + fee plus the sender\'s pending transactions')
    }
    // the fee rules are cheap: they come before the signature check
    const entry: Entry = { tx, amount, fee, addedAt: now, bytes: txSize(tx) }
    const minRate = this.minFeePerByte()
    if (fee < minRate * BigInt(entry.bytes)) {
      throw new TxError(TxErrorCode.MEMPOOL_FULL, `fee of ${fee / BigInt(entry.bytes)} bohm per byte is below the mempool's minimum of ${minRate}, raised while it was full (it decays)`)
    }
    const victims = this.#victimsFor(entry)
    // the key a pending predecessor carries will be on chain before this one is applied
    const carried = account.publicKey === null ? pending.find((e) => typeof e.tx.data.public_key === 'string')?.tx.data.public_key as string | undefined : undefined
    checkTxSignature(tx, carried === undefined ? account : { ...account, publicKey: carried }, this.#opts.cores)
    // the node's policy plugins last: they judge a transaction the rules admit
    const refusal = this.#opts.hooks.txAdmission.call(tx)
    if (refusal !== undefined && refusal !== null) throw new TxPolicyError(refusal.code, refusal.reason)

    for (const v of victims) {
      this.#remove(v.tx.transaction_id, 'evicted')
      this.#bumpMinFee(v)
    }
    this.#byId.set(tx.transaction_id, entry)
    this.#bytes += entry.bytes
    this.#bySender.set(tx.sender, [...pending, entry])
    this.#remember(tx)
    this.#opts.hooks.txAdmitted.call(tx)
    if (typeof tx.data.memo === 'string') this.#opts.hooks.messageSeen.call({ tx, status: 'pending', block: null })
  }

  /**
   * What must go to make room for `entry` under the count cap and the byte budget: the
   * lowest fee per byte first, only tails of other senders' nonce chains (the newcomer's nonce
   * follows its own sender's tail, and evicting a tail never leaves a gap). Throws
   * MEMPOOL_FULL, evicting nothing, when there is no such room or the newcomer's fee does not
   * cover the highest displaced fee rate plus the incremental fee, over its own size.
   */
  #victimsFor (entry: Entry): Entry[] {
    let count = this.#byId.size + 1 - this.capacity
    let bytes = this.#bytes + entry.bytes - this.maxBytes
    if (count <= 0 && bytes <= 0) return []
    if (entry.bytes > this.maxBytes) throw new TxError(TxErrorCode.MEMPOOL_FULL, `transaction of ${entry.bytes} bytes exceeds the mempool's ${this.maxBytes}-byte budget`)
    const what = count > 0 ? `mempool full (${this.capacity} transactions)` : `mempool byte budget full (${this.maxBytes} bytes)`
    const tails = new Map<string, number>()
    for (const [owner, list] of this.#bySender) if (owner !== entry.tx.sender) tails.set(owner, list.length - 1)
    const victims: Entry[] = []
    let dearest: Entry | undefined
    while (count > 0 || bytes > 0) {
      let victim: Entry | undefined
      let victimOwner = ''
      for (const [owner, at] of tails) {
        const tail = at < 0 ? undefined : this.#bySender.get(owner)?.[at]
        if (tail !== undefined && (victim === undefined || cheaperPerByte(tail, victim))) { victim = tail; victimOwner = owner }
      }
      if (victim === undefined || !cheaperPerByte(victim, entry)) {
        throw new TxError(TxErrorCode.MEMPOOL_FULL, `${what} and the fee per byte does not beat the lowest pending`)
      }
      victims.push(victim)
      if (dearest === undefined || cheaperPerByte(dearest, victim)) dearest = victim
      tails.set(victimOwner, (tails.get(victimOwner) as number) - 1)
      count--
      bytes -= victim.bytes
    }
    // fee ≥ (dearest.fee / dearest.bytes + incremental) × entry.bytes, in integers
    const d = dearest as Entry
    const needed = d.fee * BigInt(entry.bytes) + this.incrementalFeePerByte * BigInt(entry.bytes) * BigInt(d.bytes)
    if (entry.fee * BigInt(d.bytes) < needed) {
      const neededFee = (needed + BigInt(d.bytes) - 1n) / BigInt(d.bytes)
      throw new TxError(TxErrorCode.MEMPOOL_FULL, `${what}: displacing a transaction costs its fee per byte plus the incremental relay fee of ${this.incrementalFeePerByte} bohm per byte (${neededFee} bohm for ${entry.bytes} bytes)`)
    }
    return victims
  }

  #remove (txId: string, reason: 'confirmed' | 'evicted' | 'expired' | 'invalidated'): void {
    const e = this.#byId.get(txId)
    if (e === undefined) return
    this.#byId.delete(txId)
    this.#bytes -= e.bytes
    const list = (this.#bySender.get(e.tx.sender) ?? []).filter((x) => x !== e)
    if (list.length === 0) this.#bySender.delete(e.tx.sender)
    else this.#bySender.set(e.tx.sender, list)
    this.#opts.hooks.txRemoved.call({ tx: e.tx, reason })
  }

  /**
   * Up to `max` transactions, within `budget` when given (bytes with separators, declared gas):
   * a transaction that does not fit is skipped with every later one of its sender.
   */
  select (max: number, budget?: Omit<TemplateBudget, 'count'>): Transaction[] {
    const sorted = [...this.#byId.values()].sort((a, b) => (b.fee > a.fee ? 1 : b.fee < a.fee ? -1 : a.tx.timestamp - b.tx.timestamp))
    const nextNonce = new Map<string, number>()
    const chosen: Transaction[] = []
    const taken = new Set<string>()
    const blocked = new Set<string>()
    let bytes = 0
    let gas = 0
    let progress = true
    while (progress && chosen.length < max) {
      progress = false
      for (const e of sorted) {
        if (chosen.length >= max) break
        if (taken.has(e.tx.transaction_id) || blocked.has(e.tx.sender)) continue
        const expect = nextNonce.get(e.tx.sender) ?? this.#opts.chain.getAccount(e.tx.sender).nonce
        if (e.tx.nonce !== expect) continue
        if (budget !== undefined) {
          const size = inBlockBytes(e.bytes)
          const g = declaredGas(e.tx)
          if (bytes + size > budget.bytes || gas + g > budget.gas) { blocked.add(e.tx.sender); continue }
          bytes += size
          gas += g
        }
        chosen.push(e.tx)
        taken.add(e.tx.transaction_id)
        nextNonce.set(e.tx.sender, expect + 1)
        progress = true
      }
    }
    return chosen
  }

  /** After the tip moved: drop confirmed, expired and no-longer-valid entries, then try to re-admit `returned`. */
  revalidate (confirmedIds: Iterable<string>, returned: Transaction[]): void {
    this.#blockSinceBump = true
    for (const id of confirmedIds) this.#remove(id, 'confirmed')
    this.#readmit(returned)
    const now = this.#now()
    for (const [sender, list] of [...this.#bySender.entries()]) {
      const account = this.#opts.chain.getAccount(sender)
      let expect = account.nonce
      let spend = 0n
      for (const e of list) {
        const ok = e.tx.nonce === expect && account.balance >= spend + e.amount + e.fee && e.tx.timestamp >= now - this.#ttl &&
          this.#opts.chain.stateView().get(`tx:${e.tx.transaction_id}`) === undefined
        if (!ok) { this.#remove(e.tx.transaction_id, e.tx.timestamp < now - this.#ttl ? 'expired' : 'invalidated'); continue }
        expect++
        spend += e.amount + e.fee
      }
    }
    // a block may have closed an orphan's gap (its predecessor confirmed)
    this.orphans.expire()
    for (const sender of this.orphans.senders()) this.#adoptOrphans(sender)
  }

  /**
   * Orphaned transactions precede, in nonce order, whatever their senders still have pending:
   * those pending entries are set aside while the orphans go back in through every admission
   * rule, then re-attached behind them (revalidate's sweep drops any that no longer fit), so a
   * reorg loses neither the orphan nor its successors.
   */
  #readmit (returned: Transaction[]): void {
    const back = returned.filter((tx) => !this.#byId.has(tx.transaction_id)).sort((a, b) => a.nonce - b.nonce)
    const setAside = new Map<string, Entry[]>()
    for (const sender of new Set(back.map((tx) => tx.sender))) {
      const list = this.#bySender.get(sender)
      if (list === undefined) continue
      setAside.set(sender, list)
      this.#bySender.delete(sender)
      for (const e of list) { this.#byId.delete(e.tx.transaction_id); this.#bytes -= e.bytes }
    }
    for (const tx of back) {
      // no longer valid on the new branch (its nonce spent there, its funds gone): its sender
      // sees it dropped (txRemoved), never silently lost (the test bed's partition run found it)
      try { this.#admit(tx) } catch { this.#opts.hooks.txRemoved.call({ tx, reason: 'invalidated' }) }
    }
    for (const [sender, list] of setAside) {
      const reattached = list.filter((e) => !this.#byId.has(e.tx.transaction_id))
      const kept = (this.#bySender.get(sender) ?? []).concat(reattached)
      for (const e of reattached) { this.#byId.set(e.tx.transaction_id, e); this.#bytes += e.bytes }
      this.#bySender.set(sender, kept.sort((a, b) => a.tx.nonce - b.tx.nonce))
    }
  }
}
