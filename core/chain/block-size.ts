// The one measure of how big a transaction and a block are, for the consensus byte limits
// (maxTxBytes, maxBlockBytes): the length of the canonical binary form (tx-codec.ts,
// docs/chain.md "Binary encoding"), which is deterministic, is what peers send each other
// (`blocks/2` frames, gossip) and what is stored. Measuring the wire form itself keeps every
// valid block under the gossip and frame limits whatever it holds (a list of small numbers is
// 4.5x larger in binary than in JSON, hex text half as large). If the encoding changes, only
// this file follows it.
import type { Block, Transaction } from './types.ts'
import { encodeBlock, encodeBlockFromStored, encodeTx } from './tx-codec.ts'

/** bytes of one transaction's binary form; throws BinaryJsonError when it has none */
export function txSize (tx: Transaction): number {
  return encodeTx(tx).length
}

/** bytes of a block's binary form; throws BinaryJsonError when it has none */
export function blockSize (block: Block): number {
  return encodeBlock(block).length
}

/** blockSize from the transactions' binary forms (encodeTx) already made: the same number */
export function blockSizeOfEncoded (block: Block, encodedTxs: readonly Uint8Array[]): number {
  const { transactions: _txs, ...head } = block
  return encodeBlockFromStored(head, encodedTxs).length
}

/**
 * Bytes a transaction of `txBytes` (txSize) adds to a block's form: its value without the
 * transaction format byte. (The list's count grows by a byte only past 127 entries.)
 */
export function inBlockBytes (txBytes: number): number {
  return txBytes - 1
}
