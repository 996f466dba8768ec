// The records a block leaves in the chain database: its meta, its header index entry, and the
// batch that links it onto the main chain as the new tip.
import type { KvOp } from '../../core/kernel/kv.ts'
import { jsonValue } from '../../core/kernel/kv.ts'
import type { Block } from '../../core/chain/types.ts'
import type { UndoRecord } from '../../core/chain/state.ts'
import { chainKey } from '../../core/chain/keys.ts'
import type { BlockMeta } from '../../core/chain/keys.ts'
import { blockBodyOps } from '../../core/chain/block-body.ts'
import { encodeHeader } from '../../core/chain/header.ts'
import { entropyEvidenceOf } from '../../core/chain/entropy-evidence.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'

/** what validation already encoded, kept for the write */
export interface EncodedBlock { txs: readonly Uint8Array[]; header: Uint8Array }

export const metaOf = (block: Block, work: bigint, status: BlockMeta['status']): BlockMeta => ({
  hash: block.hash,
  height: block.height,
  previous_hash: block.previous_hash,
  timestamp: block.timestamp,
  difficulty: block.difficulty,
  bits: block.bits,
  tx_count: block.transactions.length,
  miner: block.miner,
  work: work.toString(),
  status,
  entropy_evidence: entropyEvidenceOf(block.quantum_signature)
})

/** `bytes`: the header as validation encoded it (else encoded here) */
export const headerOp = (block: Block, sha3: Sha3Core, bytes?: Uint8Array): KvOp => ({ type: 'put', key: chainKey.header(block.hash), value: bytes ?? encodeHeader(block, sha3) })

/** The batch that stores `block` and makes it the main-chain tip (its state ops come first, from the caller). */
export function linkOps (block: Block, meta: BlockMeta, undo: UndoRecord, sha3: Sha3Core, encoded?: EncodedBlock): KvOp[] {
  return [
    ...blockBodyOps(block, encoded?.txs),
    headerOp(block, sha3, encoded?.header),
    { type: 'put', key: chainKey.blockMeta(block.hash), value: jsonValue(meta) },
    { type: 'put', key: chainKey.undo(block.hash), value: jsonValue(undo) },
    { type: 'put', key: chainKey.mainHash(block.height), value: Buffer.from(block.hash) },
    { type: 'put', key: chainKey.tip(), value: jsonValue({ hash: block.hash, height: block.height }) }
  ]
}
