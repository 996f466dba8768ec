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
import { buildAttestation } from '../../core/chain/attestation.ts'
import { assembleBlock } from '../../core/chain/template.ts'
import { coinToBohm } from '../../core/chain/money.ts'
import { getPowCore, meetsDifficulty } from '../../core/pow/pow-core.ts'
import { createHooks } from '../../core/hooks.ts'
import { walletFromSeed, generateWallet } from '../../core/wallet.ts'
import type { Wallet } from '../../core/wallet.ts'
import { RocksStore } from '../../plugins/storage/rocks-store.ts'
import { Chain } from '../../plugins/chain/chain.ts'
import { Mempool } from '../../plugins/chain/mempool.ts'
import { createContractExecutor } from '../../plugins/chain/contracts.ts'
import type { VmCoreKind } from '../../core/vm/index.ts'

export const silentLogger = pino({ level: 'silent' })

export function testParams (overrides: Partial<NetworkParams> = {}): NetworkParams {
  return { ...NETWORKS.devnet, initialDifficulty: 1, minDifficulty: 1, maxDifficulty: 1, fixedDifficulty: true, paceBlocks: false, faucetSeed: undefined, ...overrides }
}

export const devWallet = (): Wallet => walletFromSeed(Buffer.from(DEVNET_DEV_ACCOUNT.seed, 'hex'))
export { generateWallet }

export function tmpDir (prefix = 'ledger-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix))
}

export interface AttestationOptions {
  source?: string
  health?: Partial<Attestation['health']>
  signer?: Uint8Array | null
}

export function makeAttestation (timestamp: number, opts: AttestationOptions = {}): Attestation {
  return buildAttestation({
    entropy: crypto.randomBytes(64),
    source: opts.source ?? 'self-hosted',
    device: 'test-device',
    proofType: 'test',
    health: { monobit_ratio: 0.5, fano_factor: 1.0, pool_size: 65536, timestamp, ...opts.health },
    signerSeed: opts.signer ?? undefined
  })
}

export interface ParentRef { hash: string; height: number; timestamp: number }

export interface BlockOptions {
  miner?: string
  txs?: Transaction[]
  timestamp?: number
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
    difficulty: opts.difficulty ?? params.initialDifficulty,
    supply: opts.supply ?? coinToBohm(2_000_000),
    attestation,
    coinbaseAmount: opts.coinbaseAmount
  })
  opts.tamper?.(block)
  return sealBlock(block)
}

/** Runs the proof-of-work over the block as it stands (after edits) and sets nonce and hash. */
export function sealBlock (block: Block): Block {
  const result = getPowCore('js').search(encodeHeaderPrefix(block), 0, 1 << 24, block.difficulty)
  if (!result.found || result.hash === null) throw new Error('no nonce found')
  block.nonce = result.nonce
  block.hash = Buffer.from(result.hash).toString('hex')
  return block
}

/** Sets a nonce whose correctly computed hash MISSES the difficulty (a block without proof-of-work). */
export function sealWithoutPow (block: Block): Block {
  const core = getPowCore('js')
  const prefix = encodeHeaderPrefix(block)
  for (let nonce = 0; nonce < 1 << 20; nonce++) {
    const hash = core.hashHeader(prefix, nonce)
    if (!meetsDifficulty(hash, block.difficulty)) {
      block.nonce = nonce
      block.hash = Buffer.from(hash).toString('hex')
      return block
    }
  }
  throw new Error('every nonce met the difficulty')
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
}

export async function openTestChain (params: NetworkParams = testParams(), dir = tmpDir(), opts: TestChainOptions = {}): Promise<TestChain> {
  const db = await RocksStore.open(path.join(dir, 'chain'))
  const hooks = createHooks()
  let mempool: Mempool | undefined
  const executor = opts.vm === undefined || opts.vm === null ? null : await createContractExecutor(opts.vm)
  const chain = new Chain({ db, params, hooks, logger: silentLogger, executor, powCore: 'js', isVerified: (tx) => mempool?.isVerified(tx) === true })
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
