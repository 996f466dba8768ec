// Signed deploy and call transactions (DESIGN 3 data keys) for chain-level contract tests, and
// calldata for a compiled contract's methods by name.
import type { NetworkParams } from '../../core/chain/params.ts'
import type { Transaction } from '../../core/chain/types.ts'
import { CONTRACT_RECIPIENT } from '../../core/chain/types.ts'
import { signTransaction } from '../../core/chain/tx.ts'
import { bohmToCoin, GAS_PRICE_BOHM } from '../../core/chain/money.ts'
import { compile } from '../../core/contracts/index.ts'
import type { CompileResult } from '../../core/contracts/index.ts'
import { encodeCall, bytesToHex } from '../../core/vm/index.ts'
import type { Wallet } from '../../core/chain/wallet.ts'

export interface ContractTxOptions {
  gasLimit?: number
  /** coin; default gas_limit x GAS_PRICE */
  fee?: number
  /** coin moved to the contract */
  value?: number
  withKey?: boolean
  timestamp?: number
  /** deploy: init_calldata hex (must be empty in this version; set to test the refusal) */
  initCalldata?: string
}

/** gas_limit x 10^9 bohm in coin */
export const gasFee = (gasLimit: number): number => bohmToCoin(BigInt(gasLimit) * GAS_PRICE_BOHM)

function contractTx (params: NetworkParams, from: Wallet, nonce: number, data: Record<string, unknown>, opts: ContractTxOptions): Transaction {
  const gasLimit = opts.gasLimit ?? 1_000_000
  const payload: Record<string, unknown> = { ...data, gas_limit: gasLimit }
  if (opts.withKey ?? nonce === 0) payload.public_key = Buffer.from(from.publicKey).toString('hex')
  return signTransaction(params.chainId, {
    sender: from.address,
    recipient: CONTRACT_RECIPIENT,
    amount: opts.value ?? 0,
    fee: opts.fee ?? Math.max(gasFee(gasLimit), params.minFeeCoin),
    timestamp: opts.timestamp ?? Date.now() / 1000,
    nonce,
    data: payload
  }, from.seed)
}

export function deployTx (params: NetworkParams, from: Wallet, nonce: number, code: string, opts: ContractTxOptions = {}): Transaction {
  return contractTx(params, from, nonce, { type: 'deploy', code, calldata: opts.initCalldata ?? '' }, opts)
}

export function callTx (params: NetworkParams, from: Wallet, nonce: number, to: string, calldata: string, opts: ContractTxOptions = {}): Transaction {
  return contractTx(params, from, nonce, { type: 'call', to, calldata }, opts)
}

/** A compiled contract with calldata by method name. */
export interface Compiled extends CompileResult {
  calldata(method: string, ...args: unknown[]): string
}

export function compiled (source: string): Compiled {
  const c = compile(source)
  return {
    ...c,
    calldata (method, ...args) {
      const m = c.abi.methods.find((x) => x.name === method)
      if (m === undefined) throw new Error(`no method ${method} in ${c.abi.contract}`)
      return bytesToHex(encodeCall(m.selector, args, m.params))
    }
  }
}

/** A 32-byte word as the hex a receipt's return_data carries. */
export const word = (v: bigint | number): string => BigInt(v).toString(16).padStart(64, '0')
