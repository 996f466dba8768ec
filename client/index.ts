// A small typed client of a node's dashboard ({dashboard_url}): read the chain, build and sign
// a transfer (DESIGN 3: chain id from the node, ML-DSA-87 over the canonical payload's
// SHA3-256), submit it with the API key and follow it to confirmation. `ledger wallet` and
// `ledger tx` are built on it; scripts import it as `ledger-node/client`.
import { signTransaction } from '../core/chain/tx.ts'
import type { Transaction, TxData } from '../core/chain/types.ts'
import { bohmToCoin, coinToBohm, isCoinAmount } from '../core/chain/money.ts'
import { normalizeAddress } from '../core/chain/address.ts'
import { MAX_MEMO_CHARS } from '../core/chain/tx-rules.ts'
import { walletFromSeed } from '../core/chain/wallet.ts'
import { readWalletFile } from '../core/kernel/wallet-file.ts'
import { openWalletFile } from '../core/kernel/wallet-keystore-file.ts'
import type { Wallet } from '../core/chain/wallet.ts'

export type { Transaction, Wallet }
/** readWalletFile: a plain file; openWalletFile(file, () => passphrase): plain or encrypted */
export { openWalletFile, readWalletFile, walletFromSeed }

import { DEFAULT_NODE_URL } from './defaults.ts'
export { DEFAULT_NODE_URL }

/** Why a call failed: `status` is the HTTP status (0 when the node could not be reached),
 *  `reason` the node's own words, `code` its rejection code when it gave one. */
export class LedgerClientError extends Error {
  readonly status: number
  readonly code: string | undefined
  constructor (message: string, status: number, code?: string) {
    super(message)
    this.name = 'LedgerClientError'
    this.status = status
    this.code = code
  }
}

export interface ChainInfo {
  height: number
  tip_hash: string
  tip_timestamp: number
  difficulty: number
  network: string
  chain_id: string
  genesis_hash: string
}

export interface AccountInfo {
  address: string
  balance: number
  spendable: number
  nonce: number
  next_nonce: number
  pending_count: number
  public_key_known: boolean
}

export interface TxStatus {
  tx_id: string
  status: 'confirmed' | 'pending'
  confirmations: number
  block_height?: number
  block_hash?: string
  sender: string
  recipient: string
  amount: number
  fee: number
  kind: string
  [field: string]: unknown
}

export type SyncState = 'idle' | 'syncing' | 'synced'

/** GET /api/status: the health summary */
export interface NodeStatus {
  node_running: boolean
  chain_height: number
  peer_count: number
  mining_active: boolean
  qrng_reachable: boolean
  simulate: boolean
  sync_state: SyncState
}

export interface PeerList {
  peer_count: number
  sync_state: SyncState
  peers: Array<{ peer_id: string; address: string; version: string; best_height: number; connected_at: number }>
}

export interface MiningInfo {
  enabled: boolean
  running: boolean
  blocks_mined: number
  miner_address: string
  hash_rate: number
  halted_reason: string | null
  [field: string]: unknown
}

/** where GET /api/search leads (the explorer resolves the same way) */
export type SearchHit =
  | { type: 'block'; height: number }
  | { type: 'tx'; tx_id: string }
  | { type: 'address'; address: string }

export interface FeeEstimate { min_fee: number; low_fee: number; medium_fee: number; high_fee: number }

export interface TransferRequest {
  /** 32-hex wallet address of the recipient */
  to: string
  /** coin */
  amount: number
  /** coin; default: the node's low fee estimate, at least its minimum */
  fee?: number
  memo?: string
}

export interface WaitOptions {
  /** give up after this long (default 120 s) */
  timeoutMs?: number
  /** poll interval (default 1 s) */
  pollMs?: number
  /** confirmations to wait for (default 1) */
  confirmations?: number
  onPoll?: (status: TxStatus | null) => void
}

export interface LedgerClientOptions {
  /** the dashboard URL (default http://127.0.0.1:8080) */
  node?: string
  /** the dashboard API key, needed to submit */
  apiKey?: string
  /** per request (default 15 s) */
  timeoutMs?: number
}

/** bound on a reply body: the largest dashboard answer is an address page, well under this */
const MAX_REPLY_BYTES = 8 * 1024 * 1024

export class LedgerClient {
  readonly node: string
  readonly #apiKey: string | undefined
  readonly #timeoutMs: number

  constructor (opts: LedgerClientOptions = {}) {
    const url = opts.node ?? DEFAULT_NODE_URL
    let parsed: URL
    try { parsed = new URL(url) } catch { throw new LedgerClientError(`--node ${url} is not a URL (e.g. ${DEFAULT_NODE_URL})`, 0) }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new LedgerClientError(`--node ${url} must be an http:// or https:// URL`, 0)
    this.node = parsed.origin + parsed.pathname.replace(/\/+$/, '')
    this.#apiKey = opts.apiKey
    this.#timeoutMs = opts.timeoutMs ?? 15_000
  }

  async #call<T> (method: 'GET' | 'POST', path: string, body?: unknown, auth = false): Promise<T> {
    return (await this.#request<T>(method, path, body, auth)).body
  }

  async #request<T> (method: 'GET' | 'POST', path: string, body?: unknown, auth = false): Promise<{ body: T; headers: Headers }> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (auth) {
      if (this.#apiKey === undefined || this.#apiKey.length === 0) throw new LedgerClientError('submitting needs the dashboard API key: pass --api-key KEY or --api-key-file FILE (the node writes it to <data dir>/api_key.json), or set LEDGER_API_KEY', 401)
      headers.authorization = `Bearer ${this.#apiKey}`
    }
    let res: Response
    try {
      res = await fetch(this.node + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(this.#timeoutMs) })
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name
      throw new LedgerClientError(`cannot reach the node at ${this.node} (${cause}); is it running? (--node sets its dashboard URL)`, 0)
    }
    const text = await readBounded(res)
    let parsed: unknown
    try { parsed = JSON.parse(text) } catch {
      throw new LedgerClientError(`${method} ${path}: the node answered ${res.status} with a body that is not JSON; is ${this.node} a ledger dashboard?`, res.status)
    }
    if (!res.ok) {
      const b = parsed as { error?: unknown; reason?: unknown; code?: unknown }
      const reason = typeof b.reason === 'string' ? b.reason : typeof b.error === 'string' ? b.error : `HTTP ${res.status}`
      throw new LedgerClientError(reason, res.status, typeof b.code === 'string' ? b.code : undefined)
    }
    return { body: parsed as T, headers: res.headers }
  }

  chain (): Promise<ChainInfo> { return this.#call('GET', '/api/chain') }

  status (): Promise<NodeStatus> { return this.#call('GET', '/api/status') }

  peers (): Promise<PeerList> { return this.#call('GET', '/api/peers') }

  mining (): Promise<MiningInfo> { return this.#call('GET', '/api/mining') }

  /** GET /api/search: a height, block hash, tx id or unique 8+ hex prefix, address or user
   *  name; a 404 or an ambiguous prefix (400) throws with the node's words */
  async search (q: string): Promise<SearchHit> {
    const { body, headers } = await this.#request<Record<string, unknown>>('GET', `/api/search?q=${encodeURIComponent(q)}`)
    const type = headers.get('x-result-type')
    if (type === 'tx' && typeof body.tx_id === 'string') return { type, tx_id: body.tx_id }
    // the address page keys by the 40-hex VM form; a wallet's 32-hex form is wallet_address
    if (type === 'address' && typeof body.address === 'string') return { type, address: typeof body.wallet_address === 'string' ? body.wallet_address : body.address }
    if (type === 'block' && typeof body.height === 'number') return { type, height: body.height }
    throw new LedgerClientError(`search ${q}: the node's answer has no result type; is ${this.node} a ledger dashboard?`, 0)
  }

  /** a 32-hex wallet address as given, else the wallet of the messenger user of that name */
  async resolveRecipient (to: string): Promise<{ address: string; name?: string }> {
    const direct = normalizeAddress(to)
    if (direct !== null) {
      if (direct.form !== 'wallet') throw new LedgerClientError(`--to must be a 32-hex wallet address or a user name, got '${to}' (a contract address)`, 0)
      return { address: direct.address }
    }
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(to)) throw new LedgerClientError(`--to must be a 32-hex wallet address or a user name, got '${to}'`, 0)
    let hit: SearchHit
    try {
      hit = await this.search(to)
    } catch (err) {
      if (err instanceof LedgerClientError && err.status === 404) throw new LedgerClientError(`--to ${to}: no such user name and not a 32-hex wallet address`, 404)
      throw err
    }
    if (hit.type !== 'address' || normalizeAddress(hit.address)?.form !== 'wallet') throw new LedgerClientError(`--to ${to} is not a user name (it names ${hit.type === 'address' ? 'a contract address' : hit.type === 'tx' ? 'a transaction' : 'a block'})`, 0)
    return { address: hit.address, name: to }
  }

  /** a full transaction id from a full id or a unique prefix of 8+ hex characters */
  async resolveTxId (idOrPrefix: string): Promise<string> {
    const id = idOrPrefix.trim().replace(/^0x/, '').toLowerCase()
    if (/^[0-9a-f]{64}$/.test(id)) return id
    if (!/^[0-9a-f]{8,63}$/.test(id)) throw new LedgerClientError(`a transaction id is 64 hex characters, or a unique prefix of 8 or more; got '${idOrPrefix}'`, 0)
    const hit = await this.search(id)
    if (hit.type !== 'tx') throw new LedgerClientError(`no transaction id starts with ${id}`, 404)
    return hit.tx_id
  }

  fees (): Promise<FeeEstimate> { return this.#call('GET', '/api/fee') }

  account (address: string): Promise<AccountInfo> { return this.#call('GET', `/api/account/${encodeURIComponent(address)}`) }

  /** the transaction, or null when the node knows no such id (neither chain nor mempool) */
  async tx (txId: string): Promise<TxStatus | null> {
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(txId)) throw new LedgerClientError(`transaction id must be 64 hex characters, got '${txId}'`, 0)
    try {
      return await this.#call<TxStatus>('GET', `/api/tx/${txId.replace(/^0x/, '').toLowerCase()}`)
    } catch (err) {
      if (err instanceof LedgerClientError && err.status === 404) return null
      throw err
    }
  }

  /** POST /api/tx/submit; throws LedgerClientError with the mempool's reason on refusal */
  async submit (tx: Transaction): Promise<string> {
    const r = await this.#call<{ tx_id: string }>('POST', '/api/tx/submit', tx, true)
    return r.tx_id
  }

  /** builds and signs a transfer from `wallet` against the node's chain id and nonce */
  async buildTransfer (wallet: Wallet, req: TransferRequest): Promise<Transaction> {
    const to = normalizeAddress(req.to)
    if (to === null || to.form !== 'wallet') throw new LedgerClientError(`--to must be a 32-hex wallet address, got '${req.to}'`, 0)
    if (!isCoinAmount(req.amount)) throw new LedgerClientError(`--amount must be a non-negative coin amount with at most 18 decimals, got ${String(req.amount)}`, 0)
    if (req.fee !== undefined && !isCoinAmount(req.fee)) throw new LedgerClientError(`--fee must be a non-negative coin amount with at most 18 decimals, got ${String(req.fee)}`, 0)
    if (req.memo !== undefined && (req.memo.length === 0 || req.memo.length > MAX_MEMO_CHARS)) throw new LedgerClientError(`--memo must be 1-${MAX_MEMO_CHARS} characters`, 0)
    const [chain, account, fees] = await Promise.all([this.chain(), this.account(wallet.address), req.fee === undefined ? this.fees() : undefined])
    const fee = req.fee ?? Math.max(fees?.low_fee ?? 0, fees?.min_fee ?? 0)
    const needed = coinToBohm(req.amount) + coinToBohm(fee)
    if (needed > coinToBohm(account.spendable)) {
      const pending = account.spendable !== account.balance ? `, ${account.balance} with ${account.pending_count} pending` : ''
      throw new LedgerClientError(`insufficient funds: ${wallet.address} has ${account.spendable} coin spendable${pending}; this transfer needs ${bohmToCoin(needed)} (${req.amount} + fee ${fee})`, 0, 'INSUFFICIENT_FUNDS')
    }
    const data: TxData = {}
    if (req.memo !== undefined) data.memo = req.memo
    if (!account.public_key_known) data.public_key = Buffer.from(wallet.publicKey).toString('hex')
    return signTransaction(chain.chain_id, {
      sender: wallet.address,
      recipient: to.address,
      amount: req.amount,
      fee,
      timestamp: Date.now() / 1000,
      nonce: account.next_nonce,
      data
    }, wallet.seed)
  }

  /** build, sign, submit; returns the submitted transaction */
  async send (wallet: Wallet, req: TransferRequest): Promise<Transaction> {
    const tx = await this.buildTransfer(wallet, req)
    await this.submit(tx)
    return tx
  }

  /** polls until the transaction has `confirmations`; throws on timeout or when it vanishes */
  async waitForConfirmation (txId: string, opts: WaitOptions = {}): Promise<TxStatus> {
    const deadline = Date.now() + (opts.timeoutMs ?? 120_000)
    const want = opts.confirmations ?? 1
    let seen = false
    let misses = 0
    for (;;) {
      const s = await this.tx(txId)
      opts.onPoll?.(s)
      if (s !== null) {
        seen = true
        misses = 0
        if (s.status === 'confirmed' && s.confirmations >= want) return s
      } else if (seen && ++misses >= 3) {
        // pending, then neither pending nor confirmed: evicted or dropped by a reorg
        throw new LedgerClientError(`transaction ${txId} left the mempool without being confirmed (evicted, expired or replaced); check the balance and nonce and send again`, 404)
      }
      if (Date.now() >= deadline) {
        throw new LedgerClientError(`gave up waiting for ${txId} after ${Math.round((opts.timeoutMs ?? 120_000) / 1000)} s (${s === null ? 'unknown to the node' : `${s.status}, ${s.confirmations} confirmation(s)`}); 'ledger tx status ${txId}' keeps following it`, 408)
      }
      await new Promise((resolve) => setTimeout(resolve, opts.pollMs ?? 1000))
    }
  }
}

async function readBounded (res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0')
  if (declared > MAX_REPLY_BYTES) throw new LedgerClientError(`the node's reply is ${declared} bytes, over the client's ${MAX_REPLY_BYTES}`, res.status)
  if (res.body === null) return ''
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = res.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > MAX_REPLY_BYTES) {
      await reader.cancel()
      throw new LedgerClientError(`the node's reply exceeds ${MAX_REPLY_BYTES} bytes`, res.status)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
