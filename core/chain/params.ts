// Chain parameters of one network. Everything consensus-relevant that differs between
// testnet, mainnet and devnet is here, so that no code branches on the network name.
import type { EntropySourceEntry } from '../../config/entropy-sources.ts'

export type NetworkName = 'testnet' | 'mainnet' | 'devnet'

export interface GenesisAllocation { address: string; amount: number }

export interface NetworkParams {
  name: NetworkName
  chainId: string
  /** 4-byte p2p magic as hex, so networks never connect to each other */
  magic: string
  testnet: boolean
  versionSuffix: string
  defaultP2pPort: number
  genesisTimestamp: number
  genesisAllocations: GenesisAllocation[]
  foundationAddress: string
  blockTimeTarget: number
  /** compact target (core/chain/target.ts) of block 1, and genesis's */
  initialBits: number
  /** the easiest target a block may carry (the lowest difficulty), compact */
  easiestBits: number
  /** the hardest target a block may carry (the highest difficulty), compact */
  hardestBits: number
  /** devnet: the target never adjusts (it stays initialBits) */
  fixedDifficulty: boolean
  /** devnet: the miner waits so blocks are spaced at the target */
  paceBlocks: boolean
  /** blocks between retargets (SPEC 8: 10) */
  difficultyInterval: number
  /** τ of the retarget rule in block times: an interval one τ late doubles the target (difficulty.ts) */
  retargetHalfLife: number
  /** the most a retarget moves the target: a factor 2^this either way */
  maxRetargetLog2: number
  subsidyCoin: number
  halvingInterval: number
  maxSupplyCoin: number
  minFeeCoin: number
  maxTxPerBlock: number
  /**
   * Largest serialized block (blockSize in block-size.ts), bytes. Below the p2p gossip
   * message limit (4 MiB) and the sync frame (8 MiB), so every valid block can travel.
   */
  maxBlockBytes: number
  /** largest serialized transaction (txSize), bytes; a block must hold several */
  maxTxBytes: number
  /** sum of the gas_limit of a block's contract transactions; also caps one transaction's gas_limit */
  blockGasLimit: number
  /** log bytes (20 address + 32 per topic + data) one transaction may emit */
  maxTxLogBytes: number
  /** log bytes all transactions of a block together may emit */
  maxBlockLogBytes: number
  maxReorgDepth: number
  /** attestation source ids this chain accepts (atomic ids and aggregator compositions) */
  trustedSources: string[]
  /** allowed clock drift of a block's timestamp into the future, seconds */
  maxFutureDrift: number
  /** attestation health timestamp must be within this many seconds of the block timestamp */
  attestationMaxSkew: number
  healthBounds: { monobit: [number, number]; fano: [number, number]; minPoolSize: number }
  /** the source registry whose beacon pins this chain verifies evidence under (tests inject their own) */
  sourceRegistry: readonly EntropySourceEntry[]
  /** envelope v2: blocks must carry at least this many verified beacon rounds (mainnet 1; 0 accepts unverifiable blocks) */
  minBeacons: number
  /** a beacon round's time must lie within [timestamp − before, timestamp + after] of the block, seconds */
  beaconWindow: { before: number; after: number }
  /** devnet: seed (hex) of the public pre-funded key pair the faucet pays from, so signups are
   *  paid from block 0; elsewhere the faucet pays from the node's miner wallet. Not consensus. */
  faucetSeed?: string
}
