// Network parameter sets and genesis allocations (DESIGN 3).
import type { NetworkName, NetworkParams } from '../core/chain/params.ts'
import { aggregatorCompositions, ENTROPY_SOURCE_REGISTRY } from './entropy-sources.ts'

export const FOUNDATION_ADDRESS = '34378b1ba5be9d0999acd60be3a8a1f1'

/**
 * devnet's pre-funded account, like geth --dev: a PUBLIC key pair anyone can use on a
 * development chain. Seed = SHA3-256("ledger devnet dev account"). Never use it elsewhere.
 */
export const DEVNET_DEV_ACCOUNT = {
  seed: '2b578edcb436596018d1348e70940cf16f07026b6618901cb01f727c3fbf97b7',
  address: '56a7dc8c20fa1a527d16494fe1b35e4e',
  balance: 1_000_000
} as const

const healthBounds = { monobit: [0.40, 0.60] as [number, number], fano: [0.5, 1.5] as [number, number], minPoolSize: 64 }

const common = {
  foundationAddress: FOUNDATION_ADDRESS,
  // the retarget (core/chain/difficulty.ts, docs/protocol.md "Difficulty schedule"): every
  // 10 blocks (SPEC 8), τ = 15 block times, at most a factor 2 a retarget
  difficultyInterval: 10,
  retargetHalfLife: 15,
  maxRetargetLog2: 1,
  subsidyCoin: 5,
  halvingInterval: 2_100_000,
  maxSupplyCoin: 21_000_000,
  minFeeCoin: 0.0001,
  maxTxPerBlock: 100,
  // Consensus limits on bytes and work (issue 12; sizing in docs/chain.md). Each sits below
  // the next: transaction < block < gossip message (4 MiB) < sync frame (8 MiB). The block
  // gas limit is per network below: a full block must execute well within one interval.
  maxTxBytes: 300 * 1024,
  maxBlockBytes: 2 * 1024 * 1024,
  maxTxLogBytes: 64 * 1024,
  maxBlockLogBytes: 512 * 1024,
  maxReorgDepth: 100,
  maxFutureDrift: 120,
  attestationMaxSkew: 60,
  healthBounds,
  sourceRegistry: ENTROPY_SOURCE_REGISTRY,
  beaconWindow: { before: 60, after: 5 }
}

// The testnet trusts the self-hosted source (it must mine offline) and every composition the
// built-in aggregator can report from the registered active sources; mainnet never trusts self-hosted.
const testnetSources = ['beacon-default', 'beacon-fastnet', 'self-hosted']
const mainnetSources = ['beacon-default', 'beacon-fastnet']
// devnet signs its own beacon (beacon-devnet) and requires it, so every devnet block is verifiable offline
const devnetSources = ['beacon-devnet', 'beacon-default', 'beacon-fastnet', 'self-hosted']

export const NETWORKS: Record<NetworkName, NetworkParams> = {
  testnet: {
    ...common,
    name: 'testnet',
    chainId: 'ledger-testnet-1',
    magic: '4c544e31',
    testnet: true,
    versionSuffix: 'testnet',
    defaultP2pPort: 18333,
    genesisTimestamp: 1767225600,
    genesisAllocations: [{ address: FOUNDATION_ADDRESS, amount: 1_000_000 }],
    blockTimeTarget: 5,
    blockGasLimit: 20_000_000,
    // 2^25 hashes a block: 4.5 s at 7.5 M hashes/s, what this node's SIMD core does on one
    // core of a quiet 2-core machine (measured 2026-11-27), where the miner runs one thread by
    // default (one per core but one); difficulty 6 on every surface
    initialBits: 0x3d7fffff,
    // difficulty 2 (2^504 − 2^480) .. 7 (2^480: 2^32 hashes, 5 s up to ~860 M hashes/s)
    easiestBits: 0x3fffffff,
    hardestBits: 0x3d010000,
    fixedDifficulty: false,
    paceBlocks: false,
    trustedSources: [...testnetSources, ...aggregatorCompositions(testnetSources), 'aggregator:placeholder-v0'],
    // self-hosted blocks (no beacon answered) are accepted and shown as unverifiable
    minBeacons: 0
  },
  mainnet: {
    ...common,
    name: 'mainnet',
    chainId: 'ledger-mainnet-1',
    magic: '4c4d4e31',
    testnet: false,
    versionSuffix: 'mainnet',
    defaultP2pPort: 8333,
    genesisTimestamp: 1767225600,
    genesisAllocations: [{ address: FOUNDATION_ADDRESS, amount: 1_000_000 }],
    blockTimeTarget: 60,
    blockGasLimit: 20_000_000,
    // 2^29 hashes a block: ~70 s on the same one miner thread (as testnet's); difficulty 7
    initialBits: 0x3d07ffff,
    // difficulty 2 .. 8 (SPEC 8: MAX_DIFFICULTY = 8; 2^476, the hardest target of difficulty 8)
    easiestBits: 0x3fffffff,
    hardestBits: 0x3c100000,
    fixedDifficulty: false,
    paceBlocks: false,
    trustedSources: [...mainnetSources, ...aggregatorCompositions(mainnetSources)],
    minBeacons: 1
  },
  devnet: {
    ...common,
    name: 'devnet',
    chainId: 'ledger-devnet-1',
    magic: '4c444e31',
    testnet: true,
    versionSuffix: 'devnet',
    defaultP2pPort: 28333,
    genesisTimestamp: 1767225600,
    genesisAllocations: [
      { address: FOUNDATION_ADDRESS, amount: 1_000_000 },
      { address: DEVNET_DEV_ACCOUNT.address, amount: DEVNET_DEV_ACCOUNT.balance }
    ],
    blockTimeTarget: 2,
    blockGasLimit: 10_000_000,
    // fixed at difficulty 2 (2^504 − 2^480: 256 hashes a block), paced by the miner
    initialBits: 0x3fffffff,
    easiestBits: 0x3fffffff,
    hardestBits: 0x3fffffff,
    fixedDifficulty: true,
    paceBlocks: true,
    faucetSeed: DEVNET_DEV_ACCOUNT.seed,
    trustedSources: [...devnetSources, ...aggregatorCompositions(devnetSources)],
    minBeacons: 1
  }
}

export function networkParams (name: NetworkName): NetworkParams { return NETWORKS[name] }
