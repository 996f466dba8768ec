// The transactions of a test bed's load: transfers between the funded wallets, chat messages
// (a zero-amount transfer to oneself, text in data.memo, as the messenger sends them) and
// calls of a Counter contract (core/contracts/examples) deployed at the start.
import { signTransaction } from '../../core/chain/tx.ts'
import type { Transaction } from '../../core/chain/types.ts'
import { CONTRACT_RECIPIENT } from '../../core/chain/types.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import { compile, getExample } from '../../core/contracts/index.ts'
import { bohmToCoin, GAS_PRICE_BOHM } from '../../core/chain/money.ts'
import { bytesToHex, encodeCall } from '../../core/vm/index.ts'

const FEE = 0.001
const CALL_GAS = 100_000
const DEPLOY_GAS = 2_000_000
/** gas_limit × the gas price, in coin (the fee a contract transaction must at least carry) */
const gasFee = (gas: number): number => bohmToCoin(BigInt(gas) * GAS_PRICE_BOHM)

export interface TxContext { chainId: string; from: Wallet; nonce: number; firstOfSender: boolean }

function sign (c: TxContext, recipient: string, amount: number, fee: number, data: Record<string, unknown>): Transaction {
  // a sender's first transaction carries its public key (the chain learns it from there)
  if (c.firstOfSender) data.public_key = Buffer.from(c.from.publicKey).toString('hex')
  return signTransaction(c.chainId, { sender: c.from.address, recipient, amount, fee, timestamp: Date.now() / 1000, nonce: c.nonce, data }, c.from.seed)
}

export function transferTx (c: TxContext, to: string, amount: number): Transaction { return sign(c, to, amount, FEE, {}) }

export function chatTx (c: TxContext, text: string): Transaction { return sign(c, c.from.address, 0, FEE, { memo: text }) }

const counter = (() => {
  const example = getExample('counter')
  if (example === undefined) throw new Error('the counter example contract is missing')
  return compile(example.source)
})()

export function deployCounterTx (c: TxContext): Transaction {
  return sign(c, CONTRACT_RECIPIENT, 0, gasFee(DEPLOY_GAS), { type: 'deploy', code: counter.bytecode_hex, calldata: '', gas_limit: DEPLOY_GAS })
}

export function incrementTx (c: TxContext, contract: string, by: number): Transaction {
  const m = counter.abi.methods.find((x) => x.name === 'increment')
  if (m === undefined) throw new Error('Counter has no increment method')
  const calldata = bytesToHex(encodeCall(m.selector, [BigInt(by)], m.params))
  return sign(c, CONTRACT_RECIPIENT, 0, gasFee(CALL_GAS), { type: 'call', to: contract, calldata, gas_limit: CALL_GAS })
}
