// The attested miner. Per block: draw >= 64 bytes from the entropy provider (no source, no
// block: there is no software fallback), build and sign the attestation envelope, assemble
// the template, and search nonces on the worker pool until found or the tip moves.
import type { Logger } from 'pino'
import type { Hooks } from '../../core/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { EntropyProvider, MinerService, MinerStatus, PeerService } from '../../core/services.ts'
import type { Wallet } from '../../core/wallet.ts'
import type { Block } from '../../core/chain/types.ts'
import { buildAttestation } from '../../core/chain/attestation.ts'
import { assembleBlock } from '../../core/chain/template.ts'
import { BlockError } from '../../core/chain/errors.ts'
import { healthSnapshot } from '../../core/entropy/health.ts'
import type { PowWorkerPool } from '../../core/pow/worker-pool.ts'

export const ENTROPY_BYTES_PER_BLOCK = 64
/** a template older than this is rebuilt (fresh timestamp, new transactions) */
const TEMPLATE_MAX_AGE_MS = 20_000

export interface MinerOptions {
  params: NetworkParams
  chain: ChainService
  mempool: MempoolService
  entropy: EntropyProvider
  hooks: Hooks
  logger: Logger
  pool: PowWorkerPool
  payout: Wallet
  attestationKey: Wallet
  peers?: PeerService
  pace: boolean
  signal: AbortSignal
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> => new Promise((resolve) => {
  if (signal.aborted) { resolve(); return }
  const t = setTimeout(done, ms)
  function done (): void { clearTimeout(t); signal.removeEventListener('abort', done); resolve() }
  signal.addEventListener('abort', done, { once: true })
})

export class Miner implements MinerService {
  readonly #o: MinerOptions
  #running = false
  #blocksMined = 0
  #haltedReason: string | null = null
  #lastSource = ''
  #hashes = 0
  #hashWindowStart = Date.now()
  #hashRate = 0
  #tipAbort: AbortController | null = null
  #loop: Promise<void> | null = null

  constructor (o: MinerOptions) {
    this.#o = o
    o.hooks.tipChanged.tap('miner', () => { this.#tipAbort?.abort() })
  }

  status (): MinerStatus {
    return {
      enabled: true,
      running: this.#running,
      blocks_mined: this.#blocksMined,
      miner_address: this.#o.payout.address,
      simulation_mode: false,
      qrng_source: this.#lastSource,
      hash_rate: this.#hashRate,
      halted_reason: this.#haltedReason
    }
  }

  start (): void { this.#loop ??= this.#run() }

  async stop (): Promise<void> {
    this.#tipAbort?.abort()
    await this.#loop
  }

  #halt (reason: string): void {
    if (this.#haltedReason !== reason) this.#o.logger.warn({ reason }, 'mining halted')
    this.#haltedReason = reason
    this.#running = false
  }

  async #run (): Promise<void> {
    const { signal } = this.#o
    let backoff = 500
    while (!signal.aborted) {
      if (this.#o.peers?.syncState() === 'syncing') {
        this.#halt('syncing with peers')
        await sleep(1000, signal)
        continue
      }
      try {
        await this.#mineOne()
        backoff = 500
      } catch (err) {
        if (signal.aborted) break
        this.#halt((err as Error).message)
        await sleep(backoff, signal)
        backoff = Math.min(backoff * 2, 5000)
      }
    }
    this.#running = false
  }

  async #mineOne (): Promise<void> {
    const { params, chain, signal } = this.#o
    const parent = chain.tip()
    if (this.#o.pace) {
      const wait = (parent.timestamp + params.blockTimeTarget) * 1000 - Date.now()
      if (wait > 0) await sleep(wait, signal)
      if (signal.aborted || chain.tip().hash !== parent.hash) return
    }

    let draw
    try {
      draw = await this.#o.entropy.getBytes(ENTROPY_BYTES_PER_BLOCK)
    } catch (err) {
      throw new Error(`no entropy: ${(err as Error).message}`)
    }
    if (draw.bytes.length < ENTROPY_BYTES_PER_BLOCK) throw new Error(`entropy source returned ${draw.bytes.length} bytes, need ${ENTROPY_BYTES_PER_BLOCK}`)
    if (this.#haltedReason !== null) this.#o.logger.info({ source: draw.source }, 'mining resumed')
    this.#haltedReason = null
    this.#running = true
    this.#lastSource = draw.source

    const timestamp = Math.max(Date.now() / 1000, parent.timestamp + 0.001)
    const stats = healthSnapshot(draw.bytes)
    const attestation = buildAttestation({
      entropy: draw.bytes,
      source: draw.source,
      device: draw.device,
      proofType: 'entropy-commitment-v1',
      health: { monobit_ratio: stats.monobit_ratio, fano_factor: stats.fano_factor, pool_size: this.#o.entropy.status().pool_available_bytes + draw.bytes.length, timestamp },
      signerSeed: this.#o.attestationKey.seed
    })
    const template = this.#o.hooks.miningTemplate.call({
      height: parent.height + 1,
      previousHash: parent.hash,
      transactions: this.#o.mempool.select(params.maxTxPerBlock),
      difficulty: chain.nextDifficulty(),
      timestamp
    })
    const { block, prefix } = assembleBlock(params, {
      parent,
      miner: this.#o.payout.address,
      transactions: template.transactions.slice(0, params.maxTxPerBlock),
      timestamp: template.timestamp,
      difficulty: template.difficulty,
      supply: chain.totalSupply(),
      attestation
    })

    const abort = new AbortController()
    this.#tipAbort = abort
    const onStop = (): void => abort.abort()
    signal.addEventListener('abort', onStop, { once: true })
    const stale = setTimeout(() => abort.abort(), TEMPLATE_MAX_AGE_MS)
    const before = this.#o.pool.hashesTried
    let found
    try {
      found = await this.#o.pool.search({ prefix, difficulty: block.difficulty, signal: abort.signal })
    } finally {
      clearTimeout(stale)
      signal.removeEventListener('abort', onStop)
      this.#tipAbort = null
      this.#account(this.#o.pool.hashesTried - before)
    }
    if (found === null || signal.aborted || chain.tip().hash !== parent.hash) return
    block.nonce = found.nonce
    block.hash = Buffer.from(found.hash).toString('hex')
    try {
      await chain.processBlock(block, 'miner')
    } catch (err) {
      if (err instanceof BlockError) { this.#o.logger.error({ code: err.code }, `own block rejected: ${err.message}`); return }
      throw err
    }
    this.#blocksMined++
    this.#o.hooks.blockMined.call(block)
    this.#o.logger.info(minedBlockLogFields(block, draw.source), 'mined block')
  }

  #account (hashes: number): void {
    this.#hashes += hashes
    const elapsed = (Date.now() - this.#hashWindowStart) / 1000
    if (elapsed >= 5) {
      this.#hashRate = Math.round(this.#hashes / elapsed)
      this.#hashes = 0
      this.#hashWindowStart = Date.now()
    }
  }
}

/** The "mined block" log line: txs counts every transaction, the coinbase included, exactly
 *  as the explorer's tx_count does, so the log and the explorer never disagree. */
export function minedBlockLogFields (block: Block, source: string): { height: number; hash: string; txs: number; difficulty: number; source: string } {
  return { height: block.height, hash: block.hash.slice(0, 16), txs: block.transactions.length, difficulty: block.difficulty, source }
}
