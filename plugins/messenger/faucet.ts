// The faucet: 100 coin from the node's miner wallet to each newly approved user (SPEC 3).
// A failure never fails the approval: the user starts at 0 and the reason goes to the log.
import type { Logger } from 'pino'
import type { WalletStore } from '../../core/kernel/services.ts'
import { submitFromWallet } from '../../core/chain/custodial-tx.ts'
import type { TxContext } from '../../core/chain/custodial-tx.ts'

export const FAUCET_DRIP_COIN = 100

/** returns the drip's transaction id, or null when the mempool refused it */
export type Faucet = (address: string) => string | null

export function createFaucet (ctx: TxContext & { wallets: WalletStore; logger: Logger }, amountCoin = FAUCET_DRIP_COIN): Faucet {
  return (address) => {
    try {
      const tx = submitFromWallet(ctx, ctx.wallets.nodeWallet(), address, amountCoin, {})
      ctx.logger.info({ to: address, tx_id: tx.transaction_id, amount: amountCoin }, 'faucet drip submitted')
      return tx.transaction_id
    } catch (err) {
      const e = err as Error & { code?: string }
      ctx.logger.warn({ to: address, code: e.code ?? null, reason: e.message }, `faucet drip failed: ${e.message}`)
      return null
    }
  }
}
