// Search over stub services (issue 14 item 6): heights, block hashes, full ids, unique id
// prefixes of 8+ hex (the chat's 16), addresses and user names; ambiguity and misses explained.
import t from 'tap'
import type { Test } from 'tap'
import type { ChainService, ConfirmedTx } from '../../../../core/chain/chain-service.ts'
import type { MempoolService } from '../../../../core/chain/mempool-service.ts'
import type { Transaction } from '../../../../core/chain/types.ts'
import type { ViewContext } from '../../../../core/views/context.ts'
import { resolveSearch } from '../../../../plugins/http/chain-views/search.ts'
import { testParams } from '../../../helpers/chain.ts'

const HASH = 'ab'.repeat(64)
const CONFIRMED = 'deadbeef01' + '1'.repeat(54)
const TWIN_A = 'cafe0000a' + '2'.repeat(55)
const TWIN_B = 'cafe0000b' + '3'.repeat(55)
const PENDING = 'feed1234' + '4'.repeat(56)
const ALICE = '5a'.repeat(16)

const tx = (id: string): Transaction => ({ sender: ALICE, recipient: ALICE, amount: 0, timestamp: 1, transaction_id: id, signature: '', fee: 0.001, data: {}, nonce: 0 })
const onChain = [CONFIRMED, TWIN_A, TWIN_B]

const chain = {
  hashAtHeight: (h: number) => (h >= 0 && h <= 3 ? (h === 3 ? HASH : `h${h}`) : undefined),
  getBlockMeta: (hash: string) => (hash === HASH ? { height: 3 } : undefined),
  getTransaction: async (id: string): Promise<ConfirmedTx | undefined> => (onChain.includes(id) ? { tx: tx(id), location: { hash: HASH, height: 3, index: 1 }, blockHash: HASH } : undefined),
  txIdsWithPrefix: async (prefix: string, limit: number) => onChain.filter((id) => id.startsWith(prefix)).slice(0, limit)
} as unknown as ChainService
const mempool = { list: () => [tx(PENDING)], get: (id: string) => (id === PENDING ? tx(PENDING) : undefined) } as unknown as MempoolService
const ctx: ViewContext = {
  chain,
  mempool,
  params: testParams(),
  nameOf: () => null,
  addressOfName: (name) => (name.toLowerCase() === 'alice' || name.toLowerCase() === 'deadbeef99' ? ALICE : null)
}

const fails = async (t: Test, q: string, statusCode: number, error: string | RegExp): Promise<void> => {
  const err = await resolveSearch(ctx, q).then(() => null, (e: unknown) => e as { statusCode: number; message: string })
  t.equal(err?.statusCode, statusCode, `${q}: status`)
  t.match(err?.message, error, `${q}: text`)
}

t.test('what each query finds', async (t) => {
  t.same(await resolveSearch(ctx, ' 3 '), { type: 'block', height: 3 })
  t.same(await resolveSearch(ctx, `0x${HASH.toUpperCase()}`), { type: 'block', height: 3 })
  t.same(await resolveSearch(ctx, CONFIRMED), { type: 'tx', tx_id: CONFIRMED })
  t.same(await resolveSearch(ctx, CONFIRMED.slice(0, 16)), { type: 'tx', tx_id: CONFIRMED }, 'the 16-char id the chat shows')
  t.same(await resolveSearch(ctx, CONFIRMED.slice(0, 8).toUpperCase()), { type: 'tx', tx_id: CONFIRMED }, '8 hex is enough, any case')
  t.same(await resolveSearch(ctx, PENDING.slice(0, 12)), { type: 'tx', tx_id: PENDING }, 'pending transactions too')
  t.same(await resolveSearch(ctx, ALICE), { type: 'address', address: ALICE })
  t.same(await resolveSearch(ctx, 'ALICE'), { type: 'address', address: ALICE, name: 'ALICE' }, 'a user name, any case')
  t.same(await resolveSearch(ctx, 'deadbeef99'), { type: 'address', address: ALICE, name: 'deadbeef99' }, 'a hex-looking name that is no id prefix')
})

t.test('misses and ambiguity say what to do', async (t) => {
  await fails(t, '4', 404, 'no such block')
  await fails(t, '7'.repeat(128), 404, 'no such block')
  await fails(t, '7'.repeat(64), 404, 'tx not found')
  await fails(t, 'cafe0000', 400, 'more than one transaction id starts with cafe0000: type more characters')
  t.same(await resolveSearch(ctx, 'cafe0000b'), { type: 'tx', tx_id: TWIN_B }, 'one more character decides')
  await fails(t, 'a123456789', 404, 'no transaction id starts with a123456789')
  await fails(t, 'bob', 404, 'no user named bob')
  await fails(t, 'hello world', 400, /^nothing to search for in "hello world": enter a block height/)
  await fails(t, '   ', 400, /^search: enter a block height/)
})
