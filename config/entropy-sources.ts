// The entropy source registry (SPEC 2.8). Adding an identifier is a governance-controlled
// code change: it lands here, reviewed, never through runtime configuration.

export type SourceStatus = 'active' | 'testnet' | 'planned'

export interface EntropySourceEntry {
  id: string
  status: SourceStatus
  description: string
  /** hex ML-DSA-87 public key; when set, attestations from this source MUST carry a matching signature */
  publicKey: string | null
}

export const ENTROPY_SOURCE_REGISTRY: readonly EntropySourceEntry[] = [
  { id: 'self-hosted', status: 'testnet', description: 'self-hosted service serving hardware-seeded kernel entropy; default when a provider reports no source id', publicKey: null },
  { id: 'beacon-default', status: 'active', description: 'threshold-signature public randomness beacon (drand default chain)', publicKey: null },
  { id: 'beacon-fastnet', status: 'active', description: 'second public beacon (drand fastnet / quicknet)', publicKey: null },
  { id: 'hardware-qrng-v1', status: 'planned', description: 'hardware quantum RNG device', publicKey: null },
  { id: 'vendor-server-v0', status: 'planned', description: 'vendor-operated QRNG server', publicKey: null }
]

export const DEFAULT_SOURCE_ID = 'self-hosted'
export const AGGREGATOR_PREFIX = 'aggregator:'

export function findSource (id: string, registry: readonly EntropySourceEntry[] = ENTROPY_SOURCE_REGISTRY): EntropySourceEntry | undefined {
  return registry.find((s) => s.id === id)
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
