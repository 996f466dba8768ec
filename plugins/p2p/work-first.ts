// Work before anything else (docs/p2p.md "Work first"): what a peer sends as a block is first
// hashed and held against its own difficulty, which must be one the network allows, before any
// other rule looks at it. A junk block then costs its maker real work, not the receiver's CPU,
// logs or events; everything else about a block is only worth checking once this passed.
import type { NetworkParams } from '../../core/chain/params.ts'
import { encodeHeaderPrefix } from '../../core/chain/header.ts'
import type { Block } from '../../core/chain/types.ts'
import { meetsDifficulty } from '../../core/pow/pow-core.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'

/**
 * Why a header's proof of work does not hold, or null: its difficulty must lie within the
 * network's bounds (a block claiming less work than any block may carry is junk whatever its
 * parent) and its hash (computed by the receiver, never taken from the sender) must meet it.
 */
export function workFault (params: NetworkParams, header: { hashBytes: Uint8Array; difficulty: number }): string | null {
  const { difficulty } = header
  if (difficulty < params.minDifficulty || difficulty > params.maxDifficulty) {
    return `difficulty ${difficulty} lies outside the network's ${params.minDifficulty}-${params.maxDifficulty}`
  }
  if (!meetsDifficulty(header.hashBytes, difficulty)) return `hash does not meet its difficulty ${difficulty}`
  return null
}

/**
 * workFault of a whole block (a gossiped full block): its header is encoded from its fields
 * and hashed here, and its claimed `hash` must be that hash.
 */
export function blockWorkFault (params: NetworkParams, block: Block, cores: { pow: PowCore; sha3: Sha3Core }): string | null {
  let prefix: Uint8Array
  try {
    prefix = encodeHeaderPrefix(block, cores.sha3)
  } catch {
    return 'the block has no header (no attestation envelope or a malformed seed)'
  }
  const hashBytes = cores.pow.hashHeader(prefix, block.nonce)
  if (Buffer.from(hashBytes).toString('hex') !== block.hash) return 'hash is not the hash of the header'
  return workFault(params, { hashBytes, difficulty: block.difficulty })
}
