// Chains for the benches: devnet parameters with difficulty 1 (so building thousands of
// blocks costs no proof-of-work worth mentioning), blocks assembled, attested and sealed the
// way the miner does, signed transfers, and a chain on a temporary RocksDB.
import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { mkdtempSync, rmSync } from 'node:fs'
import { pino } from 'pino'
import { NETWORKS, DEVNET_DEV_ACCOUNT } from '../../config/networks.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Block, Transaction } from '../../core/chain/types.ts'
import { envelopeAt } from '../../core/chain/attestation-builder.ts'
import { assembleBlock } from '../../core/chain/template.ts'
import { genesisBlock } from '../../core/chain/genesis.ts'
import { bitsTargetBytes, encodeBits, targetForDifficulty } from '../../core/chain/target.ts'
import { blockSubsidy } from '../../core/chain/apply.ts'
import { coinToBohm } from '../../core/chain/money.ts'
import { signTransaction } from '../../core/chain/tx.ts'
import { createHooks } from '../../core/kernel/hooks.ts'
import { Cores } from '../../core/cores/cores.ts'
import { getPowCore } from '../../core/pow/pow-core.ts'
import { walletFromSeed } from '../../core/chain/wallet.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import { RocksStore } from '../../plugins/storage/rocks-store.ts'
import { Chain } from '../../plugins/consensus/chain.ts'
import { ChainFollowers } from '../../plugins/consensus/follower.ts'
import { SignatureVerifyPool } from '../../core/crypto/verify-pool.ts'

export const silentLogger = pino({ level: 'silent' })

/** devnet with a fixed difficulty of 1 (target 2^508 − 2^488): one block costs ~16 hashes to seal. */
export function benchParams (): NetworkParams {
  const bits = encodeBits(targetForDifficulty(1))
  return { ...NETWORKS.devnet, initialBits: bits, easiestBits: bits, hardestBits: bits, fixedDifficulty: true, paceBlocks: false }
}

export function devAccount (): Wallet {
  return walletFromSeed(Buffer.from(DEVNET_DEV_ACCOUNT.seed, 'hex'))
}

// temp dirs this process made and has not removed yet: removed on exit, even an interrupted one
const liveDirs = new Set<string>()
process.once('exit', () => { for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true }) })

export function benchTmpDir (prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `ledger-bench-${prefix}-`))
  liveDirs.add(dir)
  return dir
}

export function removeDir (dir: string): void {
  rmSync(dir, { recursive: true, force: true })
  liveDirs.delete(dir)
}

export function transfer (params: NetworkParams, from: Wallet, to: string, amount: number, nonce: number, timestamp: number, withKey: boolean): Transaction {
  const data: Record<string, unknown> = withKey ? { public_key: Buffer.from(from.publicKey).toString('hex') } : {}
  return signTransaction(params.chainId, { sender: from.address, recipient: to, amount, fee: 0.001, timestamp, nonce, data }, from.seed)
}

/** A random (unowned) wallet address: recipients that grow the state like real payees. */
export function randomAddress (): string { return crypto.randomBytes(16).toString('hex') }

/**
 * Produces a chain of blocks in memory, each on the previous one: assembled like the
 * miner's template (coinbase = subsidy + fees), attested by the devnet beacon and
 * sealed at the network's difficulty.
 */
export class BlockSequence {
  readonly params: NetworkParams
  readonly miner: string
  #tip: { hash: string; height: number; timestamp: number }
  #supply: bigint

  constructor (params: NetworkParams, miner: string) {
    this.params = params
    this.miner = miner
    const genesis = genesisBlock(params)
    this.#tip = { hash: genesis.hash, height: 0, timestamp: genesis.timestamp }
    this.#supply = params.genesisAllocations.reduce((sum, a) => sum + coinToBohm(a.amount), 0n)
  }

  /** Seconds between blocks (the attest family spaces them by a beacon period, so each quotes a new round). */
  step = 1

  /** Timestamp the next block will carry. */
  get nextTimestamp (): number { return this.#tip.timestamp + this.step }

  /** @param source the envelope's source (default beacon-devnet; self-hosted for a block without beacon evidence) */
  next (transactions: Transaction[] = [], source?: string): Block {
    const timestamp = this.nextTimestamp
    const attestation = envelopeAt(this.params, timestamp, { device: 'bench', proofType: 'bench', source })
    const { block, prefix } = assembleBlock(this.params, {
      parent: this.#tip,
      miner: this.miner,
      transactions,
      timestamp,
      bits: this.params.initialBits,
      supply: this.#supply,
      attestation
    })
    const sealed = getPowCore('wasm').search(prefix, 0, 1 << 24, bitsTargetBytes(block.bits))
    if (!sealed.found || sealed.hash === null) throw new Error('no nonce found for a bench block')
    block.nonce = sealed.nonce
    block.hash = Buffer.from(sealed.hash).toString('hex')
    this.#supply += blockSubsidy(this.params, block.height, this.#supply)
    this.#tip = { hash: block.hash, height: block.height, timestamp }
    return block
  }
}

export interface BenchChain {
  chain: Chain
  db: RocksStore
  /** the chain's verify pool (started on first use, or by `started()`); none: verified inline */
  verifier?: SignatureVerifyPool
  close(): Promise<void>
}

/** A chain as the consensus plugin builds it (no mempool, so every signature is verified). */
export async function openBenchChain (params: NetworkParams, dir: string): Promise<BenchChain> {
  const db = await RocksStore.open(path.join(dir, 'chain'))
  // the node's own path: the default cores, signatures verified on one thread per core, as the
  // consensus plugin does
  const cores = new Cores()
  const signatureVerifier = new SignatureVerifyPool({ core: cores.selection.mldsa, bls: cores.selection.bls, sha3: cores.selection.sha3 })
  const chain = new Chain({ db, params, hooks: createHooks(), logger: silentLogger, executor: null, cores, signatureVerifier })
  await chain.init()
  return { chain, db, verifier: signatureVerifier, async close () { await signatureVerifier.close(); await db.close() } }
}

export interface FollowedChain { chain: Chain; db: RocksStore; followers: ChainFollowers }

/**
 * A chain on `<dir>/chain` with its followers (ctx.follow's service), wired as the consensus
 * plugin wires them: side blocks a lagging follower still has to revert are kept.
 */
export async function openFollowedChain (params: NetworkParams, dir: string): Promise<FollowedChain> {
  const db = await RocksStore.open(path.join(dir, 'chain'))
  const hooks = createHooks()
  let followers: ChainFollowers | undefined
  const chain = new Chain({ db, params, hooks, logger: silentLogger, executor: null, cores: new Cores(), keepSideFrom: () => followers?.keepSideFrom() })
  await chain.init()
  followers = new ChainFollowers({ chain, db, hooks, logger: silentLogger })
  return { chain, db, followers }
}
