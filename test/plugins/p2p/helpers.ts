// In-process p2p nodes for the plugin tests: kernels with storage, chain and p2p on
// 127.0.0.1 with short timers, plus block builders and a bounded wait.
import type { Logger } from 'pino'
import { startTestNode } from '../../helpers/node.ts'
import { waitFor } from '../../helpers/wait.ts'
import type { TestNode } from '../../helpers/node.ts'
import { mineBlock, testParams } from '../../helpers/chain.ts'
import type { BlockOptions } from '../../helpers/chain.ts'
import type { Block } from '../../../core/chain/types.ts'
import type { ChainService } from '../../../core/chain/chain-service.ts'
import type { MempoolService } from '../../../core/chain/mempool-service.ts'
import type { P2p } from '../../../plugins/p2p/p2p.ts'
import type { NetworkParams } from '../../../core/chain/params.ts'
import type { PluginEntry } from '../../../core/kernel/config.ts'

export const params = testParams()

export interface P2pTestNode {
  node: TestNode
  chain: ChainService
  mempool: MempoolService
  p2p: P2p
  /** 127.0.0.1:<bound port> (once started) */
  readonly address: string
  stop(): Promise<void>
}

export interface P2pNodeOptions {
  peers?: string[]
  dataDir?: string
  keepData?: boolean
  p2p?: Record<string, unknown>
  params?: NetworkParams
  /** start the kernel (listen); default true */
  start?: boolean
  /** default: silent */
  logger?: Logger
  /** more plugins, loaded before p2p */
  plugins?: PluginEntry[]
}

export async function startP2pNode (opts: P2pNodeOptions = {}): Promise<P2pTestNode> {
  const node = await startTestNode({
    plugins: ['storage', 'consensus', ...(opts.plugins ?? []), 'p2p'],
    params: opts.params ?? params,
    dataDir: opts.dataDir,
    keepData: opts.keepData,
    start: opts.start,
    logger: opts.logger,
    config: {
      p2p: { host: '127.0.0.1', port: 0, peers: opts.peers ?? [], statusIntervalMs: 500, redialIntervalMs: 200, progressIntervalMs: 1000, requestTimeoutMs: 5000, ...opts.p2p }
    }
  })
  const p2p = node.resolve('peers') as P2p
  return {
    node,
    chain: node.resolve('chain'),
    mempool: node.resolve('mempool'),
    p2p,
    get address () { return `127.0.0.1:${String(p2p.listenPort())}` },
    stop: () => node.stop()
  }
}

/** Two nodes, b dialing a (both with `p2p` options), stopped at the test's end, once each lists the other. */
export async function startPeeredPair (t: { teardown(fn: () => unknown): void }, p2p: Record<string, unknown> = {}): Promise<[P2pTestNode, P2pTestNode]> {
  const a = await startP2pNode({ p2p })
  t.teardown(() => a.stop())
  const b = await startP2pNode({ p2p, peers: [a.address] })
  t.teardown(() => b.stop())
  await waitFor('the handshake', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 1)
  return [a, b]
}

/** Mines `n` blocks on the chain's tip and feeds them in as a local producer would. */
export async function extend (chain: ChainService, n: number, opts: BlockOptions = {}): Promise<Block[]> {
  const out: Block[] = []
  for (let i = 0; i < n; i++) {
    const tip = chain.tip()
    const block = mineBlock(params, { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }, opts)
    await chain.processBlock(block, 'test')
    out.push(block)
  }
  return out
}

export { waitFor }
