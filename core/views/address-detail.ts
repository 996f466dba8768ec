// One address (SPEC 2.4 address detail): either form in, the 20-byte canonical form out,
// balance from the state, history from the chain's address index (newest first).
import { normalizeAddress, vmAddressOf } from '../chain/address.ts'
import { bohmToCoin } from '../chain/money.ts'
import type { ViewContext } from './context.ts'
import { txKind } from './tx-view.ts'
import type { TxKind } from './tx-view.ts'
import { pagination } from './pagination.ts'
import type { PageRequest, Pagination } from './pagination.ts'

export interface ResolvedAddress {
  /** 40 hex: the VM form, which every address has */
  canonical: string
  /** 32 hex wallet address, null for contracts and VM addresses the chain has not seen */
  wallet: string | null
  /** the form state and indexes are keyed by: the wallet when known, else the VM address */
  key: string
}

export interface AddressTxEntry {
  tx_id: string
  block_height: number
  direction: 'in' | 'out'
  sender: string
  sender_name: string | null
  recipient: string
  recipient_name: string | null
  amount: number
  fee: number
  timestamp: number
  kind: TxKind
}

export interface AddressDetail {
  address: string
  wallet_address: string | null
  name: string | null
  balance: number
  tx_count: number
  is_foundation: boolean
  transactions: AddressTxEntry[]
  pagination: Pagination
}

/** null when the text is neither a 32-hex nor a 40-hex address */
export function resolveAddress (ctx: Pick<ViewContext, 'chain'>, input: string): ResolvedAddress | null {
  const norm = normalizeAddress(input)
  if (norm === null) return null
  if (norm.form === 'wallet') return { canonical: vmAddressOf(norm.address), wallet: norm.address, key: norm.address }
  const wallet = ctx.chain.walletOfVm(norm.address) ?? null
  return { canonical: norm.address, wallet, key: wallet ?? norm.address }
}

export async function addressDetail (ctx: ViewContext, input: string, page: PageRequest): Promise<AddressDetail | null> {
  const addr = resolveAddress(ctx, input)
  if (addr === null) return null
  // one range read of the page itself, whatever the offset (the chain's ordinal index)
  const { total, txIds } = await ctx.chain.addressHistory(addr.key, page.offset, page.limit)
  const found = await Promise.all(txIds.map((id) => ctx.chain.getTransaction(id)))
  const transactions: AddressTxEntry[] = []
  for (const c of found) {
    if (c === undefined) continue
    const { tx } = c
    transactions.push({
      tx_id: tx.transaction_id,
      block_height: c.location.height,
      direction: tx.sender === addr.key ? 'out' : 'in',
      sender: tx.sender,
      sender_name: ctx.nameOf(tx.sender),
      recipient: tx.recipient,
      recipient_name: ctx.nameOf(tx.recipient),
      amount: tx.amount,
      fee: tx.fee,
      timestamp: tx.timestamp,
      kind: txKind(tx)
    })
  }
  return {
    address: addr.canonical,
    wallet_address: addr.wallet,
    name: ctx.nameOf(addr.key),
    balance: bohmToCoin(ctx.chain.getAccount(addr.key).balance),
    tx_count: total,
    is_foundation: addr.wallet === ctx.params.foundationAddress,
    transactions,
    pagination: pagination(page, total, transactions.length)
  }
}
