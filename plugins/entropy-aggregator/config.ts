// The plugin's config section (`entropy-aggregator` in ledger.config.ts) and its resolution
// against the network: which sources, which quorum. Defaults come from the trust list, so a
// network that trusts `self-hosted` (testnet, devnet) mines offline out of the box, and one
// that does not (mainnet) is never offered it.
import { ConfigError } from '../../core/kernel/config.ts'
import type { JsonSchema } from '../../core/kernel/plugin.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import { aggregatorId, beaconComponents } from '../../config/entropy-sources.ts'
import { DRAND_SCHEME_IDS } from './sources/drand-schemes.ts'
import type { DrandScheme } from './sources/drand-schemes.ts'
import type { SelfHostedDevice } from './sources/self-hosted.ts'

export const PLUGIN_NAME = 'entropy-aggregator'

/** The registered ids this aggregator has a client for. */
export const SUPPORTED_SOURCES = ['beacon-default', 'beacon-fastnet', 'beacon-devnet', 'self-hosted'] as const
export type SupportedSource = typeof SUPPORTED_SOURCES[number]
/** the drand beacons fetched from relays (beacon-devnet is signed locally: nothing to configure) */
export type BeaconId = Exclude<SupportedSource, 'self-hosted' | 'beacon-devnet'>

export interface BeaconOverride {
  urls?: string[]
  chainHash?: string
  publicKey?: string
  scheme?: DrandScheme
  period?: number
  genesisTime?: number
}

export interface EntropyAggregatorConfig {
  host: string
  port: number
  /** an external SPEC 4.6 source (--entropy-url): the node draws from it; no server, no pool here */
  url: string | null
  /** null: beacon-devnet + self-hosted on devnet, beacon-default + self-hosted where self-hosted is trusted, else the two beacons */
  sources: SupportedSource[] | null
  /** null: 1 when self-hosted is among the sources, else min(2, sources) */
  minQuorum: number | null
  poolCapacity: number
  refillThreshold: number
  refillBatchBytes: number
  fetchTimeoutMs: number
  warmupMs: number
  requestWaitMs: number
  probeIntervalMs: number
  backoffMaxMs: number
  /** a beacon older than this (by its chain's schedule) is refused; null accepts any age */
  beaconMaxAgeSeconds: number | null
  beacons: Partial<Record<BeaconId, BeaconOverride>>
  selfHosted: { device: SelfHostedDevice; hwrngPath: string; url: string | null }
}

const beaconSchema: JsonSchema = {
  type: 'object',
  properties: {
    urls: { type: 'array', items: { type: 'string', pattern: '^https?://' }, minItems: 1 },
    chainHash: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
    publicKey: { type: 'string', pattern: '^(?:[0-9a-fA-F]{96}|[0-9a-fA-F]{192})$' },
    scheme: { type: 'string', enum: DRAND_SCHEME_IDS },
    period: { type: 'integer', minimum: 1 },
    genesisTime: { type: 'integer', minimum: 0 }
  },
  additionalProperties: false
}

export const configSchema: JsonSchema = {
  properties: {
    host: { type: 'string', minLength: 1, default: '127.0.0.1' },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 8420 },
    url: { type: ['string', 'null'], pattern: '^https?://', default: null },
    sources: { type: ['array', 'null'], items: { type: 'string', enum: SUPPORTED_SOURCES }, minItems: 1, uniqueItems: true, default: null },
    minQuorum: { type: ['integer', 'null'], minimum: 1, default: null },
    poolCapacity: { type: 'integer', minimum: 64, maximum: 65536, default: 65536 },
    refillThreshold: { type: 'number', exclusiveMinimum: 0, maximum: 1, default: 0.5 },
    refillBatchBytes: { type: 'integer', minimum: 64, maximum: 65536, default: 32768 },
    fetchTimeoutMs: { type: 'integer', minimum: 50, maximum: 60_000, default: 2000 },
    warmupMs: { type: 'integer', minimum: 0, maximum: 60_000, default: 2500 },
    requestWaitMs: { type: 'integer', minimum: 0, maximum: 60_000, default: 2000 },
    probeIntervalMs: { type: 'integer', minimum: 100, default: 30_000 },
    backoffMaxMs: { type: 'integer', minimum: 100, default: 60_000 },
    beaconMaxAgeSeconds: { type: ['integer', 'null'], minimum: 1, default: 300 },
    beacons: {
      type: 'object',
      properties: { 'beacon-default': beaconSchema, 'beacon-fastnet': beaconSchema },
      additionalProperties: false,
      default: {}
    },
    selfHosted: {
      type: 'object',
      properties: {
        device: { type: 'string', enum: ['auto', 'kernel', 'hwrng'], default: 'auto' },
        hwrngPath: { type: 'string', minLength: 1, default: '/dev/hwrng' },
        url: { type: ['string', 'null'], pattern: '^https?://', default: null }
      },
      additionalProperties: false,
      default: {}
    }
  },
  additionalProperties: false
}

export interface SourcePlan {
  sources: SupportedSource[]
  minQuorum: number
}

function configError (key: string, detail: string): ConfigError {
  return new ConfigError(`invalid config: "${PLUGIN_NAME}.${key}" ${detail}`)
}

/** Every id the aggregator may report: each subset of at least min_quorum sources. */
function reportableIds (sources: readonly string[], minQuorum: number): string[] {
  if (sources.length === 1) return [...sources]
  const out: string[] = []
  for (let mask = 1; mask < 1 << sources.length; mask++) {
    const subset = sources.filter((_, i) => (mask & (1 << i)) !== 0)
    if (subset.length >= minQuorum) out.push(aggregatorId(subset))
  }
  return out
}

/**
 * Sources and quorum for this network, or a ConfigError naming the key: a source the network
 * does not trust (self-hosted on mainnet), a quorum above the source count, or a composition
 * the network's validators would refuse.
 */
export function planSources (sources: readonly SupportedSource[] | null, minQuorum: number | null, params: NetworkParams): SourcePlan {
  const trusts = (id: string): boolean => params.trustedSources.includes(id)
  const chosen: SupportedSource[] = sources === null
    ? (trusts('beacon-devnet') ? ['beacon-devnet', 'self-hosted'] : trusts('self-hosted') ? ['beacon-default', 'self-hosted'] : ['beacon-default', 'beacon-fastnet'])
    : [...sources]
  for (const id of chosen) {
    if (!trusts(id)) {
      const hint = id === 'self-hosted' ? ' (self-hosted is accepted by the testnet and devnet trust lists only; use the beacons)' : ''
      throw configError('sources', `'${id}' is not in the ${params.name} trust list${hint}`)
    }
  }
  // where the chain requires beacon evidence, self-hosted may never answer alone
  const selfHostedQuorum = params.minBeacons === 0 ? 1 : chosen.length
  const quorum = minQuorum ?? (chosen.includes('self-hosted') ? selfHostedQuorum : Math.min(2, chosen.length))
  if (quorum > chosen.length) throw configError('minQuorum', `is ${quorum} but only ${chosen.length} source(s) are configured`)
  for (const id of reportableIds(chosen, quorum)) {
    if (!trusts(id)) throw configError('sources', `would report '${id}', which the ${params.name} trust list does not accept; raise minQuorum or change the sources`)
    if (beaconComponents(id, params.sourceRegistry).length < params.minBeacons) {
      throw configError('minQuorum', `would let the aggregator report '${id}' without beacon evidence, which the ${params.name} chain requires; raise minQuorum or change the sources`)
    }
  }
  return { sources: chosen, minQuorum: quorum }
}
