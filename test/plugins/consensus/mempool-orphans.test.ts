// A peer's transaction whose nonce is ahead of its sender's next one: held as an orphan once its
// signature verifies (a forgery is refused as invalid), admitted in nonce order when the gap
// closes (a predecessor admitted, or a block confirming it), never listed before; a nonce
// already used is policy, not the relay's fault.
import t from 'tap'
import type { Test } from 'tap'
import { openTestChain, mineBlock, transfer, devWallet, generateWallet, cleanup } from '../../helpers/chain.ts'
import type { TestChain } from '../../helpers/chain.ts'
import { Mempool } from '../../../plugins/consensus/mempool.ts'
import { OrphanPool } from '../../../plugins/consensus/orphan-pool.ts'
import { refusalClassOf, TxError, TxErrorCode } from '../../../core/chain/errors.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import type { Wallet } from '../../../core/chain/wallet.ts'

const dev = devWallet()
const NOW = 1_800_000_000

async function funded (t: Test): Promise<{ tc: TestChain; alice: Wallet; bob: Wallet }> {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const [alice, bob] = [generateWallet(), generateWallet()]
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: [transfer(tc.params, dev, alice.address, 100, 0)] }), 'test')
  return { tc, alice, bob }
}

const pool = (tc: TestChain, orphans?: OrphanPool): Mempool =>
  new Mempool({ chain: tc.chain, params: tc.params, hooks: tc.hooks, contractsEnabled: false, now: () => NOW, orphans: orphans ?? new OrphanPool({ now: () => NOW }) })
const send = (tc: TestChain, from: Wallet, to: string, nonce: number, amount = 1, timestamp = NOW): Transaction =>
  transfer(tc.params, from, to, amount, nonce, { timestamp, withKey: true })

function refusal (fn: () => unknown): TxError {
  try { fn() } catch (err) { if (err instanceof TxError) return err; throw err }
  throw new Error('not refused')
}

t.test('held, not listed; admitted in nonce order when the predecessor arrives', async (t) => {
  const { tc, alice, bob } = await funded(t)
  const mp = pool(tc)
  const txs = [0, 1, 2, 3].map((n) => send(tc, alice, bob.address, n))
  t.equal(mp.offer(txs[3] as Transaction, 'p1'), 'orphan')
  t.equal(mp.offer(txs[1] as Transaction, 'p2'), 'orphan')
  t.equal(mp.offer(txs[2] as Transaction, 'p1'), 'orphan')
  t.equal(mp.size, 0, 'nothing pending: orphans are neither listed nor relayed')
  t.ok(mp.holds(txs[2]?.transaction_id as string))
  const admitted: number[] = []
  tc.hooks.txAdmitted.tap('test', (tx) => { admitted.push(tx.nonce) })
  t.equal(mp.offer(txs[0] as Transaction, 'p3'), 'admitted')
  t.same(admitted, [0, 1, 2, 3], 'the gap closed: the orphans followed in nonce order')
  t.equal(mp.size, 4)
  t.equal(mp.orphans.size, 0)
  t.equal(mp.nextNonce(alice.address), 4)
})

t.test('a client\'s nonce gap is still refused (only peers\' transactions are held)', async (t) => {
  const { tc, alice, bob } = await funded(t)
  const mp = pool(tc)
  const err = refusal(() => mp.add(send(tc, alice, bob.address, 2)))
  t.equal(err.code, TxErrorCode.BAD_NONCE)
  t.equal(mp.orphans.size, 0)
})

t.test('a forged orphan is refused as invalid and not held', async (t) => {
  const { tc, alice, bob } = await funded(t)
  const mp = pool(tc)
  const forged = { ...send(tc, alice, bob.address, 5), signature: send(tc, bob, alice.address, 5).signature }
  const err = refusal(() => mp.offer(forged, 'p1'))
  t.equal(err.code, TxErrorCode.BAD_SIGNATURE)
  t.equal(refusalClassOf(err), 'invalid')
  t.equal(mp.orphans.size, 0)
})

t.test('a nonce already used is policy; an orphan too far ahead is the sender cap', async (t) => {
  const { tc, alice, bob } = await funded(t)
  const mp = pool(tc)
  mp.add(send(tc, alice, bob.address, 0))
  const used = refusal(() => mp.offer(send(tc, alice, bob.address, 0, 2), 'p1'))
  t.equal(used.code, TxErrorCode.BAD_NONCE)
  t.equal(refusalClassOf(used), 'policy', 'a relay that crossed our news is not at fault')
  const far = refusal(() => mp.offer(send(tc, alice, bob.address, 1 + 64), 'p1'))
  t.equal(far.code, TxErrorCode.SENDER_LIMIT)
  t.equal(mp.orphans.size, 0)
})

t.test('a block confirming the predecessor lets the orphans in; those it passed are dropped', async (t) => {
  const { tc, alice, bob } = await funded(t)
  const mp = tc.mempool // the kernel's wiring: revalidated as the tip moves (on the wall clock)
  const txs = [0, 1, 2].map((n) => send(tc, alice, bob.address, n, 1, Date.now() / 1000))
  t.equal(mp.offer(txs[1] as Transaction, 'p1'), 'orphan')
  t.equal(mp.offer(txs[2] as Transaction, 'p1'), 'orphan')
  // a block with nonces 0 and 1 (another node's): 1's orphan is used, 2's gap closes
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: [txs[0] as Transaction, txs[1] as Transaction] }), 'test')
  t.ok(mp.has(txs[2]?.transaction_id as string), 'nonce 2 admitted after the block')
  t.equal(mp.orphans.size, 0, 'nonce 1 (confirmed) is not held any more')
})

t.test('orphans expire', async (t) => {
  const { tc, alice, bob } = await funded(t)
  const clock = { now: NOW }
  const mp = pool(tc, new OrphanPool({ now: () => clock.now, limits: { ttlSeconds: 60 } }))
  const txs = [0, 1].map((n) => send(tc, alice, bob.address, n))
  mp.offer(txs[1] as Transaction, 'p1')
  clock.now += 61
  mp.revalidate([], [])
  t.equal(mp.orphans.size, 0)
  mp.add(txs[0] as Transaction)
  t.notOk(mp.has(txs[1]?.transaction_id as string), 'the expired orphan is not admitted behind its predecessor')
})
