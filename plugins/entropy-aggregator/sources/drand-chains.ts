// The public beacons the registry's beacon ids stand for, with the League of Entropy's relays.
// The public key is the trust anchor: every beacon is verified against it, whatever relay
// served it. The keys are the registry's pins (config/entropy-sources.ts).
import type { DrandScheme } from './drand-schemes.ts'
import { beaconPin } from '../../../config/entropy-sources.ts'

export interface DrandChainConfig {
  /** relays serving drand's HTTP API */
  urls: string[]
  /** hex chain hash (the URL path segment) */
  chainHash: string
  /** hex compressed BLS public key of the group */
  publicKey: string
  scheme: DrandScheme
  /** seconds between rounds and Unix time of round 1: used to refuse stale beacons */
  period: number
  genesisTime: number
}

export const DRAND_RELAYS = ['https://api.drand.sh', 'https://api2.drand.sh', 'https://api3.drand.sh', 'https://drand.cloudflare.com']

function fromPin (id: string): DrandChainConfig {
  const pin = beaconPin(id)
  if (pin === null) throw new Error(`${id} has no pinned beacon in the registry`)
  return { urls: DRAND_RELAYS, chainHash: pin.chainHash, publicKey: pin.publicKey, scheme: pin.scheme, period: pin.period, genesisTime: pin.genesisTime }
}

// the registry's pins are the trust anchor; this adds where to fetch them
export const DEFAULT_BEACONS: Readonly<Record<'beacon-default' | 'beacon-fastnet', DrandChainConfig>> = {
  // League of Entropy mainnet "default" chain: chained, 30 s rounds
  'beacon-default': fromPin('beacon-default'),
  // "quicknet", the successor of the retired fastnet: unchained, signatures on G1, 3 s rounds
  'beacon-fastnet': fromPin('beacon-fastnet')
}
