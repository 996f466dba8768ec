// Attested mining (SPEC 2.8): proof-of-work input from a registered entropy source, nonce
// search on worker threads (never on the HTTP event loop), halts when no source answers.
import os from 'node:os'
import { definePlugin } from '../../core/kernel/plugin.ts'
import { flags } from './commands.ts'
import { PowWorkerPool } from '../../core/pow/worker-pool.ts'
import { MAX_DUTY, MIN_DUTY } from '../../core/pow/duty.ts'
import { WALLET_ADDRESS_RE } from '../../core/chain/address.ts'
import { Miner } from './miner.ts'
import { SyncGate } from './sync-gate.ts'
import { walletFileAddress, WalletFileError } from '../../core/kernel/wallet-keystore-file.ts'
import { ConfigError } from '../../core/kernel/config.ts'
import type { MinerService, MinerStatus } from '../../core/kernel/services.ts'

interface MinerConfig {
  enabled: boolean
  /** PoW worker threads; 0: one per core but one (at least one) */
  threads: number
  /** percent of each PoW thread's time spent hashing, 1-100 (--mine-duty; core/pow/duty.ts) */
  duty: number
  /** the PoW threads' scheduling niceness (config only; default MINER_NICENESS): 0 where a miner
   *  must keep its hash rate on a busy machine — the test bed's duty-limited miners */
  niceness: number
  /** payout wallet label in <dataDir>/wallets (default: the node wallet) */
  wallet: string
  /** payout to this wallet file's address instead (--miner-wallet); it may be encrypted: only
   *  the address is read, the key stays off the node */
  walletFile: string | null
  pace: boolean | null
  /** how long a restarted miner waits for its bootstrap peers before mining on its own tip;
   *  null: 0 on devnet (mine at once), 30 elsewhere */
  syncWaitSeconds: number | null
}

/** the lowest scheduling priority: hashing takes only the CPU nothing else of the node wants */
export const MINER_NICENESS = 19

/** Bitcoin Core-like: no block on a stale tip while peers may still have a better chain */
export const DEFAULT_SYNC_WAIT_SECONDS = 30

/** the default leaves one core to the HTTP servers, p2p and block checks */
export function defaultMinerThreads (cores = os.availableParallelism()): number {
  return Math.max(1, cores - 1)
}

function payoutAddressOf (file: string): string {
  try {
    return walletFileAddress(file)
  } catch (err) {
    if (err instanceof WalletFileError) throw new ConfigError(`miner.walletFile (--miner-wallet): ${err.message}`)
    throw err
  }
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
      duty: { type: 'integer', minimum: MIN_DUTY, maximum: MAX_DUTY, default: MAX_DUTY },
      niceness: { type: 'integer', minimum: 0, maximum: 19, default: MINER_NICENESS },
      wallet: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'node' },
      walletFile: { type: ['string', 'null'], minLength: 1, default: null },
      pace: { type: ['boolean', 'null'], default: null },
      syncWaitSeconds: { type: ['integer', 'null'], minimum: 0, maximum: 3600, default: null }
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
    const payout = ctx.config.walletFile !== null ? { address: payoutAddressOf(ctx.config.walletFile) } : wallets.getOrCreate(ctx.config.wallet)
    if (!WALLET_ADDRESS_RE.test(payout.address)) throw new Error('miner wallet has no valid address')
    if (!ctx.config.enabled) {
      const disabled: MinerStatus = { enabled: false, running: false, blocks_mined: 0, miner_address: payout.address, simulation_mode: false, qrng_source: '', hash_rate: 0, halted_reason: 'mining disabled (--no-mine)' }
      const service: MinerService = { status: () => disabled }
      ctx.provide('miner', service)
      ctx.logger.info('mining disabled')
      return
    }
    const threads = ctx.config.threads > 0 ? ctx.config.threads : defaultMinerThreads()
    const peers = ctx.tryResolve('peers')
    const syncWait = ctx.config.syncWaitSeconds ?? (ctx.params.name === 'devnet' ? 0 : DEFAULT_SYNC_WAIT_SECONDS)
    const cores = ctx.resolve('cores')
    // by default (nice 19) hashing yields to everything else the node does (docs/operator.md, --mine-threads)
    const pool = new PowWorkerPool({ threads, core: cores.selection.pow, duty: ctx.config.duty, niceness: ctx.config.niceness })
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
      peers,
      pace: ctx.config.pace ?? ctx.params.paceBlocks,
      signal: ctx.signal,
      syncGate: new SyncGate({
        peers,
        immediate: syncWait === 0,
        height: () => ctx.resolve('chain').tip().height,
        waitMs: syncWait * 1000
      })
    })
    ctx.provide('miner', miner)
    ctx.onStart(() => {
      ctx.logger.info({ threads, duty: ctx.config.duty, niceness: ctx.config.niceness, core: cores.selection.pow, payout: payout.address }, 'miner starting')
      miner.start()
    })
    ctx.onClose(async () => {
      await miner.stop()
      await pool.close()
    })
  }
})
