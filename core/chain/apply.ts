// State transition of one block: every transaction's stateful rules, balances, nonces,
// contract execution, indexes and receipts, all written into one StateOverlay whose commit
// is one atomic batch.
import type { NetworkParams } from './params.ts'
import type { Block, Transaction } from './types.ts'
import { CONTRACT_RECIPIENT, MINING_REWARD_SENDER } from './types.ts'
import { BlockError, BlockErrorCode, LedgerError, TxError, TxErrorCode } from './errors.ts'
import { checkTxFormat, checkTxSignature, senderPublicKey } from './tx-rules.ts'
import { coinToBohm, AmountError } from './money.ts'
import { txId } from './tx.ts'
import { vmAddressOf, VM_ADDRESS_RE, WALLET_ADDRESS_RE } from './address.ts'
import { StateOverlay, stateKey } from './state.ts'
import { chainKey } from './keys.ts'
import type { Receipt } from '../vm/receipt.ts'
import { logBytes } from '../vm/executor.ts'
import { DEFAULT_SHA3_CORE } from '../crypto/sha3.ts'
import type { Sha3Core } from '../crypto/sha3.ts'
import type { MldsaCore } from '../crypto/mldsa.ts'

/** log bytes of a receipt, as the log limits count them */
export function receiptLogBytes (receipt: Receipt): number {
  return receipt.logs.reduce((sum, l) => sum + logBytes(l.topics.length, l.data.length / 2), 0)
}

export interface ContractCall {
  overlay: StateOverlay
  tx: Transaction
  /** VM address of the sender */
  sender: string
  value: bigint
  gasLimit: number
  env: { blockHeight: number; timestamp: number; miner: string }
  /** log bytes this transaction may emit: the per-transaction limit or what the block has left */
  maxLogBytes: number
}

/** Runs deploy and call transactions; provided by the VM integration. */
export interface ContractExecutor {
  execute(call: ContractCall): Receipt
}

export interface AppliedBlock {
  receipts: Array<{ tx_id: string; receipt: Receipt; index: number }>
  fees: bigint
  minted: bigint
}

export interface ApplyOptions {
  params: NetworkParams
  executor: ContractExecutor | null
  /** true when this exact transaction's signature was already verified (mempool) */
  isVerified?: (tx: Transaction) => boolean
  /** the kernel's cores for transaction ids, addresses and signatures (default: WASM SHA3, native ML-DSA) */
  cores?: { sha3: Sha3Core; mldsa: MldsaCore }
  /** the block's transactions' binary forms, by index in the block, when validation made them (checkTxFormat reads them) */
  encoded?: readonly Uint8Array[]
  /** the overlay already holds blockStateKeys' values (read ahead): no multi-get here */
  stateReadAhead?: boolean
}

export function blockSubsidy (params: NetworkParams, height: number, supply: bigint): bigint {
  const halvings = Math.floor(height / params.halvingInterval)
  if (halvings >= 64) return 0n
  const subsidy = coinToBohm(params.subsidyCoin) >> BigInt(halvings)
  const room = coinToBohm(params.maxSupplyCoin) - supply
  return room <= 0n ? 0n : (subsidy < room ? subsidy : room)
}

function txFail (index: number, err: unknown): never {
  if (err instanceof LedgerError) throw new BlockError(BlockErrorCode.BAD_TX, `transaction ${index}: ${err.message} (${err.code})`)
  throw err
}

function indexAddress (o: StateOverlay, addr: string, txIdValue: string): void {
  // the entry cannot exist yet: it is named by the address's next ordinal (a disconnected
  // block's entries were deleted by its undo record, and its counts restored)
  const countKey = chainKey.addressTxCount(addr)
  const count = o.getBigint(countKey)
  o.putNew(chainKey.addressTxOrdinal(addr, Number(count)), Buffer.from(txIdValue))
  o.putBigint(countKey, count + 1n)
}

function rememberVmAddress (o: StateOverlay, wallet: string, sha3: Sha3Core): void {
  const vm = vmAddressOf(wallet, sha3)
  if (o.get(stateKey.vmToWallet(vm)) === undefined) o.putText(stateKey.vmToWallet(vm), wallet)
}

/** Applies a user transaction; returns its fee. Throws TxError on any stateful rule. */
/** `logBudget`: log bytes the block has left for this transaction */
export function applyTransaction (o: StateOverlay, tx: Transaction, height: number, index: number, opts: ApplyOptions, env: ContractCall['env'],
  logBudget: number = opts.params.maxBlockLogBytes): { fee: bigint; receipt: Receipt | null } {
  const sha3 = opts.cores?.sha3 ?? DEFAULT_SHA3_CORE
  const { amount, fee, gasLimit } = checkTxFormat(opts.params, tx, sha3, opts.encoded?.[index])
  if (o.get(chainKey.txLocation(tx.transaction_id)) !== undefined) throw new TxError(TxErrorCode.ALREADY_CONFIRMED, 'transaction already confirmed')
  const sender = o.getAccountCore(tx.sender)
  const stored = o.getPublicKey(tx.sender)
  const key = opts.isVerified?.(tx) === true
    ? stored ?? senderPublicKey(tx, { publicKey: null }, sha3)
    : checkTxSignature(tx, { publicKey: stored ?? null }, opts.cores)
  if (tx.nonce !== sender.nonce) throw new TxError(TxErrorCode.BAD_NONCE, `nonce ${tx.nonce} but the sender's next nonce is ${sender.nonce}`)
  if (sender.balance < amount + fee) throw new TxError(TxErrorCode.INSUFFICIENT_BALANCE, 'balance does not cover amount + fee')
  sender.balance -= amount + fee
  sender.nonce += 1
  o.putAccountCore(tx.sender, sender)
  if (stored === undefined) o.putPublicKey(tx.sender, key)
  rememberVmAddress(o, tx.sender, sha3)

  o.putJson(chainKey.txLocation(tx.transaction_id), { height, index })
  indexAddress(o, tx.sender, tx.transaction_id)
  if (typeof tx.data.memo === 'string') o.putText(chainKey.message(height, index), tx.transaction_id)

  let receipt: Receipt | null = null
  if (tx.recipient === CONTRACT_RECIPIENT) {
    if (opts.executor === null) throw new TxError(TxErrorCode.BAD_FORMAT, 'this node runs no contract VM')
    const maxLogBytes = Math.min(opts.params.maxTxLogBytes, logBudget)
    receipt = opts.executor.execute({ overlay: o, tx, sender: vmAddressOf(tx.sender, sha3), value: amount, gasLimit: gasLimit as number, env, maxLogBytes })
    const touched = receipt.contract ?? receipt.to
    if (touched !== undefined) indexAddress(o, touched, tx.transaction_id)
    o.putJson(chainKey.receipt(tx.transaction_id), { ...receipt, tx_id: tx.transaction_id, block_height: height })
    o.putText(chainKey.blockReceipt(height, index), tx.transaction_id)
  } else {
    // a wallet's VM address is the same account as the wallet (as inside the VM); an unknown
    // VM address (a contract, or a wallet the chain has not seen) holds its own balance
    const recipient = WALLET_ADDRESS_RE.test(tx.recipient) ? tx.recipient : o.accountKeyOfVm(tx.recipient)
    o.credit(recipient, amount)
    if (WALLET_ADDRESS_RE.test(recipient)) rememberVmAddress(o, recipient, sha3)
    if (recipient !== tx.sender) indexAddress(o, recipient, tx.transaction_id)
  }
  return { fee, receipt }
}

/**
 * The keys applying `block` reads for its transfers and coinbase (accounts, senders' keys, VM-address
 * mappings, confirmed-id and address-count indexes), read in one multi-get instead of one
 * read each. A key not listed is still read when needed; a listed one never read costs nothing.
 */
export function blockStateKeys (block: Block, sha3: Sha3Core): string[] {
  const keys = [stateKey.supply()]
  const wallet = (addr: string): void => {
    keys.push(stateKey.account(addr), stateKey.vmToWallet(vmAddressOf(addr, sha3)), chainKey.addressTxCount(addr))
  }
  for (const tx of block.transactions) {
    if (typeof tx.transaction_id === 'string') keys.push(chainKey.txLocation(tx.transaction_id))
    if (typeof tx.sender === 'string' && WALLET_ADDRESS_RE.test(tx.sender)) { wallet(tx.sender); keys.push(stateKey.publicKey(tx.sender)) }
    if (typeof tx.recipient === 'string') {
      if (WALLET_ADDRESS_RE.test(tx.recipient)) wallet(tx.recipient)
      else if (VM_ADDRESS_RE.test(tx.recipient)) keys.push(stateKey.vmToWallet(tx.recipient), stateKey.account(tx.recipient), chainKey.addressTxCount(tx.recipient))
    }
  }
  if (WALLET_ADDRESS_RE.test(block.miner)) wallet(block.miner)
  return keys
}

export function applyBlock (o: StateOverlay, block: Block, opts: ApplyOptions): AppliedBlock {
  const { params } = opts
  const sha3 = opts.cores?.sha3 ?? DEFAULT_SHA3_CORE
  if (opts.stateReadAhead !== true) o.prefetch(blockStateKeys(block, sha3))
  const [coinbase, ...txs] = block.transactions
  if (coinbase === undefined || coinbase.sender !== MINING_REWARD_SENDER) throw new BlockError(BlockErrorCode.BAD_COINBASE, 'first transaction must be the coinbase')
  const env = { blockHeight: block.height, timestamp: block.timestamp, miner: vmAddressOf(block.miner, sha3) }
  const receipts: AppliedBlock['receipts'] = []
  let fees = 0n
  let logBudget = params.maxBlockLogBytes
  txs.forEach((tx, i) => {
    const index = i + 1
    if (tx.sender === MINING_REWARD_SENDER) throw new BlockError(BlockErrorCode.BAD_COINBASE, 'only the first transaction may be a coinbase')
    try {
      const r = applyTransaction(o, tx, block.height, index, opts, env, logBudget)
      fees += r.fee
      if (r.receipt !== null) {
        receipts.push({ tx_id: tx.transaction_id, receipt: r.receipt, index })
        logBudget -= receiptLogBytes(r.receipt)
      }
    } catch (err) { txFail(index, err) }
  })

  const supply = o.getBigint(stateKey.supply())
  const subsidy = blockSubsidy(params, block.height, supply)
  let claimed: bigint
  try { claimed = coinToBohm(coinbase.amount) } catch (err) {
    if (err instanceof AmountError) throw new BlockError(BlockErrorCode.BAD_COINBASE, `coinbase amount: ${err.message}`)
    throw err
  }
  const expectedId = txId(params.chainId, coinbase, sha3)
  if (coinbase.recipient !== block.miner || coinbase.fee !== 0 || coinbase.nonce !== block.height ||
      coinbase.transaction_id !== expectedId || Object.keys(coinbase.data ?? {}).length !== 0 || coinbase.signature !== '') {
    throw new BlockError(BlockErrorCode.BAD_COINBASE, 'coinbase must pay the block miner, with fee 0, nonce = height, empty data and no signature')
  }
  if (claimed > subsidy + fees) throw new BlockError(BlockErrorCode.BAD_COINBASE, 'coinbase claims more than subsidy + fees')
  if (o.get(chainKey.txLocation(coinbase.transaction_id)) !== undefined) throw new BlockError(BlockErrorCode.DUPLICATE_TX, 'coinbase id already confirmed')
  o.credit(block.miner, claimed)
  rememberVmAddress(o, block.miner, sha3)
  o.putJson(chainKey.txLocation(coinbase.transaction_id), { height: block.height, index: 0 })
  indexAddress(o, block.miner, coinbase.transaction_id)
  const minted = claimed - fees
  o.putBigint(stateKey.supply(), supply + minted)
  return { receipts, fees, minted }
}

/** Genesis allocations: credits and indexes, no rules (nothing precedes genesis). */
export function applyGenesis (o: StateOverlay, block: Block, sha3: Sha3Core = DEFAULT_SHA3_CORE): void {
  let total = 0n
  block.transactions.forEach((tx, index) => {
    const amount = coinToBohm(tx.amount)
    o.credit(tx.recipient, amount)
    rememberVmAddress(o, tx.recipient, sha3)
    o.putJson(chainKey.txLocation(tx.transaction_id), { height: 0, index })
    indexAddress(o, tx.recipient, tx.transaction_id)
    total += amount
  })
  o.putBigint(stateKey.supply(), total)
}
