// Builders for chain tests: parameters with trivial proof-of-work, attested blocks from a
// test entropy source, signed transfers, and a chain + mempool on a temporary RocksDB.
import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { mkdtempSync, rmSync } from 'node:fs'
import { pino } from 'pino'
import { NETWORKS, DEVNET_DEV_ACCOUNT } from '../../config/networks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Attestation, Block, Transaction } from '../../core/chain/types.ts'
import { signTransaction } from '../../core/chain/tx.ts'
import type { UnsignedTx } from '../../core/chain/tx.ts'
import { encodeHeaderPrefix } from '../../core/chain/header.ts'
import { envelopeAt } from '../../core/chain/attestation-builder.ts'
import { buildAttestation } from '../../core/chain/attestation.ts'
import type { RoundSigner } from '../../core/chain/attestation-builder.ts'
import { beaconSigner } from '../../core/entropy/beacon-signer.ts'
import { ENTROPY_SOURCE_REGISTRY } from '../../config/entropy-sources.ts'
import type { EntropySourceEntry } from '../../config/entropy-sources.ts'
import { assembleBlock } from '../../core/chain/template.ts'
import { coinToBohm } from '../../core/chain/money.ts'
import { getPowCore, meetsTarget } from '../../core/pow/pow-core.ts'
import { bitsForDifficulty, bitsTargetBytes } from '../../core/chain/target.ts'
import { nextBits, retargetTimestampCount } from '../../core/chain/difficulty.ts'
import { createHooks, isolateListeners } from '../../core/kernel/hooks.ts'
import type { ListenerFailure } from '../../core/kernel/hooks.ts'
import { walletFromSeed, generateWallet } from '../../core/chain/wallet.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import { RocksStore } from '../../plugins/storage/rocks-store.ts'
import { Chain } from '../../plugins/consensus/chain.ts'
import { Mempool } from '../../plugins/consensus/mempool.ts'
import { createContractExecutor } from '../../plugins/consensus/contracts.ts'
import type { VmCoreKind } from '../../core/vm/index.ts'
import { Cores } from '../../core/cores/cores.ts'

export const silentLogger = pino({ level: 'silent' })

/**
 * Test stand-ins for the drand beacons: same schemes as the real chains, but keys the tests
 * hold, so blocks quoting beacon-default or beacon-fastnet can be signed for any moment.
 * The real keys are checked against the real rounds in test/fixtures/drand.
 */
const testSigner = (id: string, scheme: 'pedersen-bls-chained' | 'bls-unchained-g1-rfc9380') =>
  beaconSigner(scheme, crypto.createHash('sha384').update(`ledger test beacon ${id}`).digest())
export const TEST_BEACON_SIGNERS = {
  'beacon-default': testSigner('beacon-default', 'pedersen-bls-chained'),
  'beacon-fastnet': testSigner('beacon-fastnet', 'bls-unchained-g1-rfc9380')
}
/**
 * The test beacons' public keys, written out: deriving them is a scalar multiplication that
 * first builds each group's generator table (~0.2 s in every test process that imports this
 * file); helpers/test-beacons.test.ts checks them against the signers.
 */
export const TEST_BEACON_PUBLIC_KEYS: Record<keyof typeof TEST_BEACON_SIGNERS, string> = {
  'beacon-default': '8fd47249fcdbd24b242e790750ef7a46feb9ed92d79137f515fcd2913c6f69e8be363c2df967d07778b659095c044a96',
  'beacon-fastnet': 'b1ed440207c1b81eee19757bf447aff3809b10db391c4085a5cb873a8b5d22c4b3688007bfc6d0450ec86e0ba6a2582a0b5a0c9bb0237d92aa94b42c678857eea03a7532aecb628f33be039201fcb2c100f1ea0f3bbd5cbd443dde05bb54de95'
}
/** the test beacons start an hour before the chains' genesis, so every test timestamp has a round > 1 */
const TEST_BEACON_GENESIS = NETWORKS.devnet.genesisTimestamp - 3600

export const TEST_REGISTRY: readonly EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY.map((e) => {
  const publicKey = (TEST_BEACON_PUBLIC_KEYS as Record<string, string>)[e.id]
  if (publicKey === undefined || e.beacon == null) return e
  return { ...e, beacon: { ...e.beacon, publicKey, genesisTime: TEST_BEACON_GENESIS, chainHash: crypto.createHash('sha256').update(publicKey).digest('hex') } }
})

const signedRounds = new Map<string, ReturnType<RoundSigner>>()
/** signers of the test beacons; chained rounds sign over a stand-in previous signature */
export const testRoundSigners: Record<string, RoundSigner> = Object.fromEntries(Object.entries(TEST_BEACON_SIGNERS).map(([id, signer]) => [id, (round: number) => {
  const key = `${id}:${round}`
  let b = signedRounds.get(key)
  if (b === undefined) {
    const previous = signer.scheme === 'pedersen-bls-chained' ? crypto.createHash('shake256', { outputLength: 96 }).update(key).digest() : undefined
    b = signer.sign(round, previous)
    signedRounds.set(key, b)
  }
  return { ...b }
}]))

/** devnet's rules at difficulty 1 (~16 hashes a block), fixed unless overridden */
export const TEST_BITS = bitsForDifficulty(1)

export function testParams (overrides: Partial<NetworkParams> = {}): NetworkParams {
  return { ...NETWORKS.devnet, initialBits: TEST_BITS, easiestBits: TEST_BITS, hardestBits: TEST_BITS, fixedDifficulty: true, paceBlocks: false, faucetSeed: undefined, sourceRegistry: TEST_REGISTRY, ...overrides }
}

export const devWallet = (): Wallet => walletFromSeed(Buffer.from(DEVNET_DEV_ACCOUNT.seed, 'hex'))
export { generateWallet }

export function tmpDir (prefix = 'ledger-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix))
}

export interface AttestationOptions {
  /** default beacon-devnet */
  source?: string
  /** claimed health fields laid over the computed ones (a lie unless they match) */
  health?: Partial<Attestation['health']>
  signer?: Uint8Array | null
  /** quote these beacon rounds instead of the newest at the timestamp */
  rounds?: Record<string, number>
  params?: NetworkParams
}

/** A v2 envelope valid at `timestamp` under the test registry (testParams()). */
export function makeAttestation (timestamp: number, opts: AttestationOptions = {}): Attestation {
  const env = envelopeAt(opts.params ?? testParams(), timestamp, {
    source: opts.source ?? 'beacon-devnet',
    signers: testRoundSigners,
    rounds: opts.rounds,
    signerSeed: opts.signer ?? undefined,
    proofType: 'test'
  })
  if (opts.health !== undefined) env.health = { ...env.health, ...opts.health }
  return env
}

/**
 * Re-derives seed, proof, commitment and health from the envelope's (edited) beacons and
 * local entropy, so a forged envelope breaks only the rule its edit targets.
 */
export function rederive (env: Attestation): Attestation {
  const { signature: _s, public_key: _k, ...rest } = env
  const rebuilt = buildAttestation({
    beacons: rest.beacons,
    localEntropy: Buffer.from(rest.local_entropy, 'hex'),
    source: rest.source,
    device: rest.device_id,
    proofType: rest.proof_type,
    poolSize: rest.health.pool_size,
    timestamp: rest.health.timestamp
  })
  return rebuilt
}

export interface ParentRef { hash: string; height: number; timestamp: number }

export interface BlockOptions {
  miner?: string
  txs?: Transaction[]
  timestamp?: number
  /** the compact target (default the network's initial one) */
  bits?: number
  /** shorthand: bits = the easiest target of this many leading zero hex digits */
  difficulty?: number
  attestation?: Attestation | null
  supply?: bigint
  coinbaseAmount?: number
  /** mutate the block before proof-of-work (to break exactly one rule) */
  tamper?: (b: Block) => void
}

export function mineBlock (params: NetworkParams, parent: ParentRef, opts: BlockOptions = {}): Block {
  const timestamp = opts.timestamp ?? parent.timestamp + 1
  const attestation = opts.attestation === undefined ? makeAttestation(timestamp) : opts.attestation
  const { block } = assembleBlock(params, {
    parent,
    miner: opts.miner ?? devWallet().address,
    transactions: opts.txs ?? [],
    timestamp,
    bits: opts.bits ?? (opts.difficulty !== undefined ? bitsForDifficulty(opts.difficulty) : params.initialBits),
    supply: opts.supply ?? coinToBohm(2_000_000),
    attestation,
    coinbaseAmount: opts.coinbaseAmount
  })
  opts.tamper?.(block)
  return sealBlock(block)
}

/**
 * `n` blocks `gap` seconds apart on `parent`, each carrying the bits the schedule demands of it
 * on its own branch; `stamps` are the timestamps of the chain up to `parent` (oldest first).
 */
export function scheduledBranch (params: NetworkParams, stamps: readonly number[], parent: ParentRef & { bits: number }, n: number, gap = 1): Block[] {
  const ts = [...stamps]
  const out: Block[] = []
  let p = parent
  for (let i = 0; i < n; i++) {
    const bits = nextBits(params, p.height + 1, p.bits, () => ts.slice(-retargetTimestampCount(params)))
    const b = mineBlock(params, p, { bits, timestamp: p.timestamp + gap })
    out.push(b)
    ts.push(b.timestamp)
    p = { hash: b.hash, height: b.height, timestamp: b.timestamp, bits }
  }
  return out
}

/** Runs the proof-of-work over the block as it stands (after edits) and sets nonce and hash. */
export function sealBlock (block: Block): Block {
  const result = getPowCore('js').search(encodeHeaderPrefix(block), 0, 1 << 24, bitsTargetBytes(block.bits))
  if (!result.found || result.hash === null) throw new Error('no nonce found')
  block.nonce = result.nonce
  block.hash = Buffer.from(result.hash).toString('hex')
  return block
}

/** Sets a nonce whose correctly computed hash MISSES the target (a block without proof-of-work). */
export function sealWithoutPow (block: Block): Block {
  const core = getPowCore('js')
  const prefix = encodeHeaderPrefix(block)
  for (let nonce = 0; nonce < 1 << 20; nonce++) {
    const hash = core.hashHeader(prefix, nonce)
    if (!meetsTarget(hash, bitsTargetBytes(block.bits))) {
      block.nonce = nonce
      block.hash = Buffer.from(hash).toString('hex')
      return block
    }
  }
  throw new Error('every nonce met the target')
}

export function transfer (params: NetworkParams, from: Wallet, to: string, amount: number, nonce: number, opts: { fee?: number; withKey?: boolean; data?: Record<string, unknown>; timestamp?: number } = {}): Transaction {
  const data: Record<string, unknown> = { ...(opts.data ?? {}) }
  if (opts.withKey ?? nonce === 0) data.public_key = Buffer.from(from.publicKey).toString('hex')
  const unsigned: UnsignedTx = { sender: from.address, recipient: to, amount, fee: opts.fee ?? 0.001, timestamp: opts.timestamp ?? Date.now() / 1000, nonce, data }
  return signTransaction(params.chainId, unsigned, from.seed)
}

export interface TestChain {
  chain: Chain
  mempool: Mempool
  db: RocksStore
  hooks: ReturnType<typeof createHooks>
  params: NetworkParams
  dir: string
  close(): Promise<void>
  tipRef(): ParentRef
}

export interface TestChainOptions {
  /** run contracts on this VM core; default: no VM (contract transactions refused) */
  vm?: VmCoreKind | null
  /** run hook listeners in isolation as the kernel does, reporting failures here */
  onListenerFailure?: ListenerFailure
  /** ChainOptions.maxInvalidStored */
  maxInvalidStored?: number
}

export async function openTestChain (params: NetworkParams = testParams(), dir = tmpDir(), opts: TestChainOptions = {}): Promise<TestChain> {
  const db = await RocksStore.open(path.join(dir, 'chain'))
  const hooks = createHooks()
  if (opts.onListenerFailure !== undefined) isolateListeners(hooks, opts.onListenerFailure)
  let mempool: Mempool | undefined
  const executor = opts.vm === undefined || opts.vm === null ? null : await createContractExecutor(opts.vm)
  const chain = new Chain({ db, params, hooks, logger: silentLogger, executor, cores: new Cores({ pow: 'js' }), isVerified: (tx) => mempool?.isVerified(tx) === true, maxInvalidStored: opts.maxInvalidStored })
  await chain.init()
  mempool = new Mempool({ chain, params, hooks, contractsEnabled: executor !== null })
  const pool = mempool
  const confirmed: string[] = []
  hooks.blockConnected.tap('test', ({ block }) => { for (const t of block.transactions) confirmed.push(t.transaction_id) })
  hooks.tipChanged.tap('test', () => { pool.revalidate(confirmed.splice(0), []) })
  return {
    chain,
    mempool: pool,
    db,
    hooks,
    params,
    dir,
    async close () { await db.close() },
    tipRef () { const t = chain.tip(); return { hash: t.hash, height: t.height, timestamp: t.timestamp } }
  }
}

export function cleanup (dir: string): void { rmSync(dir, { recursive: true, force: true }) }
