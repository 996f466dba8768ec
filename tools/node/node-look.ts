// `ledger status` and `ledger peers`: a quick look at a running node from a shell, through the
// dashboard API like `ledger wallet balance` (client/index.ts). --json passes the node's
// answer through for scripts.
import type { Argv } from 'yargs'
import { DEFAULT_NODE_URL } from '../../client/defaults.ts'
import type { LedgerClient, MiningInfo, NodeStatus, PeerList } from '../../client/index.ts'
import { UsageError } from '../../core/kernel/errors.ts'
import { defineCommand } from '../../core/kernel/plugin.ts'

interface LookArgs { node: string; json: boolean }

async function withClient<T> (a: LookArgs, fn: (c: LedgerClient) => Promise<T>): Promise<T> {
  const { LedgerClient, LedgerClientError } = await import('../../client/index.ts')
  try {
    return await fn(new LedgerClient({ node: a.node }))
  } catch (err) {
    if (err instanceof LedgerClientError) throw new UsageError(err.status > 0 ? `node refused (${err.status}): ${err.message}` : err.message)
    throw err
  }
}

export function formatStatus (s: NodeStatus, m: MiningInfo, tipAgeSeconds: number): string {
  const mining = !m.enabled ? 'off' : m.running ? `on, ${Math.round(m.hash_rate)} H/s, ${m.blocks_mined} mined` : `halted (${m.halted_reason ?? 'starting'})`
  return [
    `height   ${s.chain_height} (tip ${Math.max(0, Math.round(tipAgeSeconds))} s old)`,
    `sync     ${s.sync_state}`,
    `peers    ${s.peer_count}`,
    `mining   ${mining}`,
    `entropy  ${s.qrng_reachable ? 'reachable' : 'unreachable'}`
  ].join('\n')
}

export function formatPeers (p: PeerList, now = Date.now() / 1000): string {
  if (p.peers.length === 0) return `no peers (sync ${p.sync_state})`
  const rows = p.peers.map((x) => [x.peer_id.length > 16 ? `${x.peer_id.slice(0, 8)}…${x.peer_id.slice(-6)}` : x.peer_id, x.address, String(x.best_height), x.version, `${Math.max(0, Math.round(now - x.connected_at))} s`])
  const head = ['PEER', 'ADDRESS', 'HEIGHT', 'VERSION', 'CONNECTED']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
  return [line(head), ...rows.map(line), `${p.peer_count} peer${p.peer_count === 1 ? '' : 's'}, sync ${p.sync_state}`].join('\n')
}

const lookOptions = <T>(y: Argv<T>) => y
  .option('node', { type: 'string', default: DEFAULT_NODE_URL, describe: 'the node\'s dashboard URL' })
  .option('json', { type: 'boolean', default: false, describe: 'print the node\'s JSON for scripts' })

export const statusCommand = defineCommand<LookArgs>({
  command: 'status',
  describe: 'a running node at a glance: height, sync, peers, mining, entropy',
  builder: (y) => lookOptions(y) as unknown as Argv<LookArgs>,
  async handler (a) {
    await withClient(a, async (c) => {
      const [s, m, chain] = await Promise.all([c.status(), c.mining(), c.chain()])
      console.log(a.json ? JSON.stringify({ ...s, mining: m, tip_hash: chain.tip_hash, tip_timestamp: chain.tip_timestamp }) : formatStatus(s, m, Date.now() / 1000 - chain.tip_timestamp))
    })
  }
})

export const peersCommand = defineCommand<LookArgs>({
  command: 'peers',
  describe: 'the peers a running node is connected to',
  builder: (y) => lookOptions(y) as unknown as Argv<LookArgs>,
  async handler (a) {
    await withClient(a, async (c) => {
      const p = await c.peers()
      console.log(a.json ? JSON.stringify(p) : formatPeers(p))
    })
  }
})
