// One place that turns a source plan and the plugin settings into a running-ready aggregator,
// shared by the plugin and the standalone server.
import type { Logger } from 'pino'
import type { NetworkParams } from '../../core/chain/params.ts'
import { EntropyAggregator } from './aggregator.ts'
import { buildSources } from './sources/index.ts'
import type { EntropyAggregatorConfig, SourcePlan } from './config.ts'
import type { BlsCore } from '../../core/crypto/bls.ts'

export type AggregatorSettings = Omit<EntropyAggregatorConfig, 'host' | 'port' | 'url' | 'sources' | 'minQuorum'>

const BACKOFF_BASE_MS = 1000

/** `bls`: the kernel's BLS core, which verifies every beacon round (default: the JS core) */
export function createAggregator (plan: SourcePlan, s: AggregatorSettings, params: NetworkParams, logger: Logger, bls?: BlsCore): EntropyAggregator {
  return new EntropyAggregator({
    sources: buildSources(plan.sources, s, bls),
    minQuorum: plan.minQuorum,
    capacity: s.poolCapacity,
    refillThreshold: s.refillThreshold,
    batchBytes: s.refillBatchBytes,
    timeoutMs: s.fetchTimeoutMs,
    probeIntervalMs: s.probeIntervalMs,
    backoff: { baseMs: BACKOFF_BASE_MS, maxMs: s.backoffMaxMs },
    healthBounds: params.healthBounds,
    logger
  })
}
