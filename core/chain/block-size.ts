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

/**
 * blockSize from the transactions' binary forms (encodeTx) already made: the same number,
 * counted instead of assembled. In the block's form the list is its count (LEB128) and each
 * transaction's form without its format byte (encodeBlockFromStored).
 */
export function blockSizeOfEncoded (block: Block, encodedTxs: readonly Uint8Array[]): number {
  const { transactions: _txs, ...head } = block
  let size = encodeBlockFromStored(head, []).length - leb128Bytes(0) + leb128Bytes(encodedTxs.length)
  for (const tx of encodedTxs) size += tx.length - 1
  return size
}

function leb128Bytes (n: number): number {
  let bytes = 1
  while (n >= 0x80) { n = Math.floor(n / 128); bytes++ }
  return bytes
}

/**
 * Bytes a transaction of `txBytes` (txSize) adds to a block's form: its value without the
 * transaction format byte. (The list's count grows by a byte only past 127 entries.)
 */
export function inBlockBytes (txBytes: number): number {
  return txBytes - 1
}
