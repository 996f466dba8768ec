// The keys each chain object may carry, and nothing else (issue 12, "canonical objects only").
// A key outside these lists is refused on every path (gossip, sync, API): an id covers only
// the signed fields and the block hash only the header, so an unnamed key would be stored and
// relayed by every node without anything vouching for it.

export const TX_KEYS = ['sender', 'recipient', 'amount', 'timestamp', 'transaction_id', 'signature', 'fee', 'data', 'nonce'] as const
/** data of a transfer (memo, public_key) or of a contract transaction (DESIGN 3) */
export const TX_DATA_KEYS = ['memo', 'type', 'code', 'calldata', 'to', 'gas_limit', 'public_key'] as const
export const BLOCK_KEYS = ['version', 'height', 'timestamp', 'previous_hash', 'merkle_root', 'difficulty', 'bits', 'miner', 'nonce', 'hash', 'transactions', 'quantum_signature'] as const
export const QUANTUM_SIGNATURE_KEYS = ['qrng_attestation'] as const
/** envelope v1 keys, and v2's beacon evidence (beacons, local_entropy) */
export const ATTESTATION_KEYS = [
  'version', 'entropy_seed', 'entropy_proof', 'commitment', 'source', 'device_id', 'proof_type', 'health', 'signature', 'public_key',
  'beacons', 'local_entropy'
] as const
export const HEALTH_KEYS = ['monobit_ratio', 'fano_factor', 'pool_size', 'timestamp'] as const
export const BEACON_KEYS = ['source', 'round', 'signature', 'randomness', 'previous_signature'] as const

const ALLOWED = new WeakMap<readonly string[], ReadonlySet<string>>()

/** The first own key of `value` that `allowed` does not name, else undefined. */
export function unknownKey (value: object, allowed: readonly string[]): string | undefined {
  let set = ALLOWED.get(allowed)
  if (set === undefined) { set = new Set(allowed); ALLOWED.set(allowed, set) }
  for (const key of Object.keys(value)) if (!set.has(key)) return key
  return undefined
}

/** `what has unknown key "k"`, the key quoted as JSON so odd characters stay visible (and short) */
export function unknownKeyMessage (what: string, key: string): string {
  const shown = key.length > 64 ? `${key.slice(0, 64)}…` : key
  return `${what} has unknown key ${JSON.stringify(shown)}`
}
