// The verify pipeline: how a block's costly checks are spread over the verify pool while this
// thread validates and applies it. Validation (core/chain/validate.ts blockValidation) is
// driven stage by stage; at each stage the pipeline starts what that stage allows (the state
// read ahead after proof of work, the beacon pairings once the attestation's own checks pass,
// the signature checks and merkle leaves once the transactions are encoded), and hands the
// connect step what it must settle before anything is written (Started.deferredChecks).
import type { Logger } from 'pino'
import type { KvStore } from '../../core/kernel/kv.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import type { BlockMeta } from '../../core/chain/keys.ts'
import { StateOverlay, stateKey } from '../../core/chain/state.ts'
import { memberHexBytes } from '../../core/chain/binary-json.ts'
import { blockStateKeys } from '../../core/chain/apply.ts'
import { blockValidation, checkMerkleRoot } from '../../core/chain/validate.ts'
import type { DeferredPairings } from '../../core/chain/validate.ts'
import { leavesOfEncoded } from '../../core/chain/merkle.ts'
import { BlockError } from '../../core/chain/errors.ts'
import type { ProcessOptions } from '../../core/chain/chain-service.ts'
import type { Cores } from '../../core/cores/cores.ts'
import type { StateCache } from '../../core/chain/state-cache.ts'
import { senderPublicKey } from '../../core/chain/tx-rules.ts'
import type { SignatureCheck, SignatureVerifier } from '../../core/crypto/verify-pool.ts'
import { beaconPairingsOf, settlePairings } from '../../core/chain/attestation.ts'
import type { BeaconEvidenceView } from '../../core/chain/attestation.ts'
import { verifyPairings } from '../../core/entropy/beacon-batch.ts'
import { verifiedBeacons } from '../../core/entropy/beacon-cache.ts'
import type { BeaconPairingInput } from '../../core/entropy/beacon-verify.ts'
import type { EncodedBlock } from './block-records.ts'
import { notProcessed } from './rejections.ts'

/** below this many signatures a block verifies faster inline than through the threads */
export const PARALLEL_VERIFY_MIN = 4

/** the bytes of even-length lower-case hex text; undefined for anything else */
function hexBytes (s: unknown): Buffer | undefined {
  if (typeof s !== 'string' || s.length % 2 !== 0) return undefined
  // one decode, kept: the round trip isLowerHex makes (its bytes are what is verified)
  const bytes = Buffer.from(s, 'hex')
  return bytes.toString('hex') === s ? bytes : undefined
}

/** a block's state values read ahead (off this thread), or null when that read failed */
export type ReadAhead = Promise<ReadonlyMap<string, Buffer | undefined> | null>
/** a block's signature checks on the pool: those sent (id -> signature), and those that verified */
export interface Preverify { submitted: Map<string, string>; verified: Promise<Map<string, string>>; /** `submitted` is complete */ ready: Promise<void> }
/** what validation started for a block on the tip, for the connect step to finish */
export interface Started {
  preverified?: Preverify
  /** the block processed next (ProcessOptions.next): its checks start once this block's verdicts are in */
  next?: ProcessOptions['next']
  encoded?: EncodedBlock
  /** validation's checks left to the pool (merkle root, beacon pairings) */
  deferredChecks?: () => Promise<void>
  reads?: ReadAhead
}

/** What validating one block needs: its parent, the bits the schedule demands of it, the time. */
export interface BlockContext {
  parent: BlockMeta
  expectedBits: number
  now: number
  /** the parent is the tip: the block is connected next, so its checks are spread over the pool */
  onTip: boolean
  txForms?: readonly Buffer[]
  next?: ProcessOptions['next']
}

export interface VerifyPipelineOptions {
  db: KvStore
  params: NetworkParams
  logger: Logger
  cores: Pick<Cores, 'pow' | 'sha3' | 'mldsa' | 'bls'>
  /** committed state of hot senders (shared with the chain's writes) */
  stateCache: StateCache
  /** lets the mempool vouch for signatures it already verified */
  isVerified?: (tx: Transaction) => boolean
  signatureVerifier?: SignatureVerifier
}

export class VerifyPipeline {
  readonly params: NetworkParams
  readonly #opts: VerifyPipelineOptions
  readonly #db: KvStore
  readonly #log: Logger
  readonly #stateCache: StateCache
  /** signature checks started for a block before it is processed (ProcessOptions.next), by block object */
  readonly #ahead = new WeakMap<Block, Preverify>()

  constructor (opts: VerifyPipelineOptions) {
    this.#opts = opts
    this.params = opts.params
    this.#db = opts.db
    this.#log = opts.logger
    this.#stateCache = opts.stateCache
  }

  /**
   * Every context rule of `block` (validate.ts, in its order), starting the pool's work as the
   * stages allow. A block off the tip has its beacon pairings settled here; one on the tip
   * leaves them, and with a pool its merkle root, to Started.deferredChecks. A failure that is
   * not a rule comes out as BlockNotProcessedError.
   */
  async validate (block: Block, ctx: () => BlockContext): Promise<Started> {
    let onTip = false
    let preverified: Preverify | undefined
    let encoded: EncodedBlock | undefined
    let leaves: Promise<Uint8Array[] | null> | undefined
    let pairings: Promise<unknown> | undefined
    let reads: ReadAhead | undefined
    let next: ProcessOptions['next']
    let deferMerkle = false
    try {
      // the context is read inside: a read that fails is not a rule the block broke
      const c = ctx()
      onTip = c.onTip
      next = c.next
      // a block on the tip with more than a coinbase: worth reading ahead and hashing on the pool
      const bulk = onTip && block.transactions.length >= PARALLEL_VERIFY_MIN
      const verifier = this.#opts.signatureVerifier
      // on the tip, the pool also hashes the merkle leaves and pairs the beacon rounds, and this
      // thread checks their verdicts only once it has applied the block (connect, before any write)
      deferMerkle = bulk && verifier?.digestAll !== undefined
      const steps = blockValidation(this.params, block, {
        parent: c.parent,
        expectedBits: c.expectedBits,
        now: c.now,
        cores: this.#opts.cores,
        deferPairings: verifier?.verifyBeacons !== undefined,
        deferMerkle,
        txForms: c.txForms
      })
      let step = steps.next()
      while (step.done !== true) {
        const s = step.value
        if (s.stage === 'proof-of-work') {
          // the block's accounts and indexes are read on libuv's threads while this one encodes,
          // packs the checks and finishes validation
          if (bulk) reads = this.#readAhead(block)
        } else if (s.stage === 'pairings-owed') {
          // on the tip the pairings start now and are settled in connect; what they throw is
          // kept (not left unhandled) until it asks
          if (onTip && s.owed.pending.length > 0) pairings = this.#settlePairings(s.owed).then(() => null, (err: unknown) => err)
        } else {
          encoded = { txs: s.txs, header: s.header }
          if (deferMerkle) leaves = this.#leavesOnPool(s.txs)
          if (onTip) preverified = this.#takeAhead(block) ?? this.preverify(block, s.txs)
        }
        step = steps.next()
      }
      const deferred = step.value
      if (!onTip && deferred !== null && deferred.pending.length > 0) await this.#settlePairings(deferred)
    } catch (err) {
      if (!(err instanceof BlockError)) throw notProcessed(this.#log, block, err)
      throw err
    }
    const deferredChecks = async (): Promise<void> => {
      try {
        if (leaves !== undefined && encoded !== undefined) {
          const sha3 = this.#opts.cores.sha3
          checkMerkleRoot(block, (await leaves) ?? leavesOfEncoded(encoded.txs, sha3), sha3)
        }
        const failed = await pairings
        if (failed !== undefined && failed !== null) throw failed
      } catch (err) {
        if (!(err instanceof BlockError)) throw notProcessed(this.#log, block, err)
        throw err
      }
    }
    return { preverified, encoded, deferredChecks, reads, next }
  }

  /**
   * Starts the signature checks of the block processed next (once), for validate to take.
   * They run against the keys known now: a sender whose key the block being connected reveals
   * is left out (its transaction is verified inline, as one the pool did not check), and a
   * stored key is the one its address hashes from, so a verdict holds whenever it is used.
   */
  verifyAhead (next: NonNullable<ProcessOptions['next']>): void {
    const { block, txForms } = next
    if (this.#ahead.has(block) || this.#opts.signatureVerifier === undefined) return
    if (!Array.isArray(block.transactions) || block.transactions.length < PARALLEL_VERIFY_MIN) return
    this.#ahead.set(block, this.preverify(block, txForms))
  }

  /** the checks verifyAhead started for this very block object, taken once */
  #takeAhead (block: Block): Preverify | undefined {
    const started = this.#ahead.get(block)
    this.#ahead.delete(block)
    return started
  }

  /**
   * Verifies the block's signatures on the verifier's threads, each against the key block
   * application will use (the state's, else the first one the sender carries in this block),
   * and returns transaction id -> signature for those that verified. Anything not returned is
   * verified inline by applyBlock, which also reports the precise error for a bad one.
   */
  preverify (block: Block, encodedTxs?: readonly Uint8Array[]): Preverify {
    const submitted = new Map<string, string>()
    const verified = new Map<string, string>()
    const verifier = this.#opts.signatureVerifier
    if (verifier === undefined) return { submitted, verified: Promise.resolve(verified), ready: Promise.resolve() }
    const prepared = this.#checksOf(block, encodedTxs)
    // `submitted` is filled before the checks are sent (handlers run in the order they were added)
    const ready = prepared.then((p) => { for (const tx of p?.checked ?? []) submitted.set(tx.transaction_id, tx.signature) }, () => undefined)
    const done = prepared.then(async (p) => {
      if (p === null) return
      const results = await verifier.verifyAll(p.checks)
      results.forEach((ok, i) => { if (ok) verified.set(p.checked[i]!.transaction_id, p.checked[i]!.signature) })
    }).catch((err: unknown) => {
      this.#log.warn({ err }, 'parallel signature verification failed; verifying inline')
      verified.clear()
    })
    return { submitted, verified: done.then(() => verified), ready }
  }

  /**
   * The block's signature checks for the pool (null: too few to be worth it), each with the key
   * apply will use; the senders' stored keys come from the state cache (senders seen lately),
   * the rest from one multi-get, so the checks leave at once, without waiting for the read ahead.
   */
  async #checksOf (block: Block, encodedTxs?: readonly Uint8Array[]): Promise<{ checks: SignatureCheck[]; checked: Transaction[] } | null> {
    const isVerified = this.#opts.isVerified
    // each with its binary form from validation, whose signature bytes are already decoded
    const txs = block.transactions.flatMap((tx, i) => tx.signature !== '' && isVerified?.(tx) !== true && typeof tx.sender === 'string' ? [{ tx, encoded: encodedTxs?.[i] }] : [])
    if (txs.length < PARALLEL_VERIFY_MIN) return null
    const { found, missing } = this.#stateCache.split([...new Set(txs.map(({ tx }) => stateKey.publicKey(tx.sender)))])
    const state = new StateOverlay(this.#db, found)
    state.prefetch(missing)
    const keys = new Map<string, Uint8Array | null>()
    const checks: SignatureCheck[] = []
    const checked: Transaction[] = []
    for (const { tx, encoded } of txs) {
      // The signature goes as the bytes its binary form holds, else as its hex text, decoded by
      // the pool as it packs the check. It is not checked for lower-case hex here: apply refuses
      // a transaction whose signature is not (checkTxFormat) before it asks whether it verified.
      const message = hexBytes(tx.transaction_id)
      if (typeof tx.signature !== 'string' || message === undefined) continue
      // the key apply will use: the state's, else the one this sender revealed earlier in the block
      let known = keys.get(tx.sender)
      if (known === undefined) known = state.getPublicKey(tx.sender) ?? null
      let key: Uint8Array
      try {
        key = senderPublicKey(tx, { publicKey: known }, this.#opts.cores.sha3)
      } catch {
        keys.set(tx.sender, known)
        continue // no usable key: apply reports why
      }
      keys.set(tx.sender, key)
      checks.push({ publicKey: key, message, signature: (encoded !== undefined ? memberHexBytes(encoded, 1, 'signature') : undefined) ?? tx.signature })
      checked.push(tx)
    }
    return checks.length < PARALLEL_VERIFY_MIN ? null : { checks, checked }
  }

  /**
   * The state applying `block` reads (blockStateKeys): what the state cache holds, the rest
   * read off this thread; null if that read fails.
   */
  #readAhead (block: Block): ReadAhead {
    const { found, missing } = this.#stateCache.split([...new Set(blockStateKeys(block, this.#opts.cores.sha3))])
    return this.#db.getMany(missing).then((values) => {
      missing.forEach((k, i) => {
        found.set(k, values[i])
        this.#stateCache.remember(k, values[i])
      })
      return found
    }, (err: unknown) => {
      this.#log.warn({ err }, 'reading a block\'s state ahead failed; reading it when applying')
      return null
    })
  }

  /** The merkle leaves hashed on the verify pool; null when the pool fails (then hashed inline). */
  #leavesOnPool (txs: readonly Uint8Array[]): Promise<Uint8Array[] | null> {
    const verifier = this.#opts.signatureVerifier as Required<SignatureVerifier>
    return verifier.digestAll(txs).catch((err: unknown) => {
      this.#log.warn({ err }, 'hashing merkle leaves on the pool failed; hashing inline')
      return null
    })
  }

  /** Pairs the beacon rounds validation left owed and settles the attestation with the verdicts (throws its error). */
  async #settlePairings (owed: DeferredPairings): Promise<void> {
    settlePairings(owed.env, owed.pending, await this.#pairOnPool(owed.pending.map((p) => p.input)))
  }

  /** Beacon pairings on the verify pool (beside the ML-DSA checks); inline when the pool fails. */
  async #pairOnPool (inputs: BeaconPairingInput[]): Promise<boolean[]> {
    const verifier = this.#opts.signatureVerifier
    if (verifier?.verifyBeacons !== undefined) {
      try {
        return await verifier.verifyBeacons(inputs)
      } catch (err) {
        this.#log.warn({ err }, 'beacon verification on the pool failed; verifying inline')
      }
    }
    await this.#opts.cores.bls.ready()
    return verifyPairings(this.#opts.cores.bls, inputs)
  }

  /**
   * Batch-verifies the beacon rounds of a run of blocks before they are processed one by one
   * (sync): runs of one beacon cost two pairings per batch instead of two per round. Only
   * successes are remembered; a bad round is found again, and named, by its block's validation.
   */
  async preverifyBeacons (blocks: readonly BeaconEvidenceView[]): Promise<void> {
    const wanted = beaconPairingsOf(this.params, blocks)
    if (wanted.length === 0) return
    const results = await this.#pairOnPool(wanted.map((w) => w.input))
    wanted.forEach((w, i) => { if (results[i] === true) verifiedBeacons.add(w.cacheKey) })
  }
}
