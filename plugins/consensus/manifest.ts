// Consensus: the `chain` (validation, fork choice, reorgs) and the `mempool`.
import { definePlugin } from '../../core/kernel/plugin.ts'
import type { Transaction } from '../../core/chain/types.ts'
import { MINING_REWARD_SENDER } from '../../core/chain/types.ts'
import { Chain } from './chain.ts'
import { ChainFollowers } from './follower.ts'
import { DEFAULT_MEMPOOL_BYTES, Mempool } from './mempool.ts'
import { createContractExecutor } from './contracts.ts'
import { SignatureVerifyPool } from '../../core/crypto/verify-pool.ts'

interface ChainPluginConfig {
  mempoolCapacity: number
  /** bytes (txSize) all pending transactions together may take */
  mempoolMaxBytes: number
  perSenderLimit: number
  mempoolTtlHours: number
  /** threads verifying a block's signatures; null = one per core */
  verifyThreads: number | null
}

export default definePlugin<ChainPluginConfig>({
  name: 'consensus',
  description: 'block validation, fork choice, reorgs and the mempool',
  apiVersion: '1.0',
  provides: ['chain', 'mempool', 'verifyPool', 'chainFollow'],
  needs: ['chainDb'],
  configSchema: {
    properties: {
      mempoolCapacity: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 5000 },
      mempoolMaxBytes: { type: 'integer', minimum: 1024 * 1024, maximum: 16 * 1024 * 1024 * 1024, default: DEFAULT_MEMPOOL_BYTES },
      perSenderLimit: { type: 'integer', minimum: 1, maximum: 10_000, default: 64 },
      mempoolTtlHours: { type: 'number', exclusiveMinimum: 0, default: 72 },
      verifyThreads: { type: ['integer', 'null'], minimum: 1, maximum: 64, default: null }
    },
    additionalProperties: false
  },
  status: (view) => {
    const chain = view.service('chain')
    return chain === undefined ? {} : { height: chain.tip().height, mempool: view.service('mempool')?.size ?? 0 }
  },
  async register (ctx) {
    const cores = ctx.resolve('cores')
    const executor = await createContractExecutor(cores.vm, cores)
    const signatureVerifier = new SignatureVerifyPool({ core: cores.selection.mldsa, bls: cores.selection.bls, sha3: cores.selection.sha3, threads: ctx.config.verifyThreads ?? undefined })
    ctx.onClose(() => signatureVerifier.close())
    signatureVerifier.warm()
    ctx.provide('verifyPool', signatureVerifier)
    let mempool: Mempool | undefined
    let followers: ChainFollowers | undefined
    const chain = new Chain({
      keepSideFrom: () => followers?.keepSideFrom(),
      db: ctx.resolve('chainDb'),
      params: ctx.params,
      hooks: ctx.ownedHooks,
      logger: ctx.logger,
      executor,
      cores,
      isVerified: (tx) => mempool?.isVerified(tx) === true,
      signatureVerifier
    })
    await chain.init()
    followers = new ChainFollowers({ chain, db: ctx.resolve('chainDb'), hooks: ctx.hooks, logger: ctx.logger })
    const following = followers
    ctx.provide('chainFollow', following)
    ctx.onStart(async () => { await following.start() })
    // before any plugin closes: a follower's handler may use what its plugin closes
    ctx.hooks.stopping.tapPromise('consensus:followers', async () => { await following.stop() })
    mempool = new Mempool({
      chain,
      params: ctx.params,
      hooks: ctx.ownedHooks,
      capacity: ctx.config.mempoolCapacity,
      maxBytes: ctx.config.mempoolMaxBytes,
      perSenderLimit: ctx.config.perSenderLimit,
      ttlSeconds: ctx.config.mempoolTtlHours * 3600,
      contractsEnabled: executor !== null,
      cores
    })
    const pool = mempool

    // Mempool upkeep when the tip moves: confirmed out, orphaned transactions back in.
    const confirmed = new Set<string>()
    const returned: Transaction[] = []
    ctx.hooks.blockConnected.tap('consensus:mempool', ({ block }) => { for (const tx of block.transactions) confirmed.add(tx.transaction_id) })
    // A block connected and disconnected again before the tip settles (an aborted reorg)
    // confirmed nothing: its transactions count as returned, not confirmed.
    ctx.hooks.blockDisconnected.tap('consensus:mempool', (block) => {
      for (const tx of block.transactions) {
        confirmed.delete(tx.transaction_id)
        if (tx.sender !== MINING_REWARD_SENDER) returned.push(tx)
      }
    })
    ctx.hooks.tipChanged.tap('consensus:mempool', () => {
      const back = returned.filter((tx) => !confirmed.has(tx.transaction_id))
      pool.revalidate([...confirmed], back)
      confirmed.clear()
      returned.length = 0
    })
    const expiry = setInterval(() => pool.revalidate([], []), 60_000)
    expiry.unref()
    ctx.onClose(() => clearInterval(expiry))

    ctx.provide('chain', chain)
    ctx.provide('mempool', mempool)
    const tip = chain.tip()
    ctx.logger.info({ height: tip.height, hash: tip.hash.slice(0, 16) }, 'chain loaded')
  }
})
