// Entry point of a node process the bench starts (see child-protocol.ts): boots what its
// role needs, reports on IPC, and stops on request. Run only through startChild().
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import type * as WorkerThreads from 'node:worker_threads'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { pino } from 'pino'
import type { Logger } from 'pino'
import { resolveConfig } from '../../core/kernel/config.ts'
import type { UserConfig } from '../../core/kernel/config.ts'
import { Kernel } from '../../core/kernel/kernel.ts'
import type { PeerService } from '../../core/kernel/services.ts'
import { benchParams, silentLogger } from './chain-fixture.ts'
import { connectChainInto } from './chain-builder.ts'
import type { Block } from '../../core/chain/types.ts'
import type { ChildMessage, ChildSpec, MemoryFigures, ParentMessage } from './child-protocol.ts'
import { heapSpaces, rocksParts, smapsParts } from './memory-detail.ts'
import type { RocksStore } from '../../plugins/storage/rocks-store.ts'

const send = (msg: ChildMessage): void => { process.send?.(msg) }

/** CPU of this process so far, every thread (user + system), in ms */
const cpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

/**
 * Worker threads the node starts (the verify pool's), so the probe can ask each for its V8
 * heap: the bench wraps node:worker_threads' Worker before the kernel loads (ESM imports of a
 * builtin follow syncBuiltinESMExports).
 */
const workers = new Set<WorkerThreads.Worker>()
function trackWorkers (): void {
  const require = createRequire(import.meta.url)
  const wt = require('node:worker_threads') as typeof WorkerThreads
  const Base = wt.Worker
  wt.Worker = class extends Base {
    constructor (...args: ConstructorParameters<typeof Base>) {
      super(...args)
      workers.add(this)
      this.once('exit', () => workers.delete(this))
    }
  }
  syncBuiltinESMExports()
}

/** total V8 heap of the live worker threads: committed (physical) and used, bytes */
async function workerHeaps (): Promise<Record<string, number>> {
  let physical = 0
  let used = 0
  for (const w of workers) {
    const h = await w.getHeapStatistics().catch(() => null) // a worker that just exited
    if (h === null) continue
    physical += h.total_physical_size
    used += h.used_heap_size
  }
  return { workers: workers.size * 2 ** 20, workersHeapPhysical: physical, workersHeapUsed: used }
}

function memory (detail?: () => Record<string, number>): MemoryFigures {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  gc?.()
  const m = process.memoryUsage()
  const figures: MemoryFigures = { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external }
  if (detail !== undefined) figures.detail = { arrayBuffers: m.arrayBuffers, ...detail() }
  return figures
}

async function bootNode (dataDir: string, plugins: string[], config: UserConfig, logger: Logger = silentLogger): Promise<Kernel> {
  const kernel = new Kernel(resolveConfig({
    network: 'devnet',
    logLevel: 'info',
    plugins,
    dataDir,
    http: { host: '127.0.0.1', port: 0 },
    ...config
  }), logger, benchParams())
  await kernel.boot()
  return kernel
}

/** A logger that forwards the node's own sync status lines as progress. */
function syncProgressLogger (): Logger {
  const sink = new Writable({
    write (chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.length === 0) continue
        const msg = (JSON.parse(line) as { msg?: string }).msg ?? ''
        if (msg.startsWith('Syncing')) send({ type: 'progress', message: msg })
      }
      done()
    }
  })
  return pino({ level: 'info' }, sink)
}

function httpPort (kernel: Kernel): number {
  return (kernel.container.resolve('publicHttp').server.address() as AddressInfo).port
}

async function syncOnce (spec: Extract<ChildSpec, { role: 'p2p-sync' }>): Promise<void> {
  if (spec.detail === true) trackWorkers()
  const kernel = await bootNode(spec.dataDir, ['storage', 'consensus', 'p2p'], { p2p: { host: '127.0.0.1', port: 0, peers: [spec.peer], progressIntervalMs: 2000 } }, syncProgressLogger())
  const chain = kernel.container.resolve('chain')
  const followerMs = spec.followerMs
  // a follower as a plugin's ctx.follow makes one, taking followerMs over every block
  const follower = followerMs === undefined ? undefined : kernel.container.resolve('chainFollow').follow('bench/slow', async () => { await new Promise((resolve) => setTimeout(resolve, followerMs)) })
  let firstBlockAt = 0
  const { promise: reached, resolve } = Promise.withResolvers<void>()
  kernel.hooks.blockConnected.tap('bench', () => { if (firstBlockAt === 0) firstBlockAt = performance.now() })
  const marks = [...(spec.memoryAt ?? [])].sort((a, b) => a - b)
  const detail = spec.detail === true
    ? () => ({
        ...smapsParts(),
        ...heapSpaces(),
        ...rocksParts('chainDb', (kernel.container.resolve('chainDb') as RocksStore).memoryStats()),
        ...rocksParts('adminDb', (kernel.container.resolve('adminDb') as RocksStore).memoryStats())
      })
    : undefined
  kernel.hooks.tipChanged.tap('bench', ({ height }) => {
    while (marks.length > 0 && height >= (marks[0] as number)) {
      const mark = marks.shift() as number
      const figures = memory(detail)
      if (detail === undefined) send({ type: 'memory-at', height: mark, memory: figures })
      else void workerHeaps().then((w) => { send({ type: 'memory-at', height: mark, memory: { ...figures, detail: { ...figures.detail, ...w } } }) })
      // LEDGER_BENCH_SMAPS=PREFIX: the syncing node's /proc/self/smaps at each mark, for a closer look
      if (process.env.LEDGER_BENCH_SMAPS !== undefined) writeFileSync(`${process.env.LEDGER_BENCH_SMAPS}.${mark}`, readFileSync('/proc/self/smaps'))
    }
    if (height >= spec.height) resolve()
  })
  const started = performance.now()
  const cpuAtStart = cpuMs()
  await kernel.start()
  const timer = setTimeout(() => { send({ type: 'error', message: `sync stalled at height ${chain.tip().height} of ${spec.height} after ${spec.timeoutMs} ms` }); process.exit(1) }, spec.timeoutMs)
  if (chain.tip().height < spec.height) await reached
  const done = performance.now()
  clearTimeout(timer)
  const cpu = cpuMs() - cpuAtStart
  send({ type: 'synced', seconds: (done - started) / 1000, firstBlockSeconds: (firstBlockAt - started) / 1000, height: chain.tip().height, memory: memory(), cpuMs: cpu, followed: follower?.delivered })
  await kernel.stop()
  rmSync(spec.dataDir, { recursive: true, force: true })
}

/** Signs one user in through the public API, as a browser would: admin invite, then signup. */
async function signedInCookie (kernel: Kernel): Promise<string> {
  const app = kernel.container.resolve('publicHttp')
  const auth = `Basic ${Buffer.from(`${process.env.LEDGER_ADMIN_USER ?? ''}:${process.env.LEDGER_ADMIN_PASSWORD ?? ''}`).toString('base64')}`
  const invite = await app.inject({ method: 'POST', url: '/api/admin/invites/create', headers: { authorization: auth }, payload: {} })
  const code = (invite.json() as { code?: string }).code
  if (code === undefined) throw new Error(`invite failed: ${invite.statusCode} ${invite.body}`)
  const signup = await app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'benchwatcher', invite_code: code } })
  const session = signup.cookies.find((c) => c.name === 'session')
  if (session === undefined) throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`)
  return `session=${session.value}`
}

/**
 * Waits (up to 45 s, within the parent's wait for 'ready') until the chain database it serves
 * has no flush or compaction running or due: a chain the bench has just connected is still
 * being compacted when a serving node opens it (its table files change in the first seconds),
 * work that is the connect's, not the serving's, on the two cores the measured nodes share.
 */
async function settled (kernel: Kernel): Promise<void> {
  const db = kernel.container.resolve('chainDb') as RocksStore
  const until = performance.now() + 45_000
  while (db.backgroundWork() > 0 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 100))
}

async function serve (spec: ChildSpec): Promise<() => Promise<void>> {
  switch (spec.role) {
    case 'p2p-serve': {
      const kernel = await bootNode(spec.dataDir, ['storage', 'consensus', 'p2p'], { p2p: { host: '127.0.0.1', port: 0 } })
      await kernel.start()
      await settled(kernel)
      const port = (kernel.container.resolve('peers') as PeerService & { listenPort(): number | null }).listenPort()
      if (port === null) throw new Error('p2p is not listening')
      send({ type: 'ready', port })
      return async () => { await kernel.stop() }
    }
    case 'explorer': {
      const kernel = await bootNode(spec.dataDir, ['storage', 'consensus', 'http', 'explorer'], {})
      await kernel.start()
      await settled(kernel)
      send({ type: 'ready', port: httpPort(kernel) })
      return async () => { await kernel.stop() }
    }
    case 'stream': {
      process.env.LEDGER_ADMIN_USER = 'bench'
      process.env.LEDGER_ADMIN_PASSWORD = 'bench-only-password-not-a-secret'
      // the bench's idle streams all come from one address and one session: the caps a node
      // sets for strangers (issue 31) would refuse all but the first few
      const many = 100_000
      const kernel = await bootNode(spec.dataDir, ['storage', 'consensus', 'http', 'messenger', 'admin', 'stream'], {
        http: { limits: { maxConnections: many, maxConnectionsPerAddress: many } },
        stream: { maxConnectionsPerSession: many, maxConnectionsPerAddress: many }
      })
      await kernel.start()
      send({ type: 'ready', port: httpPort(kernel), cookie: await signedInCookie(kernel) })
      return async () => { await kernel.stop() }
    }
    case 'bare-fastify': {
      const app = Fastify({ logger: false })
      app.get('/', async () => ({ ok: true }))
      await app.listen({ host: '127.0.0.1', port: 0 })
      send({ type: 'ready', port: (app.server.address() as AddressInfo).port })
      return async () => { await app.close() }
    }
    case 'p2p-sync':
    case 'connect':
      throw new Error(`${spec.role} is not a serving role`)
  }
}

/** The sync family's anchor, in a process of its own like the syncing node (see child-protocol.ts). */
async function connectOnce (spec: Extract<ChildSpec, { role: 'connect' }>): Promise<void> {
  const blocks = JSON.parse(readFileSync(spec.blocksFile, 'utf8')) as Block[]
  const { seconds, cpuMs: cpu } = await connectChainInto(benchParams(), blocks, spec.dataDir)
  send({ type: 'connected', seconds, cpuMs: cpu })
}

async function main (): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ChildSpec
  if (spec.role === 'p2p-sync' || spec.role === 'connect') {
    await (spec.role === 'p2p-sync' ? syncOnce(spec) : connectOnce(spec))
    process.exit(0)
  }
  const stop = await serve(spec)
  process.on('message', (msg: ParentMessage) => {
    if (msg.type === 'measure-memory') send({ type: 'memory', memory: memory() })
    else if (msg.type === 'measure-cpu') send({ type: 'cpu', cpuMs: cpuMs() })
    else if (msg.type === 'stop') stop().then(() => process.exit(0), () => process.exit(1))
  })
  process.on('disconnect', () => { stop().then(() => process.exit(0), () => process.exit(1)) })
}

main().catch((err: unknown) => {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  process.exit(1)
})
