// Attested mining (SPEC 2.8): proof-of-work input from a registered entropy source, nonce
// search on worker threads (never on the HTTP event loop), halts when no source answers.
import os from 'node:os'
import { definePlugin } from '../../core/kernel/plugin.ts'
import { flags } from './commands.ts'
import { PowWorkerPool } from '../../core/pow/worker-pool.ts'
import { WALLET_ADDRESS_RE } from '../../core/chain/address.ts'
import { Miner } from './miner.ts'
import type { MinerService, MinerStatus } from '../../core/kernel/services.ts'

interface MinerConfig {
  enabled: boolean
  threads: number
  /** payout wallet label in <dataDir>/wallets (default: the node wallet) */
  wallet: string
  pace: boolean | null
}

export default definePlugin<MinerConfig>({
  name: 'miner',
  description: 'attested proof-of-work miner on worker threads',
  apiVersion: '1.0',
  provides: ['miner'],
  needs: ['chain', 'mempool', 'entropy', 'wallets'],
  optional: ['peers'],
  configSchema: {
    properties: {
      enabled: { type: 'boolean', default: true },
      threads: { type: 'integer', minimum: 0, maximum: 256, default: 0 },
      wallet: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'node' },
      pace: { type: ['boolean', 'null'], default: null }
    },
    additionalProperties: false
  },
  flags,
  status: (view) => {
    const miner = view.service('miner')?.status()
    return miner === undefined ? {} : { hashRate: miner.running ? miner.hash_rate : null, ownMinerAddress: miner.miner_address }
  },
  register (ctx) {
    const wallets = ctx.resolve('wallets')
    const payout = wallets.getOrCreate(ctx.config.wallet)
    if (!WALLET_ADDRESS_RE.test(payout.address)) throw new Error('miner wallet has no valid address')
    if (!ctx.config.enabled) {
      const disabled: MinerStatus = { enabled: false, running: false, blocks_mined: 0, miner_address: payout.address, simulation_mode: false, qrng_source: '', hash_rate: 0, halted_reason: 'mining disabled (--no-mine)' }
      const service: MinerService = { status: () => disabled }
      ctx.provide('miner', service)
      ctx.logger.info('mining disabled')
      return
    }
    const threads = ctx.config.threads > 0 ? ctx.config.threads : Math.max(1, os.availableParallelism())
    const cores = ctx.resolve('cores')
    const pool = new PowWorkerPool({ threads, core: cores.selection.pow })
    const miner = new Miner({
      params: ctx.params,
      chain: ctx.resolve('chain'),
      mempool: ctx.resolve('mempool'),
      entropy: ctx.resolve('entropy'),
      hooks: ctx.ownedHooks,
      logger: ctx.logger,
      pool,
      cores,
      payout,
      attestationKey: wallets.getOrCreate('attestation'),
      peers: ctx.tryResolve('peers'),
      pace: ctx.config.pace ?? ctx.params.paceBlocks,
      signal: ctx.signal
    })
    ctx.provide('miner', miner)
    ctx.onStart(() => {
      ctx.logger.info({ threads, core: cores.selection.pow, payout: payout.address }, 'miner starting')
      miner.start()
    })
    ctx.onClose(async () => {
      await miner.stop()
      await pool.close()
    })
  }
})
