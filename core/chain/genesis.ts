// Genesis block of a network: deterministic from its parameters, no proof-of-work and no
// attestation (nothing precedes it to attest).
import type { NetworkParams } from './params.ts'
import type { Block } from './types.ts'
import { GENESIS_SENDER, ZERO_HASH } from './types.ts'
import { systemTransaction } from './tx.ts'
import { merkleRoot } from './merkle.ts'
import { blockHash } from './header.ts'

export const BLOCK_VERSION = 1

export function genesisBlock (params: NetworkParams): Block {
  const transactions = params.genesisAllocations.map((a, i) => systemTransaction(params.chainId, {
    sender: GENESIS_SENDER,
    recipient: a.address,
    amount: a.amount,
    fee: 0,
    timestamp: params.genesisTimestamp,
    nonce: i,
    data: {}
  }))
  const header = {
    version: BLOCK_VERSION,
    height: 0,
    timestamp: params.genesisTimestamp,
    previous_hash: ZERO_HASH,
    merkle_root: merkleRoot(transactions),
    difficulty: 0,
    miner: '0'.repeat(32),
    quantum_signature: null,
    nonce: 0
  }
  return { ...header, hash: blockHash(header), transactions }
}
