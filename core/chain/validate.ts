// Context checks of a block against its parent, before any state is touched: proof-of-work
// first, then version, linkage, time, difficulty, size, merkle root and attestation (SPEC 2.8).
import type { NetworkParams } from './params.ts'
import type { Block } from './types.ts'
import { MINING_REWARD_SENDER } from './types.ts'
import { BlockError, BlockErrorCode } from './errors.ts'
import { encodeHeaderPrefix, headerWithNonce } from './header.ts'
import { leavesOfEncoded, merkleRootOfLeaves } from './merkle.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import type { MldsaCore } from '../crypto/mldsa.ts'
import { encodeTx } from './tx-codec.ts'
import { BinaryJsonError } from './binary-json.ts'
import { checkEnvelopePresent, checkAttestation, verifyAttestation } from './attestation.ts'
import type { PendingPairing } from './attestation.ts'
import type { Attestation } from './types.ts'
import { BLOCK_VERSION } from './genesis.ts'
import type { BlockMeta } from './keys.ts'
import { meetsTarget } from '../pow/pow-core.ts'
import { bitsProblem, bitsTargetBytes, decodeBits, difficultyOfBits } from './target.ts'
import type { PowCore } from '../pow/pow-core.ts'
import { ATTESTATION_KEYS, BEACON_KEYS, BLOCK_KEYS, HEALTH_KEYS, QUANTUM_SIGNATURE_KEYS, TX_KEYS, unknownKey, unknownKeyMessage } from './shape.ts'
import { blockSizeOfEncoded } from './block-size.ts'
import { declaredGas } from './tx-rules.ts'
import type { BlsCore } from '../crypto/bls.ts'

const HASH_RE = /^[0-9a-f]{128}$/
function reject (code: BlockErrorCode, reason: string): never { throw new BlockError(code, reason) }
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function onlyKnownKeys (value: object, allowed: readonly string[], what: string): void {
  const key = unknownKey(value, allowed)
  if (key !== undefined) reject(BlockErrorCode.BAD_FORMAT, unknownKeyMessage(what, key))
}

/**
 * The envelope's key set (v1 and v2's beacon evidence), not its values: those are the
 * attestation rules' (attestation.ts), which answer with their own codes.
 */
function checkEnvelopeKeys (qs: object): void {
  onlyKnownKeys(qs, QUANTUM_SIGNATURE_KEYS, 'quantum_signature')
  const env = (qs as Record<string, unknown>).qrng_attestation
  if (!isRecord(env)) return
  onlyKnownKeys(env, ATTESTATION_KEYS, 'qrng_attestation')
  if (isRecord(env.health)) onlyKnownKeys(env.health, HEALTH_KEYS, 'qrng_attestation.health')
  if (env.beacons !== undefined) {
    if (!Array.isArray(env.beacons)) reject(BlockErrorCode.BAD_FORMAT, 'qrng_attestation.beacons must be a list')
    env.beacons.forEach((b: unknown, i: number) => {
      if (!isRecord(b)) reject(BlockErrorCode.BAD_FORMAT, `qrng_attestation.beacons[${i}] must be an object`)
      onlyKnownKeys(b, BEACON_KEYS, `qrng_attestation.beacons[${i}]`)
    })
  }
}

/** Shape check for untrusted input (p2p, API): never lets a malformed object reach the rules. */
export function checkBlockFormat (block: unknown): asserts block is Block {
  const b = block as Partial<Block> | null
  if (b === null || typeof b !== 'object' || Array.isArray(b)) reject(BlockErrorCode.BAD_FORMAT, 'block must be an object')
  onlyKnownKeys(b, BLOCK_KEYS, 'block')
  const intOk = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0
  if (!intOk(b.version) || !intOk(b.height) || !intOk(b.difficulty) || !intOk(b.nonce)) reject(BlockErrorCode.BAD_FORMAT, 'version, height, difficulty and nonce must be non-negative integers')
  const bits = bitsProblem(b.bits)
  if (bits !== undefined) reject(BlockErrorCode.BAD_FORMAT, bits)
  if (typeof b.timestamp !== 'number' || !Number.isFinite(b.timestamp)) reject(BlockErrorCode.BAD_FORMAT, 'timestamp must be a number')
  if (typeof b.hash !== 'string' || !HASH_RE.test(b.hash) || typeof b.previous_hash !== 'string' || !HASH_RE.test(b.previous_hash) ||
      typeof b.merkle_root !== 'string' || !HASH_RE.test(b.merkle_root)) reject(BlockErrorCode.BAD_FORMAT, 'hash, previous_hash and merkle_root must be 128 hex chars')
  if (typeof b.miner !== 'string' || !/^[0-9a-f]{32}$/.test(b.miner)) reject(BlockErrorCode.BAD_FORMAT, 'miner must be a 32-hex wallet address')
  if (!Array.isArray(b.transactions) || b.transactions.some((t) => t === null || typeof t !== 'object')) reject(BlockErrorCode.BAD_FORMAT, 'transactions must be an array of objects')
  b.transactions.forEach((tx: object, i) => {
    if (Array.isArray(tx)) reject(BlockErrorCode.BAD_FORMAT, `transaction ${i} must be an object`)
    onlyKnownKeys(tx, TX_KEYS, `transaction ${i}`)
  })
  if (b.quantum_signature !== null && !isRecord(b.quantum_signature)) reject(BlockErrorCode.BAD_FORMAT, 'quantum_signature must be an object')
  if (b.quantum_signature !== null) checkEnvelopeKeys(b.quantum_signature)
}

export interface HeaderContext {
  parent: BlockMeta
  /** the compact target the schedule demands of this block (difficulty.ts nextBits) */
  expectedBits: number
  now: number
  /** the validating kernel's cores (its `cores` service): header hash, merkle root, attestation */
  cores: { pow: PowCore; sha3: Sha3Core; mldsa: MldsaCore; bls?: BlsCore }
  /** leave the beacon pairings to the caller (the chain runs them on the verify pool) */
  deferPairings?: boolean
  /** leave the merkle root to the caller (the chain hashes the leaves on the verify pool): it
   *  must call checkMerkleRoot before it stores or judges anything else of the block */
  deferMerkle?: boolean
  /** the transactions' binary forms, in order, when the block was decoded from them (a peer's
   *  block): used as they are instead of encoding the transactions again. Only forms the
   *  block's transactions were decoded from: nothing checks that they match */
  txForms?: readonly Buffer[]
}

/**
 * What validation has established so far, handed to the caller as it goes (blockValidation),
 * so the caller can start costly work early without validation knowing who it is:
 * - `proof-of-work`: the header, its proof of work, version, linkage and time passed (the chain
 *   starts reading state then);
 * - `pairings-owed` (with deferPairings, when the attestation's own checks passed): the beacon
 *   pairings the caller must settle (settlePairings);
 * - `encoded`: the transactions' binary forms (which the merkle root is checked over next) and
 *   the 272 header bytes the proof of work was checked over, once the header, proof of work and
 *   size have passed: to start the signature checks and to store them, not encode them again.
 */
export type ValidationStage =
  | { stage: 'proof-of-work' }
  | { stage: 'pairings-owed', owed: DeferredPairings }
  | { stage: 'encoded', txs: Buffer[], header: Uint8Array }

/** What the caller still owes when pairings are deferred: settlePairings() on their verdicts. */
export interface DeferredPairings { env: Attestation; pending: PendingPairing[] }

/** Every context rule, in order; returns the pairings owed (with deferPairings), else null. */
export function validateBlockContext (params: NetworkParams, block: Block, ctx: HeaderContext): DeferredPairings | null {
  const steps = blockValidation(params, block, ctx)
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
  }
}

/**
 * validateBlockContext one stage at a time: a generator, so the order of the rules lives here
 * alone while a caller that overlaps work with validation (the chain's verify pipeline) acts on
 * each ValidationStage as it is reached, before the next rule is checked. Its return value is
 * validateBlockContext's.
 */
export function * blockValidation (params: NetworkParams, block: Block, ctx: HeaderContext): Generator<ValidationStage, DeferredPairings | null, void> {
  // Proof of work before any other rule (issue 31, "work first"): it is cheap to verify and
  // the one thing junk cannot fake, so a block without it is refused as such whatever else it
  // breaks (its timestamp, its parent, its difficulty), and nothing else is looked at. The
  // envelope's presence is checked first only because the header cannot be encoded without
  // its seed; the target the hash is held against is the block's own, checked against the
  // network's bounds and the schedule right after.
  checkEnvelopePresent(block)
  const { cores } = ctx
  const prefix = encodeHeaderPrefix(block, cores.sha3)
  const hash = Buffer.from(cores.pow.hashHeader(prefix, block.nonce))
  if (hash.toString('hex') !== block.hash) reject(BlockErrorCode.BAD_HASH, 'hash is not SHA3-512 of the header')
  if (!meetsTarget(hash, bitsTargetBytes(block.bits))) reject(BlockErrorCode.BAD_POW, 'hash is above the target')
  // the target the hash met: within the network's bounds and the one the schedule demands
  checkBlockTarget(params, block, ctx.expectedBits)
  if (block.version !== BLOCK_VERSION) reject(BlockErrorCode.BAD_VERSION, `block version ${block.version} unsupported`)
  if (block.previous_hash !== ctx.parent.hash || block.height !== ctx.parent.height + 1) reject(BlockErrorCode.BAD_HEIGHT, 'height must be parent height + 1')
  if (block.timestamp <= ctx.parent.timestamp) reject(BlockErrorCode.BAD_TIMESTAMP, 'timestamp must be later than the parent block')
  if (block.timestamp > ctx.now + params.maxFutureDrift) reject(BlockErrorCode.BAD_TIMESTAMP, `timestamp more than ${params.maxFutureDrift}s in the future`)
  yield { stage: 'proof-of-work' }
  // With the pairings left to the caller, the attestation's own checks come next: the caller
  // starts its beacon pairings (a block's costliest check when it quotes a new round) now, on
  // its threads, while the transactions are encoded and checked.
  const deferred = ctx.deferPairings === true ? checkAttestation(params, block, { cores }) : null
  if (deferred !== null) yield { stage: 'pairings-owed', owed: deferred }

  const userTxs = block.transactions.length - 1
  if (userTxs > params.maxTxPerBlock) reject(BlockErrorCode.TOO_MANY_TXS, `more than ${params.maxTxPerBlock} transactions`)
  // the transactions are encoded once: for the block's size, its merkle leaves and (through
  // the `encoded` stage) the bytes the chain stores
  let size = 0
  let encoded: Buffer[] = []
  try {
    encoded = ctx.txForms !== undefined && ctx.txForms.length === block.transactions.length ? [...ctx.txForms] : block.transactions.map(encodeTx)
    size = blockSizeOfEncoded(block, encoded)
  } catch (err) {
    if (err instanceof BinaryJsonError) reject(BlockErrorCode.BAD_FORMAT, `the block has no binary form: ${err.message}`)
    throw err
  }
  if (size > params.maxBlockBytes) reject(BlockErrorCode.TOO_LARGE, `block is ${size} bytes, more than the ${params.maxBlockBytes}-byte limit`)
  // the caller may start costly work on these (the chain's signature checks) while the rest is checked
  yield { stage: 'encoded', txs: encoded, header: headerWithNonce(prefix, block.nonce) }
  const gas = block.transactions.reduce((sum, tx) => sum + declaredGas(tx), 0)
  if (gas > params.blockGasLimit) reject(BlockErrorCode.GAS_LIMIT_EXCEEDED, `transactions reserve ${gas} gas, more than the block gas limit ${params.blockGasLimit}`)
  if (block.transactions[0]?.sender !== MINING_REWARD_SENDER) reject(BlockErrorCode.BAD_COINBASE, 'first transaction must be the coinbase')
  const ids = new Set(block.transactions.map((t) => t.transaction_id))
  if (ids.size !== block.transactions.length) reject(BlockErrorCode.DUPLICATE_TX, 'a transaction appears twice in the block')
  if (ctx.deferMerkle !== true) checkMerkleRoot(block, leavesOfEncoded(encoded, cores.sha3), cores.sha3)
  if (deferred === null) verifyAttestation(params, block, { cores })
  return deferred
}

/**
 * The block's target (its `bits`, canonical per checkBlockFormat): inside the network's bounds,
 * the one the schedule demands, and its `difficulty` the target's leading zero hex digits. A
 * block claiming an easier target than the schedule's is refused here, before its hash is taken.
 */
export function checkBlockTarget (params: NetworkParams, block: Pick<Block, 'bits' | 'difficulty'>, expectedBits: number): void {
  const target = decodeBits(block.bits)
  if (target > decodeBits(params.easiestBits) || target < decodeBits(params.hardestBits)) {
    reject(BlockErrorCode.BAD_DIFFICULTY, `target bits ${hexBits(block.bits)} outside the network's bounds [${hexBits(params.hardestBits)}, ${hexBits(params.easiestBits)}]`)
  }
  if (block.bits !== expectedBits) reject(BlockErrorCode.BAD_DIFFICULTY, `target bits ${hexBits(block.bits)}, the schedule demands ${hexBits(expectedBits)}`)
  const difficulty = difficultyOfBits(block.bits)
  if (block.difficulty !== difficulty) reject(BlockErrorCode.BAD_DIFFICULTY, `difficulty ${block.difficulty}, its target has ${difficulty} leading zero hex digits`)
}

const hexBits = (bits: number): string => `0x${bits.toString(16).padStart(8, '0')}`

/**
 * The block's merkle root against its transactions' leaves (SHA3-512 of each binary form, as
 * validateBlockContext made them). Until it passes, the transactions are not the ones the header
 * commits to: nothing about them may be stored or held against the block's hash.
 */
export function checkMerkleRoot (block: Block, leaves: readonly Uint8Array[], sha3: Sha3Core): void {
  if (merkleRootOfLeaves(leaves, sha3) !== block.merkle_root) reject(BlockErrorCode.BAD_MERKLE_ROOT, 'merkle_root does not match the transactions')
}
