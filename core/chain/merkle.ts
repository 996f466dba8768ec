// Merkle root (DESIGN 3, leaves as docs/chain.md "Binary encoding" fixes them): SHA3-512
// leaves, pairwise over raw digests, odd count duplicates the last. A leaf is SHA3-512 of the
// transaction's binary form (tx-codec.ts), which commits to the whole transaction, signature
// included, so a relay cannot swap in another valid signature without changing the block hash.
import { DEFAULT_SHA3_CORE } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import type { Transaction } from './types.ts'
import { encodeTx } from './tx-codec.ts'

export function txLeaf (tx: Transaction, sha3: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array {
  return sha3.sha3_512(encodeTx(tx))
}

/** The leaves of transactions already in their binary forms (what txLeaf hashes). */
export function leavesOfEncoded (encoded: readonly Uint8Array[], sha3: Sha3Core = DEFAULT_SHA3_CORE): Uint8Array[] {
  return encoded.map((bytes) => sha3.sha3_512(bytes))
}

/** Throws BinaryJsonError when a transaction is not a JSON value (a malformed block). */
export function merkleRoot (txs: readonly Transaction[], sha3: Sha3Core = DEFAULT_SHA3_CORE): string {
  return merkleRootOfLeaves(txs.map((tx) => txLeaf(tx, sha3)), sha3)
}

export function merkleRootOfLeaves (leaves: readonly Uint8Array[], sha3: Sha3Core = DEFAULT_SHA3_CORE): string {
  if (leaves.length === 0) return Buffer.from(sha3.sha3_512(new Uint8Array(0))).toString('hex')
  let level = leaves
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Uint8Array
      const right = level[i + 1] ?? left
      const pair = new Uint8Array(128)
      pair.set(left, 0)
      pair.set(right, 64)
      next.push(sha3.sha3_512(pair))
    }
    level = next
  }
  return Buffer.from(level[0] as Uint8Array).toString('hex')
}
