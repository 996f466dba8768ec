// Transactions the node signs with wallets it holds: the faucet (node miner wallet) and chat
// messages (users' custodial wallets). Nonce from the mempool so pending transactions chain;
// the public key rides along until the chain has recorded it (DESIGN 3).
import { signTransaction } from './tx.ts'
import type { NetworkParams } from './params.ts'
import type { Transaction, TxData } from './types.ts'
import type { ChainService } from './chain-service.ts'
import type { MempoolService } from './mempool-service.ts'
import type { Wallet } from './wallet.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import type { MldsaCore } from '../crypto/mldsa.ts'

export interface TxContext {
  params: NetworkParams
  chain: ChainService
  mempool: MempoolService
  /** the kernel's SHA3 and ML-DSA cores to sign with (the defaults when absent) */
  cores?: { sha3: Sha3Core; mldsa: MldsaCore }
}

/**
 * Signs and admits a transaction from `wallet` paying the minimum fee (or `feeCoin`: a
 * contract transaction pays gas_limit x GAS_PRICE). Synchronous from nonce to admission, so
 * two concurrent callers can never pick the same nonce.
 * Throws the mempool's TxError when it refuses.
 */
export function submitFromWallet (ctx: TxContext, wallet: Wallet, recipient: string, amountCoin: number, data: TxData, opts: { feeCoin?: number } = {}): Transaction {
  const payload: TxData = { ...data }
  if (ctx.chain.getAccount(wallet.address).publicKey === null) payload.public_key = Buffer.from(wallet.publicKey).toString('hex')
  const tx = signTransaction(ctx.params.chainId, {
    sender: wallet.address,
    recipient,
    amount: amountCoin,
    fee: opts.feeCoin ?? ctx.params.minFeeCoin,
    timestamp: Date.now() / 1000,
    nonce: ctx.mempool.nextNonce(wallet.address),
    data: payload
  }, wallet.seed, ctx.cores)
  return ctx.mempool.add(tx)
}
