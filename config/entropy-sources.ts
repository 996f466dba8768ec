// The entropy source registry (SPEC 2.8). Adding an identifier is a governance-controlled
// code change: it lands here, reviewed, never through runtime configuration.

import type { DrandScheme } from '../core/entropy/drand-schemes.ts'

export type SourceStatus = 'active' | 'testnet' | 'devnet' | 'planned'

/**
 * What the chain pins for a beacon source: every block naming the source carries a round of
 * this beacon that verifies under exactly this key and scheme (envelope v2, docs/entropy.md).
 */
export interface BeaconPin {
  scheme: DrandScheme
  /** hex compressed BLS public key of the beacon group */
  publicKey: string
  /** seconds between rounds, and Unix time of round 1: a round's time is genesis + (round − 1) × period */
  period: number
  genesisTime: number
  /** hex chain hash (drand's chain info hash; for beacon-devnet see DEVNET_BEACON) */
  chainHash: string
}

export interface EntropySourceEntry {
  id: string
  status: SourceStatus
  description: string
  /** hex ML-DSA-87 public key; when set, attestations from this source MUST carry a matching signature */
  publicKey: string | null
  /** set for beacon sources: the pinned beacon key the block's evidence must verify under */
  beacon?: BeaconPin | null
}

/**
 * devnet's beacon, like the devnet dev account: a PUBLIC key pair, so every devnet node signs
 * the rounds locally and mines offline through the same verifier real drand evidence takes.
 * It proves nothing about time (anyone can sign any round). Seed = SHA-384("ledger devnet beacon");
 * chain hash = SHA-256 of "scheme|public_key|period|genesis_time".
 */
export const DEVNET_BEACON = {
  seed: 'fa22b21031dba39219f4fbadb0364ebef0a098495fc30aa5c152b072798620546b2e6ffb8c40ee51ad2c765516dffe34',
  pin: {
    scheme: 'bls-unchained-g1-rfc9380',
    publicKey: 'b671ec36c562e92e6a516ecf54c64c15fd1f8d8a3eb944617da202f481f75183d910ba61cc5c1625aef596781809c2b0031769d7bb99c04f626833298d1e60a02f1fa608a432b7ff8cce168738f73e6ba934db3609f7e0df0fdf9160372c6bba',
    period: 3,
    // the devnet genesis timestamp (config/networks.ts)
    genesisTime: 1767225600,
    chainHash: '81b71bce6ae53474432347b586f294aa74228e9e4093255373bcd273a6058567'
  } satisfies BeaconPin
} as const

/** League of Entropy chains, from drand's published chain info (GET /{chainhash}/info). */
const DRAND_DEFAULT_PIN: BeaconPin = {
  scheme: 'pedersen-bls-chained',
  publicKey: '868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c7293784a9402801af31',
  period: 30,
  genesisTime: 1595431050,
  chainHash: '8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce'
}
// quicknet, the successor of the retired fastnet: unchained, signatures on G1, 3 s rounds
const DRAND_QUICKNET_PIN: BeaconPin = {
  scheme: 'bls-unchained-g1-rfc9380',
  publicKey: '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  period: 3,
  genesisTime: 1692803367,
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971'
}

export const ENTROPY_SOURCE_REGISTRY: readonly EntropySourceEntry[] = [
  { id: 'self-hosted', status: 'testnet', description: 'self-hosted service serving hardware-seeded kernel entropy; default when a provider reports no source id', publicKey: null },
  { id: 'beacon-default', status: 'active', description: 'threshold-signature public randomness beacon (drand default chain)', publicKey: null, beacon: DRAND_DEFAULT_PIN },
  { id: 'beacon-fastnet', status: 'active', description: 'second public beacon (drand fastnet / quicknet)', publicKey: null, beacon: DRAND_QUICKNET_PIN },
  { id: 'beacon-devnet', status: 'devnet', description: 'devnet beacon with a public key, signed by every devnet node (drand quicknet scheme)', publicKey: null, beacon: DEVNET_BEACON.pin },
  { id: 'hardware-qrng-v1', status: 'planned', description: 'hardware quantum RNG device', publicKey: null },
  { id: 'vendor-server-v0', status: 'planned', description: 'vendor-operated QRNG server', publicKey: null }
]

export const DEFAULT_SOURCE_ID = 'self-hosted'
export const AGGREGATOR_PREFIX = 'aggregator:'

export function findSource (id: string, registry: readonly EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY): EntropySourceEntry | undefined {
  return registry.find((s) => s.id === id)
}

/** The pinned beacon of a registered id, or null for a source that is no beacon. */
export function beaconPin (id: string, registry: readonly EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY): BeaconPin | null {
  return findSource(id, registry)?.beacon ?? null
}

/** The beacon components of a source id, sorted: the order the envelope's `beacons` list follows. */
export function beaconComponents (id: string, registry: readonly EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY): string[] {
  return sourceComponents(id).filter((c) => beaconPin(c, registry) !== null).sort()
}

/** Component ids of a source id: itself for an atomic id, the parts of aggregator:<a>+<b>. */
export function sourceComponents (id: string): string[] {
  if (!id.startsWith(AGGREGATOR_PREFIX)) return [id]
  return id.slice(AGGREGATOR_PREFIX.length).split('+')
}

/** Canonical form of an aggregator composition: components sorted, so order does not matter. */
export function aggregatorId (components: readonly string[]): string {
  return AGGREGATOR_PREFIX + [...components].sort().join('+')
}

/** Registered = every component is in the registry (SPEC 2.8 rule 3). */
export function isRegisteredSource (id: string, registry: readonly EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY): boolean {
  const parts = sourceComponents(id)
  return parts.length > 0 && parts.every((p) => p.length > 0 && findSource(p, registry) !== undefined) && new Set(parts).size === parts.length
}

/** Every aggregator composition of the given atomic ids (non-empty subsets), canonical form. */
export function aggregatorCompositions (ids: readonly string[]): string[] {
  const out: string[] = []
  for (let mask = 1; mask < 1 << ids.length; mask++) {
    out.push(aggregatorId(ids.filter((_, i) => (mask & (1 << i)) !== 0)))
  }
  return out
}

/** A trusted beacon as GET {dashboard}/api/qrng publishes it: what an outside verifier needs. */
export interface PublishedBeacon {
  id: string
  scheme: string
  public_key: string
  period: number
  genesis_time: number
  chain_hash: string
}

/** Every beacon some trusted source of the chain names, with its pinned key, sorted by id. */
export function trustedBeacons (trustedSources: readonly string[], registry: readonly EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY): PublishedBeacon[] {
  const ids = new Set(trustedSources.flatMap((s) => beaconComponents(s, registry)))
  return [...ids].sort().map((id) => {
    const pin = beaconPin(id, registry) as BeaconPin
    return { id, scheme: pin.scheme, public_key: pin.publicKey, period: pin.period, genesis_time: pin.genesisTime, chain_hash: pin.chainHash }
  })
}
