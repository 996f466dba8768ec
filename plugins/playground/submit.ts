// Deploy and call requests (SPEC 4.5) turned into real signed transactions from the user's
// custodial wallet (SPEC 5 rule 2: the session's or the token's user pays), admitted to the
// mempool and mined like any other. Fee = gas_limit x GAS_PRICE (never below the network
// minimum); unused gas is not refunded (SPEC 2.5).
import type { Transaction, TxData } from '../../core/chain/types.ts'
import { CONTRACT_RECIPIENT } from '../../core/chain/types.ts'
import { TxError, TxErrorCode } from '../../core/chain/errors.ts'
import { MAX_GAS_LIMIT } from '../../core/chain/tx-rules.ts'
import { bohmToCoin, coinToBohm, GAS_PRICE_BOHM, isCoinAmount } from '../../core/chain/money.ts'
import { submitFromWallet } from '../../core/chain/custodial-tx.ts'
import type { TxContext } from '../../core/chain/custodial-tx.ts'
import type { ApprovedUser } from '../../core/kernel/account-service.ts'
import type { WalletStore } from '../../core/kernel/services.ts'
import { compile, CompileError, getExample } from '../../core/contracts/index.ts'
import type { CompileResult } from '../../core/contracts/index.ts'
import { encodeCall, EncodeError, bytesToHex, normalizeVmAddress } from '../../core/vm/index.ts'
import type { AbiParam } from '../../core/vm/index.ts'
import { playgroundErrors } from './errors.ts'

/** SPEC 8: gas limit default for deploy and call */
export const DEFAULT_GAS_LIMIT = 1_000_000

export type Body = Record<string, unknown>

export interface SubmitDeps extends TxContext {
  wallets: WalletStore
}

const absent = (v: unknown): boolean => v === undefined || v === null

/** The source of a compile or deploy request: `source`, or a bundled example by `example` id. */
export function sourceOf (body: Body): string {
  if (typeof body.source === 'string') return body.source
  if (absent(body.source) && typeof body.example === 'string') {
    const example = getExample(body.example)
    if (example === undefined) throw playgroundErrors.badField(`unknown example '${body.example}' (bundled: counter, guestbook, multisig)`)
    return example.source
  }
  throw playgroundErrors.badField('source must be the contract source text')
}

export function compileSource (source: string): CompileResult {
  try {
    return compile(source)
  } catch (err) {
    if (err instanceof CompileError) throw playgroundErrors.compile(err)
    throw err
  }
}

export function gasLimitOf (body: Body): number {
  if (absent(body.gas_limit)) return DEFAULT_GAS_LIMIT
  const g = body.gas_limit
  if (typeof g !== 'number' || !Number.isSafeInteger(g) || g < 1 || g > MAX_GAS_LIMIT) {
    throw playgroundErrors.badField(`gas_limit must be an integer 1..${MAX_GAS_LIMIT}`)
  }
  return g
}

/** coin attached to the transaction; a number or a decimal string of coin */
export function valueOf (body: Body): number {
  if (absent(body.value)) return 0
  const v = typeof body.value === 'string' && /^\d+(\.\d+)?$/.test(body.value.trim()) ? Number(body.value) : body.value
  if (!isCoinAmount(v)) throw playgroundErrors.badField('value must be a non-negative coin amount with at most 18 decimals')
  return v
}

/** gas_limit x GAS_PRICE in coin, at least the network's minimum fee */
export function contractFee (gasLimit: number, minFeeCoin: number): number {
  const gas = BigInt(gasLimit) * GAS_PRICE_BOHM
  const min = coinToBohm(minFeeCoin)
  return bohmToCoin(gas > min ? gas : min)
}

function walletOf (deps: SubmitDeps, user: ApprovedUser) {
  const wallet = deps.wallets.get(user.wallet)
  if (wallet === undefined) throw playgroundErrors.walletMissing()
  return wallet
}

/** Refuses early, with the spec's text, when the paying wallet cannot cover fee + value. */
function checkFunds (deps: SubmitDeps, kind: 'deploy' | 'call', user: ApprovedUser, fee: number, value: number): void {
  const balance = deps.chain.getAccount(user.address).balance - deps.mempool.pendingSpend(user.address)
  const needed = coinToBohm(fee) + coinToBohm(value)
  if (balance < needed) throw playgroundErrors.fee(kind, { needed: bohmToCoin(needed), available: bohmToCoin(balance < 0n ? 0n : balance) })
}

function submit (deps: SubmitDeps, kind: 'deploy' | 'call', user: ApprovedUser, value: number, fee: number, data: TxData): Transaction {
  const wallet = walletOf(deps, user)
  checkFunds(deps, kind, user, fee, value)
  try {
    return submitFromWallet(deps, wallet, CONTRACT_RECIPIENT, value, data, { feeCoin: fee })
  } catch (err) {
    if (err instanceof TxError && err.code === TxErrorCode.INSUFFICIENT_BALANCE) throw playgroundErrors.fee(kind, { reason: err.message })
    if (err instanceof TxError) throw playgroundErrors.rejected(kind, err.message, err.code)
    throw err
  }
}

export interface DeploySubmitted { tx: Transaction; compiled: CompileResult; gasLimit: number; fee: number; value: number }

export function submitDeploy (deps: SubmitDeps, user: ApprovedUser, body: Body): DeploySubmitted {
  const compiled = compileSource(sourceOf(body))
  const gasLimit = gasLimitOf(body)
  const value = valueOf(body)
  const init = body.init_calldata
  if (!absent(init) && init !== '' && init !== '0x') {
    throw playgroundErrors.badField('init_calldata must be empty in this version of the contract language')
  }
  const fee = contractFee(gasLimit, deps.params.minFeeCoin)
  const tx = submit(deps, 'deploy', user, value, fee, { type: 'deploy', code: compiled.bytecode_hex, calldata: '', gas_limit: gasLimit })
  return { tx, compiled, gasLimit, fee, value }
}

/** selector as an integer, or a decimal / 0x-hex string of one byte */
function selectorOf (v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v === 'string' && /^(0x[0-9a-f]{1,2}|\d{1,3})$/i.test(v.trim())) return Number(v.trim())
  throw playgroundErrors.encode(`selector must be a 1-byte integer 1..255, got ${JSON.stringify(v)}`)
}

export interface CallSubmitted { tx: Transaction; to: string; selector: number; calldata: string; gasLimit: number; fee: number; value: number }

/** The target, selector and calldata of a call or query body (SPEC 4.5 call fields). */
export function encodedCallOf (body: Body): { to: string; selector: number; calldata: string } {
  const missing = (v: unknown): boolean => absent(v) || v === ''
  if (missing(body.contract_addr) || missing(body.selector)) throw playgroundErrors.callFieldsMissing()
  const to = typeof body.contract_addr === 'string' ? normalizeVmAddress(body.contract_addr.trim()) : null
  if (to === null) throw playgroundErrors.badField('contract_addr must be a 40-hex VM address, with or without 0x')
  const selector = selectorOf(body.selector)
  try {
    // a method without arguments needs no args / params: absent means an empty list
    const args = absent(body.args) ? [] : body.args as unknown[]
    const params = absent(body.params) ? [] : body.params as AbiParam[]
    return { to, selector, calldata: bytesToHex(encodeCall(selector, args, params)) }
  } catch (err) {
    if (err instanceof EncodeError) throw playgroundErrors.encode(err.message)
    throw err
  }
}

export function submitCall (deps: SubmitDeps, user: ApprovedUser, body: Body): CallSubmitted {
  const { to, selector, calldata } = encodedCallOf(body)
  const gasLimit = gasLimitOf(body)
  const value = valueOf(body)
  const fee = contractFee(gasLimit, deps.params.minFeeCoin)
  const tx = submit(deps, 'call', user, value, fee, { type: 'call', to, calldata, gas_limit: gasLimit })
  return { tx, to, selector, calldata, gasLimit, fee, value }
}
