// Key layout of the chain database. State keys are in state.ts; everything here that a block
// writes through the StateOverlay (indexes, receipts) is undone with it on a reorg.
import { padHeight } from '../kernel/kv.ts'
import type { EntropyEvidence } from './entropy-evidence.ts'

const idx = (i: number): string => i.toString().padStart(4, '0')

export const chainKey = {
  tip: () => 'meta:tip',
  block: (hash: string) => `b:${hash}`,
  /** one transaction of a stored block body (block-body.ts) */
  blockTx: (hash: string, index: number) => `bx:${hash}:${idx(index)}`,
  blockMeta: (hash: string) => `bm:${hash}`,
  /** the 272 header bytes of a stored block (served to syncing peers without reading bodies) */
  header: (hash: string) => `hd:${hash}`,
  /** side blocks by height, so those too far below the tip to ever win are pruned */
  sideBlock: (height: number, hash: string) => `sd:${padHeight(height)}:${hash}`,
  sideBlockPrefix: () => 'sd:',
  sideBlockBelow: (height: number) => `sd:${padHeight(height)}:`,
  /** blocks found invalid, by height, so they are pruned (by age and count) rather than kept for ever */
  invalidBlock: (height: number, hash: string) => `iv:${padHeight(height)}:${hash}`,
  invalidBlockPrefix: () => 'iv:',
  mainHash: (height: number) => `h:${padHeight(height)}`,
  mainHashPrefix: () => 'h:',
  undo: (hash: string) => `u:${hash}`,
  // indexes (written through the overlay)
  txLocation: (txId: string) => `tx:${txId}`,
  addressTxCount: (addr: string) => `ac:${addr}`,
  /** the n-th (0 = oldest) transaction of an address: a page of history is one range read,
   *  whatever its offset (`ah:` would have to skip `offset` entries) */
  addressTxOrdinal: (addr: string, n: number) => `ao:${addr}:${n.toString().padStart(16, '0')}`,
  receipt: (txId: string) => `rc:${txId}`,
  blockReceipt: (height: number, index: number) => `rb:${padHeight(height)}:${idx(index)}`,
  blockReceiptPrefix: (height: number) => `rb:${padHeight(height)}:`,
  message: (height: number, index: number) => `msg:${padHeight(height)}:${idx(index)}`,
  messagePrefix: () => 'msg:'
}

export interface TxLocation { hash: string; height: number; index: number }

export interface BlockMeta {
  hash: string
  height: number
  previous_hash: string
  timestamp: number
  difficulty: number
  /** the block's compact target (protocol 2) */
  bits: number
  tx_count: number
  miner: string
  /** cumulative work as a decimal string (BigInt) */
  work: string
  status: 'main' | 'side' | 'invalid'
  /** what the block's attestation proves (core/chain/entropy-evidence.ts); absent in metas
   *  written before it was recorded */
  entropy_evidence?: EntropyEvidence
}
