// One transaction by id (SPEC 2.4 transaction lookup): the chain's transaction index first,
// then the mempool. Never a chain walk.
import type { Transaction, TxData } from '../chain/types.ts'
import type { ViewContext } from './context.ts'
import { decodeTx } from './tx-view.ts'
import type { DecodedTx } from './tx-view.ts'
import { receiptSummary } from './receipt-view.ts'
import type { TxReceiptSummary } from './receipt-view.ts'

export const TX_ID_RE = /^[0-9a-f]{64}$/

export interface TxLookup extends DecodedTx {
  status: 'confirmed' | 'pending'
  /** 0 while pending; 1 when in the tip block */
  confirmations: number
  /** confirmed only */
  block_height?: number
  block_hash?: string
  /** confirmed contract transactions only */
  receipt?: TxReceiptSummary
}

/** the dashboard's form: the lookup plus the signed fields as submitted (SPEC 4.1) */
export interface RawTxLookup extends TxLookup {
  data: TxData
  nonce: number
  signature: string
}

/** lower-case, no 0x; null when it cannot be a transaction id */
export function normalizeTxId (text: string): string | null {
  const id = text.trim().toLowerCase().replace(/^0x/, '')
  return TX_ID_RE.test(id) ? id : null
}

/** 1 for a transaction in the tip block */
export function confirmationsOf (tipHeight: number, blockHeight: number): number {
  return Math.max(1, tipHeight - blockHeight + 1)
}

function withRaw (view: TxLookup, tx: Transaction): RawTxLookup {
  return { ...view, data: tx.data, nonce: tx.nonce, signature: tx.signature }
}

export async function lookupTx (ctx: ViewContext, txId: string, opts: { raw: true }): Promise<RawTxLookup | undefined>
export async function lookupTx (ctx: ViewContext, txId: string, opts?: { raw: false }): Promise<TxLookup | undefined>
export async function lookupTx (ctx: ViewContext, txId: string, opts: { raw: boolean } = { raw: false }): Promise<TxLookup | RawTxLookup | undefined> {
  const id = normalizeTxId(txId)
  if (id === null) return undefined
  const confirmed = await ctx.chain.getTransaction(id)
  if (confirmed !== undefined) {
    const { tx, location } = confirmed
    const view: TxLookup = {
      ...decodeTx(tx, ctx.nameOf),
      block_height: location.height,
      block_hash: confirmed.blockHash,
      status: 'confirmed',
      confirmations: confirmationsOf(ctx.chain.tip().height, location.height)
    }
    if (view.kind === 'deploy' || view.kind === 'call') {
      const receipt = await ctx.chain.getReceipt(id)
      if (receipt !== undefined) view.receipt = receiptSummary(receipt)
    }
    return opts.raw ? withRaw(view, tx) : view
  }
  const pending = ctx.mempool.get(id)
  if (pending === undefined) return undefined
  const view: TxLookup = { ...decodeTx(pending, ctx.nameOf), status: 'pending', confirmations: 0 }
  return opts.raw ? withRaw(view, pending) : view
}
