// What the terminal tells the operator (Lodestar's node/notifier.ts, geth's status lines):
// one summary after start (network, data dir, every URL, where the secrets are, how to
// stop), then a status line every so often: height, peers, hash rate, mempool, and while
// syncing the progress with blocks/s and an ETA. Blocks that arrive from peers get one
// compact line each (the miner logs its own).
import { formatDuration } from './duration.ts'
import type { Logger } from 'pino'
import type { Kernel } from './kernel.ts'
import type { StatusPart, SummaryRow, SummaryView } from './plugin.ts'
import type { Block } from '../chain/types.ts'

/** The summary as JSON logs carry it: rows keyed into `urls` (or the top level, `top` rows). */
export interface StartupSummary {
  network: string
  dataDir: string
  urls: Record<string, string | string[]>
  stop: string
  [key: string]: unknown
}

const STOP = 'Ctrl-C, or SIGTERM to this process (kill, systemd, docker stop)'

/** what the manifests' summary and status functions see of a running kernel */
export function summaryView (kernel: Kernel, env: NodeJS.ProcessEnv = process.env): SummaryView {
  return {
    service: (name) => kernel.container.hasRegistration(name) ? kernel.container.resolve(name) : undefined,
    dataDir: kernel.config.dataDir,
    env
  }
}

/** every enabled plugin's summary rows, in display order */
export function summaryRows (kernel: Kernel, env: NodeJS.ProcessEnv = process.env): SummaryRow[] {
  const view = summaryView(kernel, env)
  return kernel.plugins.flatMap((p) => p.summary?.(view) ?? []).sort((a, b) => a.order - b.order)
}

export function startupSummary (kernel: Kernel, env: NodeJS.ProcessEnv = process.env): StartupSummary {
  return summaryFromRows(kernel.params.name, kernel.config.dataDir, summaryRows(kernel, env))
}

export function summaryFromRows (network: string, dataDir: string, rows: readonly SummaryRow[]): StartupSummary {
  const out: StartupSummary = { network, dataDir, urls: {}, stop: STOP }
  for (const r of rows) {
    if (r.top === true) out[r.key] = r.value
    else out.urls[r.key] = r.value
  }
  // the stop hint comes last, as in the terminal
  const { stop, ...rest } = out
  return { ...rest, stop }
}

/** the summary as the lines a person reads in a terminal */
export function formatSummary (network: string, dataDir: string, rows: readonly SummaryRow[]): string {
  const row = (label: string, value: string): string => `  ${label.padEnd(12)} ${value}`
  const lines = [`ledger node running on ${network}`, row('data dir', dataDir)]
  for (const r of rows) {
    const values = Array.isArray(r.value) ? r.value : [r.value]
    values.forEach((v, i) => lines.push(row(i === 0 ? r.label : '', v)))
  }
  lines.push(row('stop', STOP))
  return lines.join('\n')
}

export interface StatusSample {
  height: number
  peers: number
  hashRate: number | null
  mempool: number
  sync: 'idle' | 'syncing' | 'synced'
  /** the best height a peer reports */
  target: number
}

/** geth-like: "height 1,204 · peers 2 · 1.2 MH/s · mempool 3 · synced" (+ progress while syncing) */
export function formatStatusLine (now: StatusSample, blocksPerSecond: number): string {
  const parts = [`height ${now.height.toLocaleString('en-US')}`, `peers ${now.peers}`]
  if (now.hashRate !== null) parts.push(formatHashRate(now.hashRate))
  parts.push(`mempool ${now.mempool}`)
  if (now.sync === 'syncing' && now.target > now.height) {
    const pct = now.target > 0 ? Math.floor((now.height / now.target) * 100) : 0
    const left = now.target - now.height
    const eta = blocksPerSecond > 0 ? formatDuration(left / blocksPerSecond) : '?'
    parts.push(`syncing ${now.height.toLocaleString('en-US')}/${now.target.toLocaleString('en-US')} (${pct}%) - ${blocksPerSecond.toFixed(1)} blocks/s - eta ${eta}`)
  } else {
    parts.push(now.sync)
  }
  return parts.join(' · ')
}

export function formatHashRate (h: number): string {
  const units = ['H/s', 'kH/s', 'MH/s', 'GH/s']
  let v = h
  let u = 0
  while (v >= 1000 && u < units.length - 1) { v /= 1000; u++ }
  return `${v.toFixed(u === 0 ? 0 : 1)} ${units[u]}`
}

/** every enabled plugin's status part merged; undefined while no plugin tells a height */
export function sample (parts: readonly StatusPart[]): (StatusSample & { ownMinerAddress?: string }) | undefined {
  const merged: StatusPart = Object.assign({}, ...parts)
  if (merged.height === undefined) return undefined
  return {
    height: merged.height,
    peers: merged.peers ?? 0,
    hashRate: merged.hashRate ?? null,
    mempool: merged.mempool ?? 0,
    sync: merged.sync ?? 'idle',
    target: merged.target ?? 0,
    ownMinerAddress: merged.ownMinerAddress
  }
}

function sampleKernel (kernel: Kernel): ReturnType<typeof sample> {
  const view = summaryView(kernel)
  return sample(kernel.plugins.map((p) => p.status?.(view) ?? {}))
}

/** status line every `intervalMs`; a compact line for each block that came from a peer */
export function startNotifier (kernel: Kernel, logger: Logger, intervalMs: number): () => void {
  let last = sampleKernel(kernel)
  let lastAt = Date.now()
  const timer = setInterval(() => {
    const now = sampleKernel(kernel)
    if (now === undefined) return
    const secs = (Date.now() - lastAt) / 1000
    const rate = last !== undefined && secs > 0 ? Math.max(0, (now.height - last.height) / secs) : 0
    logger.info({ height: now.height, peers: now.peers, hash_rate: now.hashRate, mempool: now.mempool, sync: now.sync, target: now.target, blocks_per_second: Number(rate.toFixed(2)) }, formatStatusLine(now, rate))
    last = now
    lastAt = Date.now()
  }, intervalMs)
  timer.unref()
  // the miner logs its own blocks ("mined block"), and a sync reports progress lines instead
  const own = last?.ownMinerAddress
  kernel.hooks.blockConnected.tap('notifier', ({ block, syncing }) => {
    if (syncing || block.miner === own) return
    logger.info(importedBlockLogFields(block), 'imported block')
  })
  return () => clearInterval(timer)
}

/** `txs` counts every transaction, the coinbase too, as `mined block` and the explorer do */
export function importedBlockLogFields (block: Block): { height: number; hash: string; txs: number; miner: string } {
  return { height: block.height, hash: block.hash.slice(0, 16), txs: block.transactions.length, miner: block.miner.slice(0, 12) }
}
