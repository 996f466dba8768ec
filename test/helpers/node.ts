// Boots a real kernel in-process on a temporary data dir, for plugin and HTTP tests
// (fastify.inject or port 0). Real processes belong in test/e2e/.
import { rmSync } from 'node:fs'
import type { Logger } from 'pino'
import { resolveConfig } from '../../core/kernel/config.ts'
import type { PluginEntry, UserConfig } from '../../core/kernel/config.ts'
import { Kernel } from '../../core/kernel/kernel.ts'
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Services } from '../../core/kernel/services.ts'
import { silentLogger, testParams, tmpDir } from './chain.ts'

export interface TestNode {
  kernel: Kernel
  dataDir: string
  resolve<K extends keyof Services>(name: K): Services[K]
  stop(): Promise<void>
}

export interface TestNodeOptions {
  plugins: PluginEntry[]
  config?: UserConfig
  params?: NetworkParams
  dataDir?: string
  /** call kernel.start() (listen on ports); default true */
  start?: boolean
  /** keep the data dir after stop (restart tests) */
  keepData?: boolean
  /** default: silent */
  logger?: Logger
}

export async function startTestNode (opts: TestNodeOptions): Promise<TestNode> {
  const dataDir = opts.dataDir ?? tmpDir('ledger-node-')
  const config = resolveConfig({
    network: 'devnet',
    logLevel: 'silent',
    http: { port: 0 },
    dashboard: { port: 0 },
    'entropy-aggregator': { port: 0 },
    p2p: { port: 0 },
    ...opts.config,
    plugins: opts.plugins,
    dataDir
  })
  const kernel = new Kernel(config, opts.logger ?? silentLogger, opts.params ?? testParams())
  await kernel.boot()
  if (opts.start !== false) await kernel.start()
  return {
    kernel,
    dataDir,
    resolve: (name) => kernel.container.resolve(name),
    async stop () {
      await kernel.stop()
      if (opts.keepData !== true) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
