// Response schemas of the dashboard's own resources (SPEC 2.2); the chain views' schemas are
// shared with the explorer (plugins/http/chain-views/schemas.ts, the `http` service's `chainViews`).
const str = { type: 'string' } as const
const int = { type: 'integer' } as const
const num = { type: 'number' } as const
const bool = { type: 'boolean' } as const
const nullableStr = { type: ['string', 'null'] } as const
const ts = { type: 'number', description: 'Unix seconds' } as const

const obj = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: 'object',
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties
})

export const statusSchema = obj({
  node_running: bool,
  chain_height: int,
  peer_count: int,
  mining_active: bool,
  qrng_reachable: bool,
  simulate: bool,
  sync_state: { type: 'string', enum: ['idle', 'syncing', 'synced'] }
})

export const nodeSchema = obj({
  node_id: str,
  version: str,
  network: str,
  status: str,
  started_at: ts,
  uptime_seconds: num,
  data_dir: str
})

export const chainSummarySchema = obj({
  height: int,
  tip_hash: str,
  tip_timestamp: ts,
  total_supply: num,
  max_supply: int,
  difficulty: int,
  block_time_target: int,
  testnet: bool,
  network: str,
  genesis_hash: str,
  chain_id: { type: 'string', description: 'signed into every transaction (DESIGN 3); a wallet reads it here' }
})

/** what a wallet needs to build its next transaction */
export const accountSchema = obj({
  address: { type: 'string', description: '32-hex wallet address' },
  balance: { type: 'number', description: 'confirmed balance, coin' },
  spendable: { type: 'number', description: 'balance minus the amount + fee of this sender\'s pending transactions' },
  nonce: { type: 'integer', description: 'confirmed nonce (transactions confirmed so far)' },
  next_nonce: { type: 'integer', description: 'the nonce the next transaction must carry (pending ones counted)' },
  pending_count: int,
  public_key_known: { type: 'boolean', description: 'false: the next transaction must carry data.public_key' }
})

export const mempoolSchema = obj({
  pending_count: int,
  capacity: int,
  transactions: {
    type: 'array',
    items: obj({
      tx_id: str,
      sender: str,
      recipient: str,
      amount: num,
      fee: num,
      timestamp: ts,
      nonce: int,
      kind: str,
      data: { type: 'object', additionalProperties: true }
    })
  }
})

export const miningSchema = obj({
  enabled: bool,
  running: bool,
  blocks_mined: int,
  miner_address: str,
  simulation_mode: bool,
  qrng_source: str,
  hash_rate: num,
  halted_reason: nullableStr
})

export const qrngSchema = obj({
  reachable: bool,
  host: str,
  port: int,
  last_fetch_at: { type: ['number', 'null'], description: 'Unix seconds, null before the first fetch' },
  pool_available_bytes: int,
  source: nullableStr,
  reason: nullableStr,
  evidence: {
    type: ['string', 'null'],
    enum: ['beacon-verified', 'no-evidence', null],
    description: 'what backs the bytes the provider serves (docs/entropy.md): beacon rounds (beacon-verified) or nothing (no-evidence); null when it serves nothing'
  },
  beacons: {
    type: 'array',
    description: 'every beacon the network trusts, with the key its rounds must verify under',
    items: obj({ id: str, scheme: str, public_key: str, period: int, genesis_time: int, chain_hash: str })
  }
})

export const qrngRandomSchema = obj({
  n: int,
  hex: { type: 'string', description: 'n bytes, hex-encoded' },
  source: str
})

export const peersSchema = obj({
  peer_count: int,
  sync_state: { type: 'string', enum: ['idle', 'syncing', 'synced'] },
  peers: {
    type: 'array',
    items: obj({ peer_id: str, address: str, version: str, best_height: int, connected_at: ts, direction: { type: 'string', enum: ['inbound', 'outbound'], description: 'who dialed' } }, ['direction'])
  }
})

export const feeSchema = obj({
  mempool_min: num,
  mempool_median: num,
  min_fee: num,
  low_fee: num,
  medium_fee: num,
  high_fee: num,
  mempool_fullness: num
})

export const submitAcceptedSchema = obj({ status: { type: 'string', enum: ['accepted'] }, tx_id: str })

/** refusals carry status and reason; a body that is not JSON at all gets only error */
export const submitRejectedSchema = {
  type: 'object',
  required: ['error'],
  properties: { status: { type: 'string', enum: ['rejected'] }, reason: str, code: str, error: str }
} as const

/** SPEC 2.3 wire body; types are checked here, everything else by the mempool's rules */
export const submitBodySchema = {
  type: 'object',
  required: ['sender', 'recipient', 'amount', 'timestamp', 'transaction_id', 'signature', 'fee', 'data', 'nonce'],
  properties: {
    sender: { type: 'string', maxLength: 64 },
    recipient: { type: 'string', maxLength: 64 },
    amount: { type: 'number' },
    timestamp: { type: 'number' },
    transaction_id: { type: 'string', maxLength: 128 },
    signature: { type: 'string' },
    fee: { type: 'number' },
    data: { type: 'object' },
    nonce: { type: 'integer' }
  }
} as const

/** node events (core/views/node-events.ts): id, type and at, then the fields of the type */
export const eventsSchema = obj({
  events: {
    type: 'array',
    items: { ...obj({ id: int, type: str, at: ts }), additionalProperties: true }
  },
  last_id: int
})

export const historySchema = obj({
  sample_seconds: { type: 'number', description: 'seconds between samples' },
  samples: {
    type: 'array',
    description: 'oldest first, from the node\'s boot (at most an hour at the default period)',
    items: obj({ at: ts, hash_rate: num, mempool_size: int, mempool_bytes: int, peer_count: int })
  },
  blocks: {
    type: 'array',
    description: 'the blocks this node connected since boot, oldest first (at most 300)',
    items: obj({
      height: int,
      hash: str,
      timestamp: ts,
      connected_at: ts,
      lag_seconds: { type: 'number', description: 'connected_at − timestamp: the miner\'s search after stamping, relay, validation and clock skew' },
      connect_seconds: { type: ['number', 'null'], description: 'seconds the chain took to connect it' },
      syncing: bool
    })
  }
})
