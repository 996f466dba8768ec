// Builds the upstream source objects of a source plan from the plugin config.
import { DEFAULT_BEACONS } from './drand-chains.ts'
import type { DrandChainConfig } from './drand-chains.ts'
import { DrandBeaconSource } from './drand-source.ts'
import { SelfHostedSource } from './self-hosted.ts'
import { RestUpstreamSource } from './rest-source.ts'
import { DevnetBeaconSource } from './devnet-beacon.ts'
import type { UpstreamSource } from './types.ts'
import type { BlsCore } from '../../../core/crypto/bls.ts'
import type { BeaconId, EntropyAggregatorConfig, SupportedSource } from '../config.ts'

export type SourceSettings = Pick<EntropyAggregatorConfig, 'fetchTimeoutMs' | 'beaconMaxAgeSeconds' | 'beacons' | 'selfHosted'>

/** The configured chain of a beacon id: the built-in one with the config's overrides. */
export function beaconChain (id: BeaconId, overrides: SourceSettings['beacons']): DrandChainConfig {
  const chain = { ...DEFAULT_BEACONS[id], ...overrides[id] }
  return { ...chain, chainHash: chain.chainHash.toLowerCase(), publicKey: chain.publicKey.toLowerCase(), urls: [...chain.urls] }
}

export function buildSource (id: SupportedSource, s: SourceSettings, bls?: BlsCore): UpstreamSource {
  if (id === 'self-hosted') {
    if (s.selfHosted.url !== null) return new RestUpstreamSource({ id, url: s.selfHosted.url, timeoutMs: s.fetchTimeoutMs })
    // a hardware seed read may take a slice of the round's deadline, never all of it
    return new SelfHostedSource({ device: s.selfHosted.device, hwrngPath: s.selfHosted.hwrngPath, hwrngTimeoutMs: Math.max(50, Math.floor(s.fetchTimeoutMs / 2)) })
  }
  if (id === 'beacon-devnet') return new DevnetBeaconSource({ bls })
  return new DrandBeaconSource({ id, chain: beaconChain(id, s.beacons), timeoutMs: s.fetchTimeoutMs, maxAgeSeconds: s.beaconMaxAgeSeconds, bls })
}

export function buildSources (ids: readonly SupportedSource[], s: SourceSettings, bls?: BlsCore): UpstreamSource[] {
  return ids.map((id) => buildSource(id, s, bls))
}
