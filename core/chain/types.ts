// Chain data as it travels on the wire (SPEC 2.3) and is stored. Amounts are coin as JSON
// numbers on the wire; the state works in bohm (BigInt), see money.ts.

export interface TxData {
  memo?: string
  type?: 'deploy' | 'call'
  code?: string
  calldata?: string
  to?: string
  gas_limit?: number
  /** hex ML-DSA-87 public key; required on a sender's first transaction */
  public_key?: string
  [key: string]: unknown
}

export interface Transaction {
  sender: string
  recipient: string
  amount: number
  timestamp: number
  transaction_id: string
  signature: string
  fee: number
  data: TxData
  nonce: number
}

export interface HealthSnapshot {
  monobit_ratio: number
  fano_factor: number
  pool_size: number
  timestamp: number
}

/** One beacon round quoted as evidence (hex fields as drand serves them). */
export interface BeaconEvidence {
  /** registered beacon source id (a component of the envelope's source) */
  source: string
  round: number
  signature: string
  randomness: string
  /** chained schemes only: the signature of the round before */
  previous_signature?: string
}

export interface Attestation {
  /** 2: beacon evidence and derived entropy (docs/entropy.md) */
  version: number
  entropy_seed: string
  entropy_proof: string
  commitment: string
  source: string
  device_id: string
  proof_type: string
  health: HealthSnapshot
  /** one entry per beacon component of `source`, sorted by source id; empty when none */
  beacons: BeaconEvidence[]
  /** 32 bytes hex: the non-beacon bytes mixed into the derivation */
  local_entropy: string
  signature?: string
  public_key?: string
}

export interface QuantumSignature { qrng_attestation: Attestation }

export interface Block {
  version: number
  height: number
  timestamp: number
  previous_hash: string
  merkle_root: string
  /** leading zero hex digits of the target `bits` stands for (what every surface shows) */
  difficulty: number
  /** protocol 2: the proof-of-work target in compact form (core/chain/target.ts); in the header */
  bits: number
  miner: string
  nonce: number
  hash: string
  transactions: Transaction[]
  /** null only for the genesis block */
  quantum_signature: QuantumSignature | null
}

export const MINING_REWARD_SENDER = 'mining_reward'
export const GENESIS_SENDER = 'genesis'
export const CONTRACT_RECIPIENT = 'contract'
export const ZERO_HASH = '0'.repeat(128)
