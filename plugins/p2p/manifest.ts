// Peer-to-peer networking (js-libp2p): block and transaction gossip, header-first sync,
// peer scoring and bans. Provides the `peers` service (peer list and sync state).
import { isIP } from 'node:net'
import { definePlugin } from '../../core/kernel/plugin.ts'
import { flags } from './commands.ts'
import { ConfigError } from '../../core/kernel/config.ts'
import { nodeVersion } from '../../core/kernel/version.ts'
import { P2p } from './p2p.ts'
import { AddressError, parsePeerAddress } from './address.ts'
import type { P2pSettings } from './p2p.ts'

type P2pConfig = Omit<P2pSettings, 'port'> & { port: number | null }

export default definePlugin<P2pConfig>({
  name: 'p2p',
  description: 'peer-to-peer networking: gossip, header-first sync, peer scoring',
  apiVersion: '1.0',
  provides: ['peers'],
  needs: ['chain'],
  optional: ['mempool'],
  configSchema: {
    properties: {
      // All interfaces, like bitcoind and geth: a node only joins a network if others can
      // reach it. The protocol is authenticated (noise) and everything received is validated.
      host: { type: 'string', minLength: 1, default: '0.0.0.0' },
      /** null: the network's default port (18333 testnet, 8333 mainnet, 28333 devnet) */
      port: { type: ['integer', 'null'], minimum: 0, maximum: 65535, default: null },
      peers: { type: 'array', items: { type: 'string', minLength: 1 }, default: [] },
      maxPeers: { type: 'integer', minimum: 1, maximum: 10_000, default: 50 },
      banSeconds: { type: 'integer', minimum: 1, default: 86_400 },
      statusIntervalMs: { type: 'integer', minimum: 100, default: 10_000 },
      requestTimeoutMs: { type: 'integer', minimum: 100, default: 20_000 },
      progressIntervalMs: { type: 'integer', minimum: 100, default: 5_000 },
      redialIntervalMs: { type: 'integer', minimum: 100, default: 2_000 },
      // the longest wait between redials of an unreachable bootstrap peer (the test bed holds it
      // short so a healed partition rejoins within a block interval)
      redialMaxMs: { type: 'integer', minimum: 100, default: 60_000 },
      // sync batch sizes (protocol maxima by default; smaller values suit slow links)
      headersPerRequest: { type: 'integer', minimum: 1, maximum: 2000, default: 2000 },
      blocksPerRequest: { type: 'integer', minimum: 1, maximum: 128, default: 64 }
    },
    additionalProperties: false
  },
  flags,
  summary: (view) => [{ key: 'p2p', label: 'p2p', value: view.service('peers')?.listenAddresses?.() ?? [], order: 190 }],
  status: (view) => {
    const peers = view.service('peers')
    if (peers === undefined) return {}
    const list = peers.peers()
    return { peers: list.length, sync: peers.syncState(), target: list.reduce((m, p) => Math.max(m, p.best_height), 0) }
  },
  register (ctx) {
    const c = ctx.config
    if (isIP(c.host) === 0) throw new ConfigError(`invalid config: "p2p.host" must be an IP address to listen on (got '${c.host}')`)
    for (const peer of c.peers) {
      try { parsePeerAddress(peer) } catch (err) {
        if (err instanceof AddressError) throw new ConfigError(`invalid config: "p2p.peers": ${err.message}`)
        throw err
      }
    }
    const p2p = new P2p({
      ...c,
      port: c.port ?? ctx.params.defaultP2pPort,
      params: ctx.params,
      chain: ctx.resolve('chain'),
      mempool: ctx.tryResolve('mempool'),
      hooks: ctx.ownedHooks,
      logger: ctx.logger,
      dataDir: ctx.node.dataDir,
      powCore: ctx.resolve('cores').pow,
      verifyCores: ctx.resolve('cores'),
      version: nodeVersion(ctx.params),
      signal: ctx.signal
    })
    ctx.provide('peers', p2p)
    ctx.onStart(async () => { await p2p.start() })
    ctx.onClose(async () => { await p2p.stop() })
  }
})
