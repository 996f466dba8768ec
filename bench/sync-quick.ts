// Initial sync speed: one node serves a chain of N empty blocks (built in-process at
// difficulty 1), a fresh node syncs it from that one peer over libp2p on 127.0.0.1, and we
// time it. The serving node runs in a child process, as a real peer would.
// Run: node bench/sync-quick.ts [--blocks 10000] [--json]
import path from 'node:path'
import { spawn } from 'node:child_process'
import { Writable } from 'node:stream'
import { createInterface } from 'node:readline'
import { pino } from 'pino'
import { resolveConfig } from '../core/config.ts'
import { Kernel } from '../core/kernel.ts'
import type { ChainService } from '../core/chain/chain-service.ts'
import type { PeerService } from '../core/services.ts'
import { cleanup, mineBlock, openTestChain, silentLogger, testParams, tmpDir } from '../test/helpers/chain.ts'
import { wantsJson } from './measure.ts'

const params = testParams()
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}

async function bootNode (dataDir: string, peers: string[], logger = silentLogger): Promise<Kernel> {
  const config = resolveConfig({
    network: 'devnet',
    logLevel: 'info',
    plugins: ['storage', 'chain', 'p2p'],
    dataDir,
    p2p: { host: '127.0.0.1', port: 0, peers, progressIntervalMs: 1000 }
  })
  const kernel = new Kernel(config, logger, params)
  await kernel.boot()
  await kernel.start()
  return kernel
}

/** Child mode: serve the chain in `dir` and print the address to dial. */
async function serve (dir: string): Promise<void> {
  const kernel = await bootNode(dir, [])
  const port = (kernel.container.resolve('peers') as PeerService & { listenPort(): number | null }).listenPort()
  console.log(JSON.stringify({ address: `127.0.0.1:${String(port)}` }))
  process.on('SIGTERM', () => { kernel.stop().then(() => process.exit(0), () => process.exit(1)) })
}

async function buildChain (dir: string, blocks: number): Promise<number> {
  const started = performance.now()
  const tc = await openTestChain(params, dir)
  for (let i = 0; i < blocks; i++) await tc.chain.processBlock(mineBlock(params, tc.tipRef()), 'test')
  await tc.close()
  return (performance.now() - started) / 1000
}

function startServer (dir: string): Promise<{ address: string; stop(): void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, '--serve', dir], { stdio: ['ignore', 'pipe', 'inherit'] })
    const guard = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('serving node did not start within 30 s')) }, 30_000)
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(guard)
      resolve({ address: (JSON.parse(line) as { address: string }).address, stop: () => child.kill('SIGTERM') })
    })
    child.once('exit', (code) => { clearTimeout(guard); reject(new Error(`serving node exited (${String(code)})`)) })
  })
}

/** Echoes the node's sync status lines, so the run shows what an operator sees. */
function progressLogger (): pino.Logger {
  const sink = new Writable({
    write (chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.length === 0) continue
        const msg = (JSON.parse(line) as { msg?: string }).msg ?? ''
        if (!wantsJson && (msg.startsWith('Syncing') || msg.startsWith('sync finished'))) console.log(`  ${msg}`)
      }
      done()
    }
  })
  return pino({ level: 'info' }, sink)
}

async function main (): Promise<void> {
  const blocks = arg('--blocks', 10_000)
  const serverDir = tmpDir('ledger-sync-bench-a-')
  const clientDir = tmpDir('ledger-sync-bench-b-')
  try {
    if (!wantsJson) console.log(`building ${blocks.toLocaleString('en-US')} empty blocks …`)
    const buildSeconds = await buildChain(serverDir, blocks)
    const server = await startServer(serverDir)
    try {
      const started = performance.now()
      let firstBlockAt = 0
      const kernel = await bootNode(clientDir, [server.address], progressLogger())
      kernel.hooks.blockConnected.tap('bench', () => { if (firstBlockAt === 0) firstBlockAt = performance.now() })
      const chain = kernel.container.resolve('chain') as ChainService
      const deadline = Date.now() + 600_000
      while (chain.tip().height < blocks) {
        if (Date.now() > deadline) throw new Error(`sync stalled at height ${chain.tip().height}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const done = performance.now()
      await kernel.stop()
      const syncSeconds = (done - firstBlockAt) / 1000
      const result = {
        blocks,
        build_seconds: Number(buildSeconds.toFixed(2)),
        connect_to_first_block_seconds: Number(((firstBlockAt - started) / 1000).toFixed(2)),
        sync_seconds: Number(syncSeconds.toFixed(2)),
        blocks_per_second: Math.round(blocks / syncSeconds)
      }
      if (wantsJson) console.log(JSON.stringify(result))
      else console.table([result])
    } finally {
      server.stop()
    }
  } finally {
    cleanup(serverDir)
    cleanup(clientDir)
  }
}

const serveAt = process.argv.indexOf('--serve')
if (serveAt >= 0) await serve(path.resolve(process.argv[serveAt + 1] as string))
else await main()
