// Assembles a block template (everything but the nonce and hash) the way every miner must:
// coinbase first claiming subsidy + fees, merkle root, attestation envelope. Shared by the
// miner plugin and by tools that build chains (tests, benchmarks).
import type { NetworkParams } from './params.ts'
import type { Attestation, Block, Transaction } from './types.ts'
import { MINING_REWARD_SENDER } from './types.ts'
import { systemTransaction } from './tx.ts'
import { merkleRoot } from './merkle.ts'
import { encodeHeaderPrefix } from './header.ts'
import { BLOCK_VERSION } from './genesis.ts'
import { difficultyOfBits } from './target.ts'
import { blockSubsidy } from './apply.ts'
import { bohmToCoinFloor, coinToBohm } from './money.ts'
import { blockSize, inBlockBytes, txSize } from './block-size.ts'
import { declaredGas } from './tx-rules.ts'
import { DEFAULT_SHA3_CORE } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'

export interface TemplateInput {
  parent: { hash: string; height: number }
  miner: string
  transactions: Transaction[]
  timestamp: number
  /** the compact target the schedule demands (chain.nextBits()) */
  bits: number
  /** coin minted so far (caps the subsidy at max supply) */
  supply: bigint
  attestation: Attestation | null
  /** override the coinbase amount (tests that break the coinbase rule) */
  coinbaseAmount?: number
}

export interface BlockTemplate {
  block: Block
  /** header bytes without the nonce: what the proof-of-work search absorbs once */
  prefix: Uint8Array
}

/** `sha3`: the miner's kernel's SHA3 core (coinbase id, merkle root, envelope hash). */
export function assembleBlock (params: NetworkParams, input: TemplateInput, sha3: Sha3Core = DEFAULT_SHA3_CORE): BlockTemplate {
  const height = input.parent.height + 1
  const fees = input.transactions.reduce((sum, tx) => sum + coinToBohm(tx.fee), 0n)
  const coinbase = systemTransaction(params.chainId, {
    sender: MINING_REWARD_SENDER,
    recipient: input.miner,
    amount: input.coinbaseAmount ?? bohmToCoinFloor(blockSubsidy(params, height, input.supply) + fees),
    fee: 0,
    timestamp: input.timestamp,
    nonce: height,
    data: {}
  }, sha3)
  const transactions = [coinbase, ...input.transactions]
  const block: Block = {
    version: BLOCK_VERSION,
    height,
    timestamp: input.timestamp,
    previous_hash: input.parent.hash,
    merkle_root: merkleRoot(transactions, sha3),
    difficulty: difficultyOfBits(input.bits),
    bits: input.bits,
    miner: input.miner,
    nonce: 0,
    hash: '',
    transactions,
    quantum_signature: input.attestation === null ? null : { qrng_attestation: input.attestation }
  }
  return { block, prefix: encodeHeaderPrefix(block, sha3) }
}

/** Re-derives the merkle root and prefix after a template's fields were changed. */
export function refreshTemplate (block: Block, sha3: Sha3Core = DEFAULT_SHA3_CORE): BlockTemplate {
  block.merkle_root = merkleRoot(block.transactions, sha3)
  return { block, prefix: encodeHeaderPrefix(block, sha3) }
}

/** What a block's user transactions may take: count, bytes (inBlockBytes of each) and gas. */
export interface TemplateBudget { count: number; bytes: number; gas: number }

/**
 * room the coinbase and the transaction count may grow by between the estimate and the final
 * template (a number is always 9 bytes; a count needs a second byte past 127)
 */
const TEMPLATE_SLACK = 8

/** The budget of user transactions under `input`'s header, envelope and coinbase. */
export function templateBudget (params: NetworkParams, input: Omit<TemplateInput, 'transactions'>): TemplateBudget {
  const { block } = assembleBlock(params, { ...input, transactions: [], coinbaseAmount: 0 })
  const bytes = params.maxBlockBytes - blockSize(block) - TEMPLATE_SLACK
  return { count: params.maxTxPerBlock, bytes: Math.max(0, bytes), gas: params.blockGasLimit }
}

/**
 * The longest prefix-respecting selection of `txs` (in their order) within `budget`: a
 * transaction that does not fit is left out, and so is every later one of its sender, whose
 * nonces would then have a gap.
 */
export function fitToBudget (txs: readonly Transaction[], budget: TemplateBudget): Transaction[] {
  const out: Transaction[] = []
  const blocked = new Set<string>()
  let bytes = 0
  let gas = 0
  for (const tx of txs) {
    if (out.length >= budget.count) break
    if (blocked.has(tx.sender)) continue
    const size = inBlockBytes(txSize(tx))
    const g = declaredGas(tx)
    if (bytes + size > budget.bytes || gas + g > budget.gas) { blocked.add(tx.sender); continue }
    out.push(tx)
    bytes += size
    gas += g
  }
  return out
}
