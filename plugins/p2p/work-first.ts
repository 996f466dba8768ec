// Work before anything else (docs/p2p.md "Work first"): what a peer sends as a block is first
// hashed and held against its own difficulty, which must be one the network allows, before any
// other rule looks at it. A junk block then costs its maker real work, not the receiver's CPU,
// logs or events; everything else about a block is only worth checking once this passed.
import type { NetworkParams } from '../../core/chain/params.ts'
import { encodeHeaderPrefix } from '../../core/chain/header.ts'
import { bitsProblem, bitsTargetBytes, decodeBits } from '../../core/chain/target.ts'
import type { Block } from '../../core/chain/types.ts'
import { meetsTarget } from '../../core/pow/pow-core.ts'
import type { PowCore } from '../../core/pow/pow-core.ts'
import type { Sha3Core } from '../../core/crypto/sha3.ts'

/**
 * Why a header's proof of work does not hold, or null: its target (`bits`) must be a canonical
 * compact target within the network's bounds (a block claiming less work than any block may
 * carry is junk whatever its parent) and its hash (computed by the receiver, never taken from
 * the sender) must be at most that target (`meetsTarget`, the one PoW check).
 */
export function workFault (params: NetworkParams, header: { hashBytes: Uint8Array; bits: number }): string | null {
  const { bits } = header
  const problem = bitsProblem(bits)
  if (problem !== undefined) return problem
  const target = decodeBits(bits)
  if (target > decodeBits(params.easiestBits) || target < decodeBits(params.hardestBits)) {
    return `target bits 0x${bits.toString(16).padStart(8, '0')} lie outside the network's bounds`
  }
  if (!meetsTarget(header.hashBytes, bitsTargetBytes(bits))) return 'hash is above its target'
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
  return workFault(params, { hashBytes, bits: block.bits })
}
