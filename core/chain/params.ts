// Chain parameters of one network. Everything consensus-relevant that differs between
// testnet, mainnet and devnet is here, so that no code branches on the network name.

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
  initialDifficulty: number
  minDifficulty: number
  maxDifficulty: number
  /** devnet: difficulty never adjusts */
  fixedDifficulty: boolean
  /** devnet: the miner waits so blocks are spaced at the target */
  paceBlocks: boolean
  difficultyInterval: number
  subsidyCoin: number
  halvingInterval: number
  maxSupplyCoin: number
  minFeeCoin: number
  maxTxPerBlock: number
  maxReorgDepth: number
  /** attestation source ids this chain accepts (atomic ids and aggregator compositions) */
  trustedSources: string[]
  /** allowed clock drift of a block's timestamp into the future, seconds */
  maxFutureDrift: number
  /** attestation health timestamp must be within this many seconds of the block timestamp */
  attestationMaxSkew: number
  healthBounds: { monobit: [number, number]; fano: [number, number]; minPoolSize: number }
  /** devnet: seed (hex) of the public pre-funded key pair the faucet pays from, so signups are
   *  paid from block 0; elsewhere the faucet pays from the node's miner wallet. Not consensus. */
  faucetSeed?: string
}
