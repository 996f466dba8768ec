// The transaction load of a scenario: `rate` transactions a second, each from one of the funded
// wallets (the miners' payout wallets, whose keys the test bed made), sent to a random running
// node (its entry node). Nonces are kept here and re-read from the entry node when it refuses
// one. What the nodes admitted is judged from their own events, not from these counts.
import type { Wallet } from '../../core/chain/wallet.ts'
import type { Transaction } from '../../core/chain/types.ts'
import type { TxKind } from '../scenario/types.ts'
import type { TestbedNode } from '../node/node-process.ts'
import { chatTx, deployCounterTx, incrementTx, transferTx } from './tx-builder.ts'
import type { TxContext } from './tx-builder.ts'

export interface LoadStats { submitted: number; accepted: number; refused: Record<string, number>; byKind: Record<TxKind, number> }

const TICK_MS = 100
/** a funding transaction not confirmed within this is sent again (it may have been dropped) */
const FUNDING_RETRY_MS = 60_000
/** a refused one (the funder had no balance yet) is tried again after this, from another funder */
const FUNDING_REFUSED_RETRY_MS = 10_000

export class LoadGenerator {
  readonly stats: LoadStats = { submitted: 0, accepted: 0, refused: {}, byKind: { transfer: 0, chat: 0, call: 0 } }
  #rate = 0
  #mix: Array<[TxKind, number]> = [['transfer', 1]]
  #owed = 0
  #timer: NodeJS.Timeout | null = null
  readonly #nonces = new Map<string, number>()
  readonly #keyed = new Set<string>()
  #contract: string | null = null
  #deployId: string | null = null
  #inFlight = 0
  #sticky = false

  /** who sends: the funded wallets, then the funded load wallets (fund) */
  readonly #senders: Wallet[]
  readonly #unfunded = new Map<string, { wallet: Wallet; coin: number; nextTry: number }>()
  readonly #walletFor: (i: number) => Wallet

  readonly chainId: string
  readonly nodes: readonly TestbedNode[]
  /** the wallets funded from the start (the miners' payout wallets): they fund the others */
  readonly wallets: readonly Wallet[]
  readonly random: () => number

  constructor (chainId: string, nodes: readonly TestbedNode[], wallets: readonly Wallet[], random: () => number, walletFor: (i: number) => Wallet) {
    this.chainId = chainId
    this.nodes = nodes
    this.wallets = wallets
    this.#senders = [...wallets]
    this.random = random
    this.#walletFor = walletFor
  }

  setRate (rate: number, mix: Partial<Record<TxKind, number>> = { transfer: 1 }, entry: 'random' | 'sticky' = 'random'): void {
    this.#rate = rate
    this.#sticky = entry === 'sticky'
    this.#mix = (Object.entries(mix) as Array<[TxKind, number]>).filter(([, w]) => w > 0)
    if (this.#mix.length === 0) this.#mix = [['transfer', 1]]
    if (rate > 0 && this.#timer === null) {
      this.#timer = setInterval(() => { this.#tick() }, TICK_MS)
      this.#timer.unref()
    }
    if (rate === 0) this.stop()
  }

  stop (): void {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
    this.#rate = 0
  }

  #tick (): void {
    this.#owed += this.#rate * TICK_MS / 1000
    // a slow node must not pile up requests: at most a second's worth in flight
    while (this.#owed >= 1 && this.#inFlight < Math.max(4, this.#rate)) {
      this.#owed -= 1
      this.#inFlight++
      this.#sendOne().catch(() => { /* counted in stats */ }).finally(() => { this.#inFlight-- })
    }
    if (this.#owed > this.#rate) this.#owed = this.#rate
  }

  #pick<T> (list: readonly T[]): T | undefined { return list[Math.floor(this.random() * list.length)] }

  #kind (): TxKind {
    const total = this.#mix.reduce((s, [, w]) => s + w, 0)
    let x = this.random() * total
    for (const [k, w] of this.#mix) { if ((x -= w) < 0) return k }
    return 'transfer'
  }

  async #sendOne (): Promise<void> {
    const from = this.#pick(this.#senders)
    const home = this.nodes[from === undefined ? 0 : this.#senders.indexOf(from) % this.nodes.length]
    const entry = this.#sticky && home?.running === true ? home : this.#pick(this.nodes.filter((n) => n.running))
    if (entry === undefined || from === undefined) return
    let kind = this.#kind()
    if (kind === 'call' && this.#contract === null) {
      if (this.#deployId === null && from === this.#senders[0]) kind = 'call'
      else kind = 'transfer'
    }
    const contract = this.#contract
    const tx = await this.#submit(from, entry, kind, (c) => {
      if (kind === 'transfer') return transferTx(c, (this.#pick(this.#senders.filter((w) => w !== from)) ?? from).address, 0.01)
      if (kind === 'chat') return chatTx(c, `testbed message ${this.stats.submitted}`)
      return contract === null ? deployCounterTx(c) : incrementTx(c, contract, 1)
    })
    if (tx !== null && kind === 'call' && contract === null) this.#deployId = tx.transaction_id
  }

  /** signs with the sender's next nonce and submits; the transaction when the entry node admitted it */
  async #submit (from: Wallet, entry: TestbedNode, kind: TxKind, build: (c: TxContext) => Transaction): Promise<Transaction | null> {
    let nonce = this.#nonces.get(from.address)
    if (nonce === undefined) {
      nonce = (await entry.get<{ nonce: number }>(`/account/${from.address}`)).nonce
    }
    const tx = build({ chainId: this.chainId, from, nonce, firstOfSender: !this.#keyed.has(from.address) })
    this.#nonces.set(from.address, nonce + 1)
    this.stats.submitted++
    const res = await entry.post('/tx', tx)
    if (res.status === 200) {
      this.stats.accepted++
      this.stats.byKind[kind]++
      this.#keyed.add(from.address)
      return tx
    }
    const reason = (res.json.error ?? String(res.status)).replace(/\d+(\.\d+)?/g, 'N').slice(0, 80)
    this.stats.refused[reason] = (this.stats.refused[reason] ?? 0) + 1
    // re-read this sender's next nonce from a node next time; a chain that has not seen the
    // sender's key (the other side of a partition, a reorg) gets it with the next one
    this.#nonces.delete(from.address)
    if (/public key/i.test(res.json.error ?? '')) this.#keyed.delete(from.address)
    return null
  }

  /** who sends now */
  get senders (): readonly Wallet[] { return this.#senders }

  /**
   * `count` more senders (walletFor(0…count − 1)), so that no sender's nonces queue behind each
   * other at a high rate (a node holds at most 64 pending per sender): each is sent `coin` by
   * one of the first wallets, and joins the senders once a node shows its balance.
   */
  fund (count: number, coin: number): void {
    for (let i = 0; i < count; i++) {
      const w = this.#walletFor(i)
      if (!this.#senders.some((s) => s.address === w.address) && !this.#unfunded.has(w.address)) this.#unfunded.set(w.address, { wallet: w, coin, nextTry: 0 })
    }
  }

  /** funds the wallets not funded yet (again when that did not show) and lets those whose balance shows send (polled by the runner) */
  async checkFunding (): Promise<void> {
    const node = this.nodes.find((n) => n.running)
    if (node === undefined) return
    for (const [address, u] of this.#unfunded) {
      const { balance } = await node.get<{ balance: string }>(`/account/${address}`)
      if (BigInt(balance) > 0n) {
        this.#unfunded.delete(address)
        this.#senders.push(u.wallet)
        continue
      }
      if (Date.now() < u.nextTry) continue
      const from = this.#pick(this.wallets)
      if (from === undefined) return
      const sent = await this.#submit(from, node, 'transfer', (c) => transferTx(c, address, u.coin))
      u.nextTry = Date.now() + (sent === null ? FUNDING_REFUSED_RETRY_MS : FUNDING_RETRY_MS)
    }
  }

  /** once the deploy is confirmed, calls go to the contract it made (polled by the runner) */
  async checkDeploy (): Promise<void> {
    if (this.#deployId === null || this.#contract !== null) return
    const node = this.nodes.find((n) => n.running)
    if (node === undefined) return
    const receipt = await node.get<{ contract?: string; success: boolean } | null>(`/receipt/${this.#deployId}`)
    if (receipt?.success === true && receipt.contract !== undefined) this.#contract = receipt.contract
  }
}
