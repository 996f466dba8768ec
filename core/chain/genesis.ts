// Genesis block of a network: deterministic from its parameters, no proof-of-work and no
// attestation (nothing precedes it to attest).
import type { NetworkParams } from './params.ts'
import type { Block } from './types.ts'
import { GENESIS_SENDER, ZERO_HASH } from './types.ts'
import { systemTransaction } from './tx.ts'
import { merkleRoot } from './merkle.ts'
import { blockHash } from './header.ts'
import { DEFAULT_SHA3_CORE } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import { DEFAULT_POW_CORE } from '../pow/pow-core.ts'
import type { PowCore } from '../pow/pow-core.ts'
import { difficultyOfBits } from './target.ts'

/** 2: the header carries a compact target (`bits`) instead of a leading-zero count */
export const BLOCK_VERSION = 2

/** `cores`: what hashes it (a kernel passes its own; every core gives the same block) */
export function genesisBlock (params: NetworkParams, cores: { pow: PowCore; sha3: Sha3Core } = { pow: DEFAULT_POW_CORE, sha3: DEFAULT_SHA3_CORE }): Block {
  const transactions = params.genesisAllocations.map((a, i) => systemTransaction(params.chainId, {
    sender: GENESIS_SENDER,
    recipient: a.address,
    amount: a.amount,
    fee: 0,
    timestamp: params.genesisTimestamp,
    nonce: i,
    data: {}
  }, cores.sha3))
  const header = {
    version: BLOCK_VERSION,
    height: 0,
    timestamp: params.genesisTimestamp,
    previous_hash: ZERO_HASH,
    merkle_root: merkleRoot(transactions, cores.sha3),
    difficulty: difficultyOfBits(params.initialBits),
    bits: params.initialBits,
    miner: '0'.repeat(32),
    quantum_signature: null,
    nonce: 0
  }
  return { ...header, hash: blockHash(header, cores), transactions }
}
