// The faucet queue: a drip the faucet wallet cannot pay now is not lost (SPEC 3 says the
// approval still succeeds with faucet_tx null); it waits, durably in the admin database, and
// is paid in the order it was asked for as soon as the wallet can, checked on every block.
// A paid drip is kept until its transaction is in a block, so a drip whose transaction left
// the mempool unconfirmed (restart, eviction, reorg) is paid again rather than forgotten.
import type { Logger } from 'pino'
import type { KvStore } from '../../../core/kernel/kv.ts'
import { jsonValue } from '../../../core/kernel/kv.ts'
import type { ChainService } from '../../../core/chain/chain-service.ts'
import type { MempoolService } from '../../../core/chain/mempool-service.ts'
import type { DripRecord, DripView, FaucetService, FaucetState } from '../../../core/kernel/account-service.ts'

export const FAUCET_PREFIX = 'faucet:'
const dripKey = (seq: number): string => `${FAUCET_PREFIX}${String(seq).padStart(12, '0')}`

/** signs and admits the drip's transaction; throws the mempool's refusal */
export type DripPayer = (address: string, amountCoin: number) => { transaction_id: string }

export interface FaucetQueueOptions {
  db: KvStore
  chain: Pick<ChainService, 'getTransaction'>
  mempool: Pick<MempoolService, 'has'>
  pay: DripPayer
  logger: Logger
  /** coin per drip */
  amount: number
  /** the address the faucet pays from, shown to the admin */
  from: string
  now?: () => number
}

export class FaucetQueue implements FaucetService {
  readonly from: string
  readonly amount: number
  readonly #o: FaucetQueueOptions
  readonly #now: () => number
  /** by seq, ascending: the map keeps insertion order and seqs only grow */
  readonly #drips = new Map<number, DripRecord>()
  #seq = 0
  #lock: Promise<unknown> = Promise.resolve()
  #processQueued = false

  private constructor (o: FaucetQueueOptions) {
    this.#o = o
    this.from = o.from
    this.amount = o.amount
    this.#now = o.now ?? (() => Date.now() / 1000)
  }

  static async open (o: FaucetQueueOptions): Promise<FaucetQueue> {
    const q = new FaucetQueue(o)
    for await (const [, v] of o.db.entries({ gte: FAUCET_PREFIX, lt: `${FAUCET_PREFIX}\xff` })) {
      const r = JSON.parse(v.toString('utf8')) as DripRecord
      q.#drips.set(r.seq, r)
      q.#seq = Math.max(q.#seq, r.seq)
    }
    if (q.#drips.size > 0) o.logger.info({ drips: q.#drips.size }, 'faucet queue loaded')
    return q
  }

  // ---- reads

  list (): DripView[] {
    let waiting = 0
    return [...this.#drips.values()].map((r) => {
      const sent = r.tx_id !== null
      return { ...r, status: sent ? 'sent' : 'waiting', position: sent ? null : ++waiting }
    })
  }

  /** the newest drip for an address, or null when none is outstanding */
  stateOf (address: string): FaucetState | null {
    const views = this.list()
    const waiting = views.filter((v) => v.status === 'waiting').length
    const mine = views.filter((v) => v.address === address).at(-1)
    if (mine === undefined) return null
    return { status: mine.status, position: mine.position, waiting, tx_id: mine.tx_id, amount: mine.amount }
  }

  // ---- mutations (serialized; each durable before it is answered)

  /** Asks for a drip: paid now if nobody waits ahead and the wallet can, else queued.
   *  Returns the transaction id, or null when the drip waits. */
  async request (address: string, name: string): Promise<string | null> {
    return await this.#serial(async () => {
      const r = await this.#add(address, name)
      // first come, first paid: a new drip never overtakes one that waits
      if ([...this.#drips.values()].some((d) => d.tx_id === null && d.seq < r.seq)) return null
      return await this.#attempt(r)
    })
  }

  /** The admin's "pay again": the user's waiting drip is tried now, ahead of the line; a drip
   *  already sent and not yet in a block is left alone (no double payment); with none
   *  outstanding a new drip is queued and tried. Returns the drip afterwards. */
  async payAgain (address: string, name: string): Promise<DripView> {
    return await this.#serial(async () => {
      const outstanding = [...this.#drips.values()].filter((d) => d.address === address)
      const sent = outstanding.find((d) => d.tx_id !== null)
      if (sent !== undefined) return { ...sent, status: 'sent', position: null }
      const r = outstanding.at(0) ?? await this.#add(address, name)
      await this.#attempt(r)
      const view = this.list().find((v) => v.seq === r.seq)
      return view ?? { ...r, status: 'sent', position: null }
    })
  }

  /** The admin's "cancel": drops the user's waiting drips (a sent one stays: it may confirm).
   *  Returns how many were dropped. */
  async cancel (address: string): Promise<number> {
    return await this.#serial(async () => {
      const waiting = [...this.#drips.values()].filter((d) => d.address === address && d.tx_id === null)
      if (waiting.length === 0) return 0
      await this.#o.db.write(waiting.map((d) => ({ type: 'del' as const, key: dripKey(d.seq) })), { sync: true })
      for (const d of waiting) this.#drips.delete(d.seq)
      this.#o.logger.info({ to: address, drips: waiting.length }, 'faucet drip cancelled by the admin')
      return waiting.length
    })
  }

  /** On each block: forget drips now in a block, re-queue those that left the mempool
   *  unconfirmed, then pay waiting drips in order until the wallet cannot. */
  process (): Promise<void> {
    if (this.#processQueued) return Promise.resolve()
    this.#processQueued = true
    return this.#serial(async () => {
      this.#processQueued = false
      for (const r of [...this.#drips.values()]) {
        if (r.tx_id === null) continue
        if (await this.#o.chain.getTransaction(r.tx_id) !== undefined) {
          await this.#o.db.write([{ type: 'del', key: dripKey(r.seq) }], { sync: true })
          this.#drips.delete(r.seq)
          this.#o.logger.info({ to: r.address, name: r.name, tx_id: r.tx_id }, 'faucet drip confirmed')
        } else if (!this.#o.mempool.has(r.tx_id)) {
          await this.#put({ ...r, tx_id: null, last_error: `transaction ${r.tx_id.slice(0, 16)} left the mempool unconfirmed` })
        }
      }
      for (const r of [...this.#drips.values()]) {
        if (r.tx_id !== null) continue
        if (await this.#attempt(r) === null) break
      }
    })
  }

  // ---- internals

  #serial<T> (fn: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(fn)
    this.#lock = run.catch(() => undefined)
    return run
  }

  async #put (r: DripRecord): Promise<void> {
    await this.#o.db.write([{ type: 'put', key: dripKey(r.seq), value: jsonValue(r) }], { sync: true })
    this.#drips.set(r.seq, r)
  }

  async #add (address: string, name: string): Promise<DripRecord> {
    const r: DripRecord = { seq: this.#seq + 1, address, name, amount: this.amount, requested_at: this.#now(), attempts: 0, last_attempt_at: null, last_error: null, tx_id: null }
    await this.#put(r)
    this.#seq = r.seq
    return r
  }

  /** one payment try; the record is rewritten either way (tx id, or why not) */
  async #attempt (r: DripRecord): Promise<string | null> {
    const tried = { ...r, attempts: r.attempts + 1, last_attempt_at: this.#now() }
    try {
      const tx = this.#o.pay(r.address, r.amount)
      await this.#put({ ...tried, tx_id: tx.transaction_id, last_error: null })
      this.#o.logger.info({ to: r.address, name: r.name, tx_id: tx.transaction_id, amount: r.amount }, 'faucet drip submitted')
      return tx.transaction_id
    } catch (err) {
      const e = err as Error & { code?: string }
      // logged once per drip, not on every block it keeps waiting
      if (r.attempts === 0) this.#o.logger.warn({ to: r.address, name: r.name, code: e.code ?? null, reason: e.message }, `faucet drip failed: ${e.message}; queued`)
      await this.#put({ ...tried, last_error: e.message })
      return null
    }
  }
}
