// A scenario: the network to build and the timed steps to run on it (docs/testbed.md). Data,
// not code: a JSON file, checked by parse.ts; flags of `ledger testbed` override the network.

export type TxKind = 'transfer' | 'chat' | 'call'

export type Step =
  /** transactions at `rate` per second from the funded wallets to random entry nodes (`entry:
   *  'sticky'`: each wallet always to the same running node); rate 0 stops. `wallets`: that many
   *  more senders, each funded with `fundCoin` (default 1) by the funded wallets, sending once
   *  their balance shows (a high rate needs many senders: a node holds 64 pending per sender) */
  | { at: number; do: 'load'; rate: number; mix?: Partial<Record<TxKind, number>>; entry?: 'random' | 'sticky'; wallets?: number; fundCoin?: number }
  /** cut every link between the groups (nodes in no group are each on their own) */
  | { at: number; do: 'partition'; groups: number[][] }
  /** restore every cut link */
  | { at: number; do: 'heal' }
  /** SIGKILL a node (its data dir stays); `whileSyncing`: first wait (at most 60 s) until it is syncing */
  | { at: number; do: 'kill'; node: number; whileSyncing?: boolean }
  /** start a killed, stopped or late node again (a miner mines again) */
  | { at: number; do: 'restart'; node: number }
  /** miners stop or start mining (the node restarts with or without --no-mine) */
  | { at: number; do: 'mining'; nodes: number[]; on: boolean }
  /** a rogue peer (testbed/runner/rogue.ts) misbehaves at `node` for `seconds` (the steps go on meanwhile) */
  | { at: number; do: 'rogue'; node: number; kind: 'garbage' | 'false-claim'; seconds: number }
  /** change links: `between` pairs of nodes, or every link when absent */
  | { at: number; do: 'links'; between?: Array<[number, number]>; latencyMs?: number; jitterMs?: number; bandwidth?: string | null }

export interface Scenario {
  name: string
  description: string
  network: 'testnet' | 'devnet'
  nodes: number
  miners: number
  /** percent of each miner's one hashing thread's time spent hashing (`ledger run --mine-duty`):
   *  100 flat out; below, each miner has a fixed hash rate of about that share of one core, so
   *  k miners whose duties sum under the free cores do not share CPU and a stopped miner takes
   *  its hash rate away with it */
  mineDuty: number
  topology: string
  latencyMs: number
  jitterMs: number
  /** per link each way ("10mbit", "2MB"); null: unlimited */
  bandwidth: string | null
  seed: number
  /** seconds from the start to the end of the steps; then load stops and the network settles */
  durationSeconds: number
  /** most seconds to wait after the steps for every node to reach one tip */
  settleSeconds: number
  /** nodes that are not started at the beginning (a `restart` step starts them) */
  late: number[]
  steps: Step[]
}
