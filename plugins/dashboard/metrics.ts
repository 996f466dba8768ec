// Prometheus metrics (SPEC 2.2): the nine ledger_* gauges, read at scrape time, plus the
// process metrics of prom-client, all on a registry of this dashboard's own (never the
// global one, so two nodes in one process do not share or clash).
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client'

export interface LedgerGaugeValues {
  chainHeight(): number
  tipTimestamp(): number
  totalSupply(): number
  difficulty(): number
  mempoolSize(): number
  peerCount(): number
  miningActive(): boolean
  synced(): boolean
  uptimeSeconds(): number
}

export const LEDGER_GAUGES: ReadonlyArray<{ name: string; help: string; read: (v: LedgerGaugeValues) => number }> = [
  { name: 'ledger_chain_height', help: 'tip block index', read: (v) => v.chainHeight() },
  { name: 'ledger_tip_timestamp', help: 'Unix seconds of the tip block', read: (v) => v.tipTimestamp() },
  { name: 'ledger_total_supply', help: 'coin minted so far', read: (v) => v.totalSupply() },
  { name: 'ledger_difficulty', help: 'current proof-of-work leading-zero count', read: (v) => v.difficulty() },
  { name: 'ledger_mempool_size', help: 'pending transaction count', read: (v) => v.mempoolSize() },
  { name: 'ledger_peer_count', help: 'connected peers', read: (v) => v.peerCount() },
  { name: 'ledger_mining_active', help: '1 if miner running, else 0', read: (v) => (v.miningActive() ? 1 : 0) },
  { name: 'ledger_synced', help: '1 if initial block download is complete, else 0', read: (v) => (v.synced() ? 1 : 0) },
  { name: 'ledger_uptime_seconds', help: 'process uptime', read: (v) => v.uptimeSeconds() }
]

export function createMetricsRegistry (values: LedgerGaugeValues): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  for (const g of LEDGER_GAUGES) {
    // a gauge read at scrape time: no timers, and never a stale value
    const gauge: Gauge = new Gauge({
      name: g.name,
      help: g.help,
      registers: [registry],
      collect () { gauge.set(g.read(values)) }
    })
  }
  return registry
}
