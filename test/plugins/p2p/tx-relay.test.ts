// Transaction announcements (inv/getdata) bookkeeping: who is told, who is asked, what is
// remembered, and the per-peer bounds, against a stand-in mempool and client.
import t from 'tap'
import { createHash } from 'node:crypto'
import { pino } from 'pino'
import { waitFor } from '../../helpers/wait.ts'
import { RecentTxs, TX_RELAY_LIMITS, TxRelay } from '../../../plugins/p2p/tx-relay.ts'
import type { TxRelayClient } from '../../../plugins/p2p/tx-relay.ts'
import { PENALTY } from '../../../plugins/p2p/misbehaviour.ts'
import type { MempoolService } from '../../../core/chain/mempool-service.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import type { TxInv } from '../../../plugins/p2p/protocol.ts'
import { encodeTx } from '../../../core/chain/tx-codec.ts'
import { TxError, TxErrorCode } from '../../../core/chain/errors.ts'

const id = (n: number): string => createHash('sha3-256').update(String(n)).digest('hex')
const tx = (n: number): Transaction => ({ sender: 'a'.repeat(32), recipient: 'b'.repeat(32), amount: n, timestamp: 1, transaction_id: id(n), signature: '', fee: 0, data: {}, nonce: n })

function harness (peers: string[]) {
  const pool = new Map<string, Transaction>()
  const mempool = { has: (i: string) => pool.has(i), get: (i: string) => pool.get(i), add: (x: Transaction) => { pool.set(x.transaction_id, x); relay.announce(x); return x } } as unknown as MempoolService
  const sent: Array<[string, TxInv]> = []
  const asked: Array<[string, string[]]> = []
  const answers = new Map<string, (ids: string[]) => Uint8Array[]>()
  const penalties: Array<[string, number]> = []
  const client: TxRelayClient = {
    txinv: async (peer, inv) => { sent.push([peer, inv]) },
    gettx: async (peer, ids) => { asked.push([peer, ids]); return (answers.get(peer) ?? ((x) => x.map(() => new Uint8Array(0))))(ids) }
  }
  const relay: TxRelay = new TxRelay({ mempool, client, recent: new RecentTxs(), peers: () => peers, penalize: (p, n) => { penalties.push([p, n]) }, logger: pino({ level: 'silent' }), maxTxBytes: 100_000 })
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

t.test('a valid transaction our state refuses (nonce, balance) costs its sender a little', async (t) => {
  const h = harness(['p1'])
  t.teardown(() => h.relay.stop())
  h.mempool.add = () => { throw new TxError(TxErrorCode.BAD_NONCE, 'nonce 7, expected 0') }
  h.answers.set('p1', (ids) => ids.map(() => encodeTx(tx(5))))
  h.relay.onInv('p1', { ids: [id(5)], sizes: [encodeTx(tx(5)).length] })
  await waitFor('the penalty', () => h.penalties.length > 0)
  t.same(h.penalties, [['p1', PENALTY.staleTx]])
})
