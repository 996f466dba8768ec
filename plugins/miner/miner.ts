// The attested miner. Per block: draw >= 64 bytes from the entropy provider (no source, no
// block: there is no software fallback), build and sign the attestation envelope, assemble
// the template, and search nonces on the worker pool until found or the tip moves.
import { entropyEvidenceOf } from '../../core/chain/entropy-evidence.ts'
import type { EntropyEvidence } from '../../core/chain/entropy-evidence.ts'
import type { Logger } from 'pino'
import type { Hooks, MiningTemplateContext } from '../../core/kernel/hooks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { ChainService } from '../../core/chain/chain-service.ts'
import type { MempoolService } from '../../core/chain/mempool-service.ts'
import type { EntropyProvider, MinerService, MinerStatus, PeerService } from '../../core/kernel/services.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import { buildAttestation, verifyAttestation } from '../../core/chain/attestation.ts'
import type { Attestation, Block, Transaction } from '../../core/chain/types.ts'
import type { EntropyDraw } from '../../core/kernel/services.ts'
import { assembleBlock, fitToBudget, templateBudget } from '../../core/chain/template.ts'
import { blockSize } from '../../core/chain/block-size.ts'
import { BlockError } from '../../core/chain/errors.ts'
import { healthViolation } from '../../core/entropy/health.ts'
import type { PowWorkerPool } from '../../core/pow/worker-pool.ts'
import { acceptTappedTransactions } from './template-tap.ts'
import type { Cores } from '../../core/cores/cores.ts'
import type { SyncGate } from './sync-gate.ts'
import { bitsTargetBytes, difficultyOfBits } from '../../core/chain/target.ts'

export const ENTROPY_BYTES_PER_BLOCK = 64
/** a template older than this is rebuilt (fresh timestamp, new transactions) */
const TEMPLATE_MAX_AGE_MS = 20_000
/** how long hashing waits for a peer's block at our height, relayed on its proven work, to be
 *  connected (tens of ms when it is good) before mining on its parent again */
export const COMPETITOR_HOLD_MS = 2000

export interface MinerOptions {
  params: NetworkParams
  chain: ChainService
  mempool: MempoolService
  entropy: EntropyProvider
  hooks: Hooks
  logger: Logger
  pool: PowWorkerPool
  /** the kernel's cores: templates and envelopes are hashed and signed with its SHA3 and ML-DSA */
  cores: Pick<Cores, 'sha3' | 'mldsa' | 'bls'>
  /** only its address is used: the payout key never needs to be on the node */
  payout: Pick<Wallet, 'address'>
  attestationKey: Wallet
  peers?: PeerService
  pace: boolean
  signal: AbortSignal
  /** holds the first block until this node has synced with its peers (bounded) */
  syncGate?: SyncGate
  /** COMPETITOR_HOLD_MS unless a test says otherwise */
  competitorHoldMs?: number
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
  /** times hashing waited for a relayed competitor to be connected */
  heldForCompetitors = 0
  /** the height being mined, from the template's making to the end of its search */
  #searching: number | null = null
  /** a peer's block at the height we mine, relayed (its work proven) and not yet connected:
   *  until it is (or is refused, or the hold ends), a block we found on its parent would only
   *  be its stale competitor, so hashing waits */
  #competitor: { height: number; hash: string; until: number; wake: AbortController } | null = null

  constructor (o: MinerOptions) {
    this.#o = o
    o.hooks.tipChanged.tap('miner', () => {
      this.#tipAbort?.abort()
      this.#competitor?.wake.abort()
    })
    o.hooks.blockRelayed.tap('miner', ({ height, hash }) => {
      if (height !== this.#searching || this.#competitor !== null) return
      this.#competitor = { height, hash, until: Date.now() + (o.competitorHoldMs ?? COMPETITOR_HOLD_MS), wake: new AbortController() }
      this.#tipAbort?.abort()
    })
    o.hooks.blockRejected.tap('miner', ({ hash }) => { if (this.#competitor?.hash === hash) this.#competitor.wake.abort() })
  }

  /** the relayed block hashing waits for now, if any */
  competitorHeld (): { height: number; hash: string } | null {
    const c = this.#competitor
    return c === null ? null : { height: c.height, hash: c.hash }
  }

  /** waits while a relayed block at `height` is being connected; false when the tip moved meanwhile */
  async #holdForCompetitor (height: number, parentHash: string): Promise<boolean> {
    const c = this.#competitor
    if (c === null) return true
    if (c.height === height && Date.now() < c.until && !c.wake.signal.aborted) {
      this.heldForCompetitors++
      await sleep(c.until - Date.now(), AbortSignal.any([this.#o.signal, c.wake.signal]))
    }
    if (this.#competitor === c) this.#competitor = null
    return this.#o.chain.tip().hash === parentHash
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

  hashesTried (): number { return this.#o.pool.hashesTried }

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
      const gate = this.#o.syncGate?.check() ?? null
      if (gate !== null && !gate.open) {
        this.#halt(gate.reason)
        await sleep(500, signal)
        continue
      }
      if (gate?.open === true) this.#o.logger.info({ why: gate.why }, 'mining may start')
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
      } finally {
        this.#searching = null
      }
    }
    this.#running = false
  }

  async #mineOne (): Promise<void> {
    const { params, chain, signal } = this.#o
    const parent = chain.tip()
    if (!await this.#holdForCompetitor(parent.height + 1, parent.hash) || signal.aborted) return
    // from here (entropy, envelope, template, search) a relayed block at this height stops us
    this.#searching = parent.height + 1
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
    // the envelope's own check pairs its rounds on this thread: the BLS core must be instantiated
    await this.#o.cores.bls.ready()
    const timestamp = Math.max(Date.now() / 1000, parent.timestamp + 0.001)
    const attestation = this.#attest(draw, timestamp)
    if (this.#haltedReason !== null) this.#o.logger.info({ source: draw.source }, 'mining resumed')
    this.#haltedReason = null
    this.#running = true
    this.#lastSource = draw.source
    const bits = chain.nextBits()
    const difficulty = difficultyOfBits(bits)
    const supply = chain.totalSupply()
    // filled by count, bytes and gas; a tap of miningTemplate may only reorder or drop them
    const header = { parent, miner: this.#o.payout.address, timestamp, bits, supply, attestation }
    const budget = templateBudget(params, header)
    const transactions = this.#tapTemplate(this.#o.mempool.select(budget.count, budget), Object.freeze({ height: parent.height + 1, previousHash: parent.hash, difficulty, timestamp }))
    const { block, prefix } = assembleBlock(params, { ...header, transactions: fitToBudget(transactions, budget) }, this.#o.cores.sha3)
    const size = blockSize(block)
    if (size > params.maxBlockBytes) throw new Error(`template of ${size} bytes exceeds the ${params.maxBlockBytes}-byte block limit`)

    const abort = new AbortController()
    this.#tipAbort = abort
    const onStop = (): void => abort.abort()
    signal.addEventListener('abort', onStop, { once: true })
    const stale = setTimeout(() => abort.abort(), TEMPLATE_MAX_AGE_MS)
    const before = this.#o.pool.hashesTried
    let found
    try {
      // a competitor relayed while the template was made: hold before searching at all
      found = this.#competitor === null ? await this.#o.pool.search({ prefix, target: bitsTargetBytes(block.bits), signal: abort.signal }) : null
    } finally {
      clearTimeout(stale)
      signal.removeEventListener('abort', onStop)
      this.#tipAbort = null
      this.#account(this.#o.pool.hashesTried - before)
    }
    if (found === null || signal.aborted || chain.tip().hash !== parent.hash) return
    block.nonce = found.nonce
    block.hash = Buffer.from(found.hash).toString('hex')
    // announced now, connected meanwhile (Bitcoin Core's NewPoWValidBlock): every millisecond
    // of our own connect would be a millisecond more for the others to find a competitor
    this.#o.hooks.blockFound.call(block)
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

  /** The offered transactions through the miningTemplate hook: the tap's order and choice when
   *  acceptTappedTransactions allows it, else the offer unchanged (and a warning). */
  #tapTemplate (offered: Transaction[], context: MiningTemplateContext): Transaction[] {
    const hook = this.#o.hooks.miningTemplate
    if (hook.taps.length === 0) return offered
    // taps get copies: one that edits a transaction in place cannot touch the mempool's (at
    // most maxTxPerBlock of them, a few hundred KiB)
    const result = acceptTappedTransactions(offered, hook.call(structuredClone(offered), context))
    if (result.ok) return result.transactions
    this.#o.logger.warn({ height: context.height, reason: result.reason }, 'miningTemplate tap result ignored; mining the untapped transactions')
    return offered
  }

  /**
   * The v2 envelope: the draw's beacon rounds and 32 of its bytes as local entropy. The derived
   * 64 bytes fail the health bounds about once in 10^5 blocks; the other 32 bytes drawn are the
   * second try. The envelope is checked with the validators' own rules before any hashing, so
   * a stale or unverifiable draw halts the miner with the rule's reason instead of wasting work
   * (and the beacon pairings land in the cache the chain uses when the block comes back).
   */
  #attest (draw: EntropyDraw, timestamp: number): Attestation {
    const { params } = this.#o
    let env: Attestation | null = null
    for (let at = 0; at + 32 <= draw.bytes.length && env === null; at += 32) {
      const candidate = buildAttestation({
        beacons: draw.beacons,
        localEntropy: draw.bytes.subarray(at, at + 32),
        source: draw.source,
        device: draw.device,
        proofType: 'entropy-commitment-v2',
        poolSize: this.#o.entropy.status().pool_available_bytes + draw.bytes.length,
        timestamp,
        signerSeed: this.#o.attestationKey.seed,
        cores: this.#o.cores
      })
      if (healthViolation(candidate.health, params.healthBounds) === null) env = candidate
    }
    draw.bytes.fill(0)
    if (env === null) throw new Error('the derived entropy failed the health bounds twice; drawing again')
    try {
      verifyAttestation(params, { timestamp, quantum_signature: { qrng_attestation: env } }, { cores: this.#o.cores })
    } catch (err) {
      if (err instanceof BlockError) throw new Error(`attestation would be rejected (${err.code}): ${err.message}`)
      throw err
    }
    return env
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
export function minedBlockLogFields (block: Block, source: string): { height: number; hash: string; txs: number; difficulty: number; source: string; evidence: EntropyEvidence } {
  // evidence: what the attestation proves (docs/entropy.md), beside the source it names
  return { height: block.height, hash: block.hash.slice(0, 16), txs: block.transactions.length, difficulty: block.difficulty, source, evidence: entropyEvidenceOf(block.quantum_signature) }
}
