// Transaction announcements (inv/getdata) bookkeeping: who is told, who is asked, what is
// remembered, and the per-peer bounds, against a stand-in mempool and client.
import t from 'tap'
import { createHash } from 'node:crypto'
import { pino } from 'pino'
import { waitFor } from '../../helpers/wait.ts'
import { RecentTxs, TX_RELAY_LIMITS, TxRelay } from '../../../plugins/p2p/tx-relay.ts'
import type { TxRelayClient } from '../../../plugins/p2p/tx-relay.ts'
import { PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import type { MempoolService, TxOffer } from '../../../core/chain/mempool-service.ts'
import { STALE_TX_BUDGET, TxRefusalScore } from '../../../plugins/p2p/tx-refusal-score.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import type { TxInv } from '../../../plugins/p2p/protocol.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { TxError, TxErrorCode } from '../../../core/chain/errors.ts'

const id = (n: number): string => createHash('sha3-256').update(String(n)).digest('hex')
const tx = (n: number): Transaction => ({ sender: 'a'.repeat(32), recipient: 'b'.repeat(32), amount: n, timestamp: 1, transaction_id: id(n), signature: '', fee: 0, data: {}, nonce: n })

function harness (peers: string[]) {
  const pool = new Map<string, Transaction>()
  const add = (x: Transaction): Transaction => { pool.set(x.transaction_id, x); relay.announce(x); return x }
  const mempool = {
    has: (i: string) => pool.has(i),
    get: (i: string) => pool.get(i),
    holds: () => false,
    add,
    offer (x: Transaction): TxOffer { mempool.add(x); return 'admitted' }
  } as unknown as MempoolService
  const sent: Array<[string, TxInv]> = []
  const asked: Array<[string, string[]]> = []
  const answers = new Map<string, (ids: string[]) => Uint8Array[]>()
  const penalties: Array<[string, number]> = []
  // a clock that stands still: the stale budget does not refill during a test
  const score = new TxRefusalScore(() => 0)
  const client: TxRelayClient = {
    txinv: async (peer, inv) => { sent.push([peer, inv]) },
    gettx: async (peer, ids) => { asked.push([peer, ids]); return (answers.get(peer) ?? ((x) => x.map(() => new Uint8Array(0))))(ids) }
  }
  const relay: TxRelay = new TxRelay({ mempool, client, recent: new RecentTxs(), peers: () => peers, penalize: (p, n) => { penalties.push([p, n]) }, refusalPoints: (p, cls) => score.points(p, cls), logger: pino({ level: 'silent' }), maxTxBytes: 100_000 })
  return { relay, pool, mempool, sent, asked, answers, penalties }
}

t.test('an admitted transaction is announced once to each peer, never back to its sender', async (t) => {
  const h = harness(['p1', 'p2'])
  t.teardown(() => h.relay.stop())
  h.answers.set('p1', (ids) => ids.map((i) => encodeTx(tx(Number([...Array(10).keys()].find((n) => id(n) === i))))))
  h.relay.onInv('p1', { ids: [id(1)], sizes: [encodeTx(tx(1)).length] })
  await waitFor('the body to arrive and be announced on', () => h.pool.has(id(1)) && h.sent.length > 0)
  t.same(h.asked, [['p1', [id(1)]]], 'asked of its announcer once')
  t.same(h.sent.map(([p, inv]) => [p, inv.ids]), [['p2', [id(1)]]], 'announced to p2 only')
  h.relay.announce(tx(1))
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(h.sent.length, 1, 'p2 already knows it: not announced again')
  t.same(h.penalties, [])
})

t.test('a second announcer is asked only when the first does not deliver', async (t) => {
  const h = harness(['p1', 'p2'])
  t.teardown(() => h.relay.stop())
  const size = encodeTx(tx(2)).length
  h.answers.set('p2', (ids) => ids.map(() => encodeTx(tx(2))))
  h.relay.onInv('p1', { ids: [id(2)], sizes: [size] })
  h.relay.onInv('p2', { ids: [id(2)], sizes: [size] })
  await waitFor('the body from p2', () => h.pool.has(id(2)))
  t.same(h.asked.map(([p]) => p), ['p1', 'p2'], 'p1 had nothing; p2 was asked next')
})

t.test('bounds: a repeated id, an announcement flood, requests in flight per peer', async (t) => {
  const h = harness(['p1'])
  t.teardown(() => h.relay.stop())
  // p1 answers nothing: what it was asked stays counted against it until the answer
  h.answers.set('p1', () => [])
  const ids = Array.from({ length: 600 }, (_, i) => id(1000 + i))
  h.relay.onInv('p1', { ids: ids.slice(0, 300), sizes: ids.slice(0, 300).map(() => 100) })
  h.relay.onInv('p1', { ids: ids.slice(300), sizes: ids.slice(300).map(() => 100) })
  await waitFor('the requests to go out', () => h.asked.length > 0)
  const askedIds = h.asked.flatMap(([, x]) => x).length
  t.ok(askedIds <= TX_RELAY_LIMITS.inFlightPerPeer, `at most ${TX_RELAY_LIMITS.inFlightPerPeer} asked of one peer at once (${askedIds})`)
  h.relay.onInv('p1', { ids: [ids[0] as string], sizes: [100] })
  t.same(h.penalties.at(-1), ['p1', PENALTY.duplicateInv], 'an id announced twice costs')
  const flood = Array.from({ length: TX_RELAY_LIMITS.invBurst + 1 }, (_, i) => id(10_000 + i))
  h.relay.onInv('p1', { ids: flood, sizes: flood.map(() => 100) })
  t.same(h.penalties.at(-1), ['p1', PENALTY.invFlood], 'more than the announcement budget costs')
})

t.test('a body that is not the announced transaction costs its sender', async (t) => {
  const h = harness(['p1'])
  t.teardown(() => h.relay.stop())
  h.answers.set('p1', (ids) => ids.map(() => encodeTx(tx(4))))
  h.relay.onInv('p1', { ids: [id(3)], sizes: [encodeTx(tx(3)).length] })
  await waitFor('the penalty', () => h.penalties.length > 0)
  t.same(h.penalties, [['p1', PENALTY.malformed]])
  t.notOk(h.pool.has(id(4)))
})

t.test('a valid transaction our state refuses (balance) is free within the peer\'s budget and costs a little beyond it', async (t) => {
  const h = harness(['p1'])
  t.teardown(() => h.relay.stop())
  let refused = 0
  h.mempool.add = () => { refused++; throw new TxError(TxErrorCode.INSUFFICIENT_BALANCE, 'balance does not cover it') }
  const ns = Array.from({ length: STALE_TX_BUDGET.capacity + 2 }, (_, i) => 1000 + i)
  const byId = new Map(ns.map((n) => [id(n), tx(n)]))
  h.answers.set('p1', (ids) => ids.map((i) => encodeTx(byId.get(i) as Transaction)))
  h.relay.onInv('p1', { ids: ns.map(id), sizes: ns.map((n) => encodeTx(tx(n)).length) })
  await waitFor('every body to be judged', () => refused === ns.length)
  t.same(h.penalties, [['p1', PENALTY.staleTx], ['p1', PENALTY.staleTx]], 'the budget\'s worth free, a point each beyond')
})

t.test('a nonce already used is our news (a block crossed the relay): free', async (t) => {
  const h = harness(['p1'])
  t.teardown(() => h.relay.stop())
  let refused = 0
  h.mempool.add = () => { refused++; throw new TxError(TxErrorCode.BAD_NONCE, 'nonce 3 but the next is 4', 'policy') }
  const ns = Array.from({ length: STALE_TX_BUDGET.capacity + 5 }, (_, i) => 2000 + i)
  const byId = new Map(ns.map((n) => [id(n), tx(n)]))
  h.answers.set('p1', (ids) => ids.map((i) => encodeTx(byId.get(i) as Transaction)))
  h.relay.onInv('p1', { ids: ns.map(id), sizes: ns.map((n) => encodeTx(tx(n)).length) })
  await waitFor('every body to be judged', () => refused === ns.length)
  t.same(h.penalties, [])
})

t.test('an orphan is held free and not announced; admitted later, it goes to every peer lacking it', async (t) => {
  const h = harness(['p1', 'p2'])
  t.teardown(() => h.relay.stop())
  const held = new Set<string>()
  h.mempool.offer = (x: Transaction) => {
    if (x.nonce === 7) { held.add(x.transaction_id); return 'orphan' }
    h.mempool.add(x)
    if (held.delete(id(7))) h.mempool.add(tx(7)) // the gap closed: the orphan goes in behind it
    return 'admitted'
  }
  h.mempool.holds = (i: string) => held.has(i)
  h.answers.set('p1', (ids) => ids.map(() => encodeTx(tx(7))))
  h.relay.onInv('p1', { ids: [id(7)], sizes: [encodeTx(tx(7)).length] })
  await waitFor('the orphan to be held', () => held.size === 1)
  h.relay.onInv('p3', { ids: [id(7)], sizes: [encodeTx(tx(7)).length] })
  await new Promise((resolve) => setImmediate(resolve))
  t.same(h.asked.map(([p]) => p), ['p1'], 'a held orphan is not asked for again')
  h.answers.set('p2', (ids) => ids.map(() => encodeTx(tx(6))))
  h.relay.onInv('p2', { ids: [id(6)], sizes: [encodeTx(tx(6)).length] })
  await waitFor('both announced on', () => h.sent.length >= 2)
  const told = h.sent.flatMap(([p, inv]) => inv.ids.map((i) => `${p}:${i}`)).sort()
  t.same(told, [`p1:${id(6)}`, `p2:${id(7)}`].sort(), 'the predecessor to its non-announcer, the orphan to the peer whose transaction let it in')
  t.same(h.penalties, [])
})
