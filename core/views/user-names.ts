// User names (SPEC 8): 2..32 chars of [A-Za-z0-9_-], unique regardless of case so that
// "Alice" cannot impersonate "alice".

/**
 * Names the node itself shows as labels (the genesis premine is "foundation", special senders
 * and recipients are "genesis", "mining_reward" and "contract") or that read as the operator's
 * voice. No user may take one in any spelling, so an explorer label never points at a user.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  'admin', 'administrator', 'root', 'system', 'operator', 'moderator', 'support',
  'foundation', 'genesis', 'mining_reward', 'mining-reward', 'coinbase', 'contract', 'faucet', 'miner', 'node'
])

export function isReservedName (name: string): boolean {
  return RESERVED_NAMES.has(name.toLowerCase())
}

export const NAME_RE = /^[A-Za-z0-9_-]{2,32}$/

export function isValidName (v: unknown): v is string {
  return typeof v === 'string' && NAME_RE.test(v)
}

export function nameKey (name: string): string {
  return name.toLowerCase()
}
