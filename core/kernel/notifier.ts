// What the terminal tells the operator (Lodestar's node/notifier.ts, geth's status lines):
// one summary after start (network, data dir, every URL, where the secrets are, how to
// stop), then a status line every so often: height, peers, hash rate, mempool, and while
// syncing the progress with blocks/s and an ETA. Blocks that arrive from peers get one
// compact line each (the miner logs its own).
import { formatDuration } from './duration.ts'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { Kernel } from './kernel.ts'
import type { Services } from './services.ts'
import type { Block } from '../chain/types.ts'

export interface NodeUrls {
  chat?: string
  admin?: string
  explorer?: string
  playground?: string
  docs?: string
  dashboard?: string
  dashboardApi?: string
  metrics?: string
  entropy?: string
  p2p: string[]
}

export interface StartupSummary {
  network: string
  dataDir: string
  urls: NodeUrls
  adminCredentials: string
  apiKey: string
  stop: string
}

function service<K extends keyof Services> (kernel: Kernel, name: K): Services[K] | undefined {
  return kernel.container.hasRegistration(name) ? kernel.container.resolve(name) : undefined
}

function baseUrl (app: FastifyInstance | undefined): string | undefined {
  const a = app?.server.address()
  if (a === null || a === undefined || typeof a === 'string') return undefined
  const info = a as AddressInfo
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${info.port}`
}

export function startupSummary (kernel: Kernel, env: NodeJS.ProcessEnv = process.env): StartupSummary {
  const pub = baseUrl(service(kernel, 'publicHttp'))
  const dash = baseUrl(service(kernel, 'dashboardHttp'))
  const plugins = new Set(kernel.plugins.map((p) => p.name))
  const entropy = service(kernel, 'entropy')?.status()
  const peers = service(kernel, 'peers') as ({ listenAddresses?: () => string[] } | undefined)
  const dataDir = kernel.config.dataDir
  const urls: NodeUrls = { p2p: peers?.listenAddresses?.() ?? [] }
  if (pub !== undefined) {
    if (plugins.has('messenger')) urls.chat = `${pub}/`
    if (plugins.has('admin')) urls.admin = `${pub}/admin`
    if (plugins.has('explorer')) urls.explorer = `${pub}/explorer`
    if (plugins.has('playground')) urls.playground = `${pub}/playground`
    urls.docs = `${pub}/docs`
  }
  if (dash !== undefined) {
    urls.dashboard = `${dash}/`
    urls.dashboardApi = `${dash}/api`
    urls.metrics = `${dash}/metrics`
  }
  if (entropy !== undefined && entropy.port > 0) urls.entropy = `http://${entropy.host}:${entropy.port}/api/health`
  const adminFromEnv = (env.LEDGER_ADMIN_PASSWORD ?? '').length > 0
  const keyFromEnv = (env.LEDGER_API_KEY ?? '').trim().length > 0
  return {
    network: kernel.params.name,
    dataDir,
    urls,
    adminCredentials: adminFromEnv ? 'from LEDGER_ADMIN_USER / LEDGER_ADMIN_PASSWORD' : path.join(dataDir, 'admin_credentials.json'),
    apiKey: keyFromEnv ? 'from LEDGER_API_KEY' : path.join(dataDir, 'api_key.json'),
    stop: 'Ctrl-C, or SIGTERM to this process (kill, systemd, docker stop)'
  }
}

/** the summary as the lines a person reads in a terminal */
export function formatSummary (s: StartupSummary): string {
  const row = (label: string, value: string | undefined): string | undefined => value === undefined ? undefined : `  ${label.padEnd(12)} ${value}`
  return [
    `ledger node running on ${s.network}`,
    row('data dir', s.dataDir),
    row('chat', s.urls.chat),
    row('admin', s.urls.admin),
    row('explorer', s.urls.explorer),
    row('playground', s.urls.playground),
    row('API docs', s.urls.docs),
    row('dashboard', s.urls.dashboard),
    row('dash. API', s.urls.dashboardApi),
    row('metrics', s.urls.metrics),
    row('entropy', s.urls.entropy),
    ...s.urls.p2p.map((a, i) => row(i === 0 ? 'p2p' : '', a)),
    row('admin login', s.adminCredentials),
    row('API key', s.apiKey),
    row('stop', s.stop)
  ].filter((l) => l !== undefined).join('\n')
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

function sample (kernel: Kernel): StatusSample | undefined {
  const chain = service(kernel, 'chain')
  if (chain === undefined) return undefined
  const miner = service(kernel, 'miner')?.status()
  const peers = service(kernel, 'peers')
  const list = peers?.peers() ?? []
  return {
    height: chain.tip().height,
    peers: list.length,
    hashRate: miner !== undefined && miner.running ? miner.hash_rate : null,
    mempool: service(kernel, 'mempool')?.size ?? 0,
    sync: peers?.syncState() ?? 'idle',
    target: list.reduce((m, p) => Math.max(m, p.best_height), 0)
  }
}

/** status line every `intervalMs`; a compact line for each block that came from a peer */
export function startNotifier (kernel: Kernel, logger: Logger, intervalMs: number): () => void {
  let last = sample(kernel)
  let lastAt = Date.now()
  const timer = setInterval(() => {
    const now = sample(kernel)
    if (now === undefined) return
    const secs = (Date.now() - lastAt) / 1000
    const rate = last !== undefined && secs > 0 ? Math.max(0, (now.height - last.height) / secs) : 0
    logger.info({ height: now.height, peers: now.peers, hash_rate: now.hashRate, mempool: now.mempool, sync: now.sync, target: now.target, blocks_per_second: Number(rate.toFixed(2)) }, formatStatusLine(now, rate))
    last = now
    lastAt = Date.now()
  }, intervalMs)
  timer.unref()
  // the miner logs its own blocks ("mined block"), and a sync reports progress lines instead
  const own = service(kernel, 'miner')?.status().miner_address
  kernel.hooks.blockConnected.tap('notifier', ({ block, syncing }) => {
    if (syncing || block.miner === own) return
    logger.info(importedBlockLogFields(block), 'imported block')
  })
  return () => clearInterval(timer)
}

/** `txs` counts every transaction, the coinbase too, as `mined block` and the explorer do */
export function importedBlockLogFields (block: Pick<Block, 'height' | 'hash' | 'transactions' | 'miner'>): { height: number; hash: string; txs: number; miner: string } {
  return { height: block.height, hash: block.hash.slice(0, 16), txs: block.transactions.length, miner: block.miner.slice(0, 12) }
}
