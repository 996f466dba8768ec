// Address detail over stub services: either form resolves to the wallet through walletOfVm,
// history comes from the address index only, and a page past the end touches no block.
import t from 'tap'
import type { ChainService, ConfirmedTx } from '../../../core/chain/chain-service.ts'
import type { MempoolService } from '../../../core/chain/mempool-service.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import { vmAddressOf } from '../../../core/chain/address.ts'
import { addressDetail, resolveAddress } from '../../../core/views/address-detail.ts'
import { testParams } from '../../helpers/chain.ts'

const WALLET = '5a'.repeat(16)
const VM = vmAddressOf(WALLET)
const CONTRACT = 'c0'.repeat(20)
const ids = Array.from({ length: 5 }, (_, i) => String(i).repeat(64))

function stub (calls: string[]): ChainService {
  return {
    walletOfVm: (vm: string) => (vm === VM ? WALLET : undefined),
    getAccount: (a: string) => ({ balance: a === WALLET ? 2n * 10n ** 18n : 0n, nonce: 0, publicKey: null }),
    addressHistory: async (a: string, offset: number, limit: number) => {
      calls.push(`ah:${a}:${offset}:${limit}`)
      return a === WALLET ? { total: ids.length, txIds: ids.slice(offset, offset + limit) } : { total: 0, txIds: [] }
    },
    getTransaction: async (id: string): Promise<ConfirmedTx> => {
      calls.push(`tx:${id.slice(0, 4)}`)
      const tx: Transaction = { sender: WALLET, recipient: '77'.repeat(16), amount: 1, timestamp: 9, transaction_id: id, signature: 'aa', fee: 0.001, data: {}, nonce: 0 }
      return { tx, location: { hash: 'h', height: 10 - Number(id[0]), index: 1 }, blockHash: 'h' }
    },
    getBlockByHeight: async () => { throw new Error('no chain walk') }
  } as unknown as ChainService
}

const ctx = (calls: string[]) => ({ chain: stub(calls), mempool: {} as MempoolService, params: testParams(), nameOf: () => null })

t.test('address forms', async (t) => {
  t.same(resolveAddress(ctx([]), `0x${WALLET.toUpperCase()}`), { canonical: VM, wallet: WALLET, key: WALLET })
  t.same(resolveAddress(ctx([]), VM.toUpperCase()), { canonical: VM, wallet: WALLET, key: WALLET }, 'a VM address maps back to its wallet')
  t.same(resolveAddress(ctx([]), CONTRACT), { canonical: CONTRACT, wallet: null, key: CONTRACT }, 'a contract stays a VM address')
  t.equal(resolveAddress(ctx([]), 'zz'), null)
  t.equal(resolveAddress(ctx([]), WALLET + 'a'), null)
})

t.test('history from the index, paged', async (t) => {
  const calls: string[] = []
  const d = await addressDetail(ctx(calls), VM, { offset: 1, limit: 2 })
  t.match(d, { address: VM, wallet_address: WALLET, balance: 2, tx_count: 5, pagination: { offset: 1, limit: 2, total: 5, has_more: true } })
  t.same(d?.transactions.map((x) => [x.tx_id, x.direction]), [[ids[1], 'out'], [ids[2], 'out']])
  t.same(calls, [`ah:${WALLET}:1:2`, 'tx:1111', 'tx:2222'], 'one index read of the page, then its transactions')

  const past: string[] = []
  const beyond = await addressDetail(ctx(past), WALLET, { offset: 9_000_000_000, limit: 100 })
  t.same(beyond?.transactions, [])
  t.same(past, [`ah:${WALLET}:9000000000:100`], 'a page past the end reads the index once and no transaction')
})
