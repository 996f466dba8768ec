// Re-verifies a run of main-chain blocks handed over by someone else (ledger verify): the
// same context checks a validator runs (format, linkage, timestamps, difficulty schedule,
// header hash, PoW, merkle root, every attestation rule and every beacon signature), with
// the beacon rounds of each batch verified together first (random linear combination). State
// (balances, transaction signatures) is not replayed: that needs the whole chain's state.
import type { NetworkParams } from './params.ts'
import type { Block } from './types.ts'
import type { BlockMeta } from './keys.ts'
import { checkBlockFormat, validateBlockContext } from './validate.ts'
import type { HeaderContext } from './validate.ts'
import { DEFAULT_POW_CORE } from '../pow/pow-core.ts'
import { DEFAULT_SHA3_CORE } from '../crypto/sha3.ts'
import { DEFAULT_MLDSA_CORE } from '../crypto/mldsa.ts'
import { genesisBlock } from './genesis.ts'
import { nextBits, retargetTimestampCount } from './difficulty.ts'
import { beaconPairingsOf, settlePairings } from './attestation.ts'
import { verifyPairings } from '../entropy/beacon-batch.ts'
import { VerifiedBeacons } from '../entropy/beacon-cache.ts'
import { DEFAULT_BLS_CORE } from '../crypto/bls.ts'
import type { BlsCore } from '../crypto/bls.ts'
import { BlockError, BlockErrorCode } from './errors.ts'

export interface VerifyFailure { height: number; code: string; reason: string }

export interface VerifyTally {
  blocks: number
  attestations: number
  /** beacon rounds quoted, and how many distinct (source, round) pairs were paired */
  beaconRounds: number
  distinctRounds: number
  unverifiable: number
}

/** Feeds blocks in height order; remembers what it needs of the last ones (linkage, difficulty window). */
export class ChainVerifier {
  readonly params: NetworkParams
  readonly tally: VerifyTally = { blocks: 0, attestations: 0, beaconRounds: 0, distinctRounds: 0, unverifiable: 0 }
  readonly failures: VerifyFailure[] = []
  readonly #cache = new VerifiedBeacons(1 << 16)
  /** the last retargetTimestampCount blocks accepted, oldest first */
  #window: BlockMeta[] = []
  readonly #now: () => number
  readonly #cores: HeaderContext['cores']

  get #bls (): BlsCore { return this.#cores.bls ?? DEFAULT_BLS_CORE }

  /**
   * `cores`: what hashes and verifies (default: the WASM PoW and SHA3 cores, native ML-DSA,
   * the JS BLS core; a WASM BLS core must be ready: Cores.ready())
   */
  constructor (params: NetworkParams, now: () => number = () => Date.now() / 1000,
    cores: HeaderContext['cores'] = { pow: DEFAULT_POW_CORE, sha3: DEFAULT_SHA3_CORE, mldsa: DEFAULT_MLDSA_CORE }) {
    this.params = params
    this.#now = now
    this.#cores = cores
  }

  /**
   * Context blocks before the first one checked (trusted: the parent and the difficulty
   * window), or the genesis block, which must be the network's.
   */
  seed (block: Block): void {
    if (block.height === 0 && block.hash !== genesisBlock(this.params).hash) {
      this.failures.push({ height: 0, code: 'GENESIS_MISMATCH', reason: `genesis ${block.hash.slice(0, 16)}… is not the ${this.params.name} genesis` })
    }
    this.#remember(block)
  }

  /** Checks a batch of consecutive blocks: their beacon rounds together, then each block in order. */
  checkBatch (blocks: readonly Block[]): void {
    const wanted = beaconPairingsOf(this.params, blocks, this.#cache)
    const results = verifyPairings(this.#bls, wanted.map((w) => w.input))
    wanted.forEach((w, i) => { if (results[i] === true) this.#cache.add(w.cacheKey) })
    this.tally.distinctRounds += wanted.length
    for (const block of blocks) this.#check(block)
  }

  #check (block: Block): void {
    const height = typeof (block as { height?: unknown }).height === 'number' ? block.height : -1
    try {
      checkBlockFormat(block)
      const parent = this.#window.at(-1)
      if (parent === undefined) throw new BlockError(BlockErrorCode.PARENT_UNKNOWN, 'no parent block to check against')
      const expectedBits = nextBits(this.params, parent.height + 1, parent.bits, () => this.#window.map((m) => m.timestamp))
      const deferred = validateBlockContext(this.params, block, { parent, expectedBits, now: this.#now(), cores: this.#cores, deferPairings: true })
      if (deferred !== null && deferred.pending.length > 0) {
        // a round the batch did not vouch for: paired here, failing with the validator's reason
        settlePairings(deferred.env, deferred.pending, verifyPairings(this.#bls, deferred.pending.map((p) => p.input)), this.#cache)
      }
    } catch (err) {
      if (!(err instanceof BlockError)) throw err
      this.failures.push({ height, code: err.code, reason: err.message })
    }
    this.tally.blocks++
    const env = block.quantum_signature?.qrng_attestation
    if (env !== undefined && env !== null) {
      this.tally.attestations++
      const quoted = Array.isArray(env.beacons) ? env.beacons.length : 0
      this.tally.beaconRounds += quoted
      if (quoted === 0) this.tally.unverifiable++
    }
    // a failed block still links the next one: every failure is reported, not only the first
    if (typeof block.hash === 'string') this.#remember(block)
  }

  #remember (block: Block): void {
    this.#window.push({ hash: block.hash, height: block.height, previous_hash: block.previous_hash, timestamp: block.timestamp, difficulty: block.difficulty, bits: block.bits, tx_count: block.transactions?.length ?? 0, miner: block.miner, work: '0', status: 'main' })
    if (this.#window.length > retargetTimestampCount(this.params)) this.#window.shift()
  }
}
