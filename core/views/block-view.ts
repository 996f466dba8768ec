// Blocks as the explorer, the dashboard and the stream show them (SPEC 2.4). A summary can
// be built from the stored block meta alone, so block lists never parse whole blocks.
import type { Block, QuantumSignature } from '../chain/types.ts'
import { attestationFacts } from '../chain/attestation.ts'
import { entropyEvidenceOf } from '../chain/entropy-evidence.ts'
import type { EntropyEvidence } from '../chain/entropy-evidence.ts'
import type { BlockMeta } from '../chain/keys.ts'
import { decodeTx } from './tx-view.ts'
import type { DecodedTx } from './tx-view.ts'
import type { NameOf } from './names.ts'
import { decodeBits } from '../chain/target.ts'

export interface BlockSummary {
  height: number
  hash: string
  previous_hash: string
  timestamp: number
  tx_count: number
  miner: string
  difficulty: number
  /** a main-chain block passed attestation validation; only genesis carries none (SPEC 2.4:
   *  true says the envelope passed the chain's rules, not what they prove: entropy_evidence does) */
  quantum_verified: boolean
}

/** a block in the explorer's and dashboard's lists: the summary and what its attestation
 *  proves (docs/entropy.md; null where the block meta predates it). The stream's block event
 *  stays the bare summary SPEC 6 fixes. */
export interface ListedBlock extends BlockSummary {
  entropy_evidence: EntropyEvidence | null
}

export interface BlockDetail extends ListedBlock {
  merkle_root: string
  nonce: number
  /** the compact proof-of-work target the header carries (protocol 2) */
  bits: number
  /** the target itself, 128 hex digits: the hash is at most this */
  target: string
  qrng_attestation_present: boolean
  /** registered source id named by the attestation, null for genesis */
  qrng_source: string | null
  /** the whole attestation envelope (null for genesis), as hashed into the header */
  quantum_signature: QuantumSignature | null
  /** at least one beacon round backs the entropy (docs/entropy.md) */
  entropy_verifiable: boolean
  beacon_rounds: Array<{ source: string; round: number }>
  transactions: DecodedTx[]
}

export function summaryOfMeta (meta: BlockMeta): ListedBlock {
  return {
    height: meta.height,
    hash: meta.hash,
    previous_hash: meta.previous_hash,
    timestamp: meta.timestamp,
    tx_count: meta.tx_count,
    miner: meta.miner,
    difficulty: meta.difficulty,
    // the chain connects no block past genesis without a verified attestation
    quantum_verified: meta.height > 0,
    entropy_evidence: meta.height === 0 ? 'genesis' : meta.entropy_evidence ?? null
  }
}

export function summaryOfBlock (block: Block): BlockSummary {
  return {
    height: block.height,
    hash: block.hash,
    previous_hash: block.previous_hash,
    timestamp: block.timestamp,
    tx_count: block.transactions.length,
    miner: block.miner,
    difficulty: block.difficulty,
    quantum_verified: block.quantum_signature !== null
  }
}

export function blockDetail (block: Block, nameOf: NameOf): BlockDetail {
  const attestation = block.quantum_signature?.qrng_attestation
  return {
    ...summaryOfBlock(block),
    entropy_evidence: entropyEvidenceOf(block.quantum_signature),
    merkle_root: block.merkle_root,
    nonce: block.nonce,
    bits: block.bits,
    target: decodeBits(block.bits).toString(16).padStart(128, '0'),
    qrng_attestation_present: attestation !== undefined && attestation !== null,
    qrng_source: attestation?.source ?? null,
    quantum_signature: block.quantum_signature,
    ...attestationFacts(block.quantum_signature),
    transactions: block.transactions.map((tx) => decodeTx(tx, nameOf))
  }
}
