// Merkle root (DESIGN 3): SHA3-512 leaves, pairwise over raw digests, odd count duplicates
// the last. A leaf commits to the whole transaction, signature included, so a relay cannot
// swap in another valid signature without changing the block hash.
import { sha3_512 } from '../crypto/sha3.ts'
import type { Transaction } from './types.ts'
import { canonicalJson } from './tx.ts'

export function txLeaf (tx: Transaction): Uint8Array {
  return sha3_512(canonicalJson(tx))
}

export function merkleRoot (txs: readonly Transaction[]): string {
  if (txs.length === 0) return Buffer.from(sha3_512(new Uint8Array(0))).toString('hex')
  let level = txs.map(txLeaf)
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Uint8Array
      const right = level[i + 1] ?? left
      const pair = new Uint8Array(128)
      pair.set(left, 0)
      pair.set(right, 64)
      next.push(sha3_512(pair))
    }
    level = next
  }
  return Buffer.from(level[0] as Uint8Array).toString('hex')
}
