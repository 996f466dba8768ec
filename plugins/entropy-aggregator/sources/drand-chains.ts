// The public beacons the registry's beacon ids stand for, with the League of Entropy's relays.
// The public key is the trust anchor: every beacon is verified against it, whatever relay
// served it. Values from drand's published chain info (GET /{chainhash}/info).
import type { DrandScheme } from './drand-schemes.ts'

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

export const DEFAULT_BEACONS: Readonly<Record<'beacon-default' | 'beacon-fastnet', DrandChainConfig>> = {
  // League of Entropy mainnet "default" chain: chained, 30 s rounds
  'beacon-default': {
    urls: DRAND_RELAYS,
    chainHash: '8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce',
    publicKey: '868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c7293784a9402801af31',
    scheme: 'pedersen-bls-chained',
    period: 30,
    genesisTime: 1595431050
  },
  // "quicknet", the successor of the retired fastnet: unchained, signatures on G1, 3 s rounds
  'beacon-fastnet': {
    urls: DRAND_RELAYS,
    chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
    publicKey: '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
    scheme: 'bls-unchained-g1-rfc9380',
    period: 3,
    genesisTime: 1692803367
  }
}
