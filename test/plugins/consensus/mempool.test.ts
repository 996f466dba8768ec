// Every mempool refusal with its code and reason, eviction, selection order, revalidation.
import t from 'tap'
import type { Test } from 'tap'
import { openTestChain, mineBlock, transfer, devWallet, generateWallet, cleanup } from '../../helpers/chain.ts'
import type { TestChain } from '../../helpers/chain.ts'
import { Mempool } from '../../../plugins/consensus/mempool.ts'
import type { MempoolOptions } from '../../../plugins/consensus/mempool.ts'
import { TxError, TxErrorCode } from '../../../core/chain/errors.ts'
import type { TxErrorCode as TxCode } from '../../../core/chain/errors.ts'
import type { Transaction } from '../../../core/chain/types.ts'
import { signTransaction } from '../../../core/chain/tx.ts'
import type { UnsignedTx } from '../../../core/chain/tx.ts'
import { coinToBohm } from '../../../core/chain/money.ts'
import type { Wallet } from '../../../core/chain/wallet.ts'
import { inBlockBytes, txSize } from '../../../core/chain/block-size.ts'

const dev = devWallet()
const NOW = 1_800_000_000
const HOUR = 3600

interface Fixture { tc: TestChain; alice: Wallet; carol: Wallet; dave: Wallet; funding: Transaction[] }

/** A chain whose block 1 funds alice (10), carol and dave (100 each); their keys are not yet on chain. */
async function fixture (t: Test): Promise<Fixture> {
  const tc = await openTestChain()
  t.teardown(async () => { await tc.close(); cleanup(tc.dir) })
  const [alice, carol, dave] = [generateWallet(), generateWallet(), generateWallet()]
  const funding = [transfer(tc.params, dev, alice.address, 10, 0), transfer(tc.params, dev, carol.address, 100, 1), transfer(tc.params, dev, dave.address, 100, 2)]
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: funding }), 'test')
  return { tc, alice, carol, dave, funding }
}

function pool (tc: TestChain, opts: Partial<MempoolOptions> = {}): Mempool {
  return new Mempool({ chain: tc.chain, params: tc.params, hooks: tc.hooks, contractsEnabled: false, now: () => NOW, ...opts })
}

function refused (t: Test, mp: Mempool, tx: unknown, code: TxCode, reason: RegExp): void {
  const size = mp.size
  try {
    mp.add(tx as Transaction)
    t.fail(`expected ${code} (${reason.source})`)
  } catch (err) {
    if (!(err instanceof TxError)) { t.fail(`expected ${code}, got ${String(err)}`); return }
    t.equal(err.code, code, `${code}: ${reason.source}`)
    t.match(err.message, reason)
  }
  t.equal(mp.size, size, 'nothing admitted')
}

type TxOpts = Parameters<typeof transfer>[5]
// Carries the sender's key unless told not to: the pool checks against the chain's record,
// which a sender's still-pending first transaction has not written yet.
const send = (tc: TestChain, from: Wallet, to: string, amount: number, nonce: number, opts: TxOpts = {}): Transaction =>
  transfer(tc.params, from, to, amount, nonce, { timestamp: NOW, withKey: true, ...opts })

function contractTx (tc: TestChain, from: Wallet, nonce: number, fee: number, data: Record<string, unknown>): Transaction {
  const u: UnsignedTx = { sender: from.address, recipient: 'contract', amount: 0, fee, timestamp: NOW, nonce, data: { ...data, public_key: Buffer.from(from.publicKey).toString('hex') } }
  return signTransaction(tc.params.chainId, u, from.seed)
}

t.test('BAD_FORMAT, each shape rule with its reason', async (t) => {
  const { tc, carol, dave } = await fixture(t)
  const mp = pool(tc)
  const base = send(tc, carol, dave.address, 1, 0)
  const variants: Array<[unknown, RegExp]> = [
    [null, /transaction must be an object/],
    [{ ...base, sender: 5 }, /sender and recipient must be strings/],
    [{ ...base, recipient: undefined }, /sender and recipient must be strings/],
    [{ ...base, sender: carol.vmAddress }, /sender must be a 32-hex wallet address/],
    [{ ...base, sender: carol.address.toUpperCase() }, /sender must be a 32-hex wallet address/],
    [{ ...base, recipient: 'nobody' }, /recipient must be a 32-hex or 40-hex address or "contract"/],
    [{ ...base, timestamp: 0 }, /timestamp must be a positive number/],
    [{ ...base, timestamp: '1' }, /timestamp must be a positive number/],
    [{ ...base, nonce: -1 }, /nonce must be a non-negative integer/],
    [{ ...base, nonce: 0.5 }, /nonce must be a non-negative integer/],
    [{ ...base, transaction_id: base.transaction_id.slice(1) }, /transaction_id must be 64 hex chars/],
    [{ ...base, signature: '' }, /signature must be hex/],
    [{ ...base, signature: 'xyz' }, /signature must be hex/],
    [{ ...base, data: null }, /data must be an object/],
    [{ ...base, data: [] }, /data must be an object/],
    [{ ...base, data: { memo: 'a'.repeat(256 * 1024) } }, /data larger than 262144 bytes/],
    [{ ...base, amount: -1 }, /amount and fee: amount must be a non-negative finite number/],
    [{ ...base, amount: '1' }, /amount and fee/],
    [{ ...base, fee: 1e-19 }, /amount and fee: amount has more than 18 decimals/],
    [{ ...base, data: { memo: '' } }, /data.memo must be 1-512 chars/],
    [{ ...base, data: { memo: 'x'.repeat(513) } }, /data.memo must be 1-512 chars/],
    [{ ...base, data: { memo: 7 } }, /data.memo must be 1-512 chars/],
    [{ ...base, data: { public_key: 'xyz' } }, /data.public_key must be hex/],
    [{ ...base, recipient: 'contract', data: {} }, /needs data.type "deploy" or "call"/],
    [{ ...base, recipient: 'contract', data: { type: 'deploy', code: '00', gas_limit: 0 } }, /data.gas_limit must be an integer 1..10000000/],
    [{ ...base, recipient: 'contract', data: { type: 'deploy', code: '00', gas_limit: 30_000_001 } }, /data.gas_limit/],
    [{ ...base, recipient: 'contract', data: { type: 'deploy', code: '00', gas_limit: 1.5 } }, /data.gas_limit/],
    [{ ...base, recipient: 'contract', data: { type: 'deploy', code: 'abc', gas_limit: 100 } }, /data.code must be hex bytecode/],
    [{ ...base, recipient: 'contract', data: { type: 'deploy', code: 'zz', gas_limit: 100 } }, /data.code must be hex bytecode/],
    [{ ...base, recipient: 'contract', data: { type: 'call', to: carol.address, gas_limit: 100 } }, /data.to must be a 40-hex contract address/],
    [{ ...base, recipient: 'contract', data: { type: 'call', to: carol.vmAddress, calldata: 'abc', gas_limit: 100 } }, /data.calldata must be hex/]
  ]
  for (const [tx, reason] of variants) refused(t, mp, tx, TxErrorCode.BAD_FORMAT, reason)
  // A well-formed, well-paid contract transaction on a node without a VM.
  refused(t, mp, contractTx(tc, carol, 0, 0.001, { type: 'deploy', code: '6000', gas_limit: 1_000_000 }), TxErrorCode.BAD_FORMAT, /this node runs no contract VM/)
  t.equal(mp.add(base), base, 'the unmodified transaction is admitted')
})

t.test('BAD_ID, BAD_SIGNATURE, UNKNOWN_KEY, KEY_MISMATCH', async (t) => {
  const { tc, alice, carol, dave } = await fixture(t)
  const mp = pool(tc)
  const tx = send(tc, carol, dave.address, 1, 0)
  refused(t, mp, { ...tx, amount: 2 }, TxErrorCode.BAD_ID, /transaction_id does not match the signed payload/)
  refused(t, mp, { ...tx, signature: send(tc, carol, dave.address, 2, 0).signature }, TxErrorCode.BAD_SIGNATURE, /ML-DSA-87 signature does not verify/)
  refused(t, mp, send(tc, alice, dave.address, 1, 0, { withKey: false }), TxErrorCode.UNKNOWN_KEY, /sender public key unknown to the chain: include data.public_key/)
  const mismatch = signTransaction(tc.params.chainId, { sender: alice.address, recipient: dave.address, amount: 1, fee: 0.001, timestamp: NOW, nonce: 0, data: { public_key: Buffer.from(carol.publicKey).toString('hex') } }, alice.seed)
  refused(t, mp, mismatch, TxErrorCode.KEY_MISMATCH, /data.public_key does not hash to the sender address/)
  // The key a sender once revealed is the chain's from then on: later transactions need not carry it.
  mp.add(tx)
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: mp.select(10) }), 'test')
  mp.revalidate([tx.transaction_id], [])
  t.equal(tc.chain.getAccount(carol.address).publicKey, Buffer.from(carol.publicKey).toString('hex'), 'key recorded on chain')
  t.ok(mp.add(send(tc, carol, dave.address, 1, 1, { withKey: false })), 'no key needed once recorded')
  const forged = signTransaction(tc.params.chainId, { sender: carol.address, recipient: dave.address, amount: 1, fee: 0.001, timestamp: NOW, nonce: 2, data: {} }, dave.seed)
  refused(t, mp, forged, TxErrorCode.BAD_SIGNATURE, /does not verify/)
})

t.test('a key revealed by a pending predecessor covers the sender\'s next transactions, in the pool and in one block', async (t) => {
  const { tc, alice, dave } = await fixture(t)
  const mp = pool(tc)
  const first = send(tc, alice, dave.address, 1, 0)
  mp.add(first)
  const second = send(tc, alice, dave.address, 1, 1, { withKey: false })
  t.equal(mp.add(second), second, 'admitted on the strength of the pending key')
  const forged = signTransaction(tc.params.chainId, { sender: alice.address, recipient: dave.address, amount: 1, fee: 0.001, timestamp: NOW, nonce: 2, data: {} }, dave.seed)
  refused(t, mp, forged, TxErrorCode.BAD_SIGNATURE, /does not verify/)
  const r = await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: mp.select(10) }), 'test')
  t.equal(r.status, 'connected', 'both in one block')
  t.equal(tc.chain.getAccount(alice.address).nonce, 2)
})

t.test('BAD_NONCE: gap and reuse, pending-aware', async (t) => {
  const { tc, carol, dave } = await fixture(t)
  const mp = pool(tc)
  refused(t, mp, send(tc, carol, dave.address, 1, 1), TxErrorCode.BAD_NONCE, /nonce 1 but the sender's next nonce is 0/)
  refused(t, mp, send(tc, dev, dave.address, 1, 2, { withKey: true }), TxErrorCode.BAD_NONCE, /nonce 2 but the sender's next nonce is 3/)
  refused(t, mp, send(tc, dev, dave.address, 1, 0), TxErrorCode.BAD_NONCE, /nonce 0 but the sender's next nonce is 3/)
  mp.add(send(tc, carol, dave.address, 1, 0))
  t.equal(mp.nextNonce(carol.address), 1)
  refused(t, mp, send(tc, carol, dave.address, 2, 0), TxErrorCode.BAD_NONCE, /nonce 0 but the sender's next nonce is 1/)
  refused(t, mp, send(tc, carol, dave.address, 2, 2), TxErrorCode.BAD_NONCE, /nonce 2 but the sender's next nonce is 1/)
  t.ok(mp.add(send(tc, carol, dave.address, 2, 1)))
})

t.test('INSUFFICIENT_BALANCE counts the sender\'s pending spends', async (t) => {
  const { tc, alice, dave } = await fixture(t)
  const mp = pool(tc)
  refused(t, mp, send(tc, alice, dave.address, 10, 0), TxErrorCode.INSUFFICIENT_BALANCE, /balance does not cover amount \+ fee/)
  mp.add(send(tc, alice, dave.address, 6, 0))
  t.equal(mp.pendingSpend(alice.address), coinToBohm(6.001))
  refused(t, mp, send(tc, alice, dave.address, 4, 1), TxErrorCode.INSUFFICIENT_BALANCE, /plus the sender's pending transactions/)
  t.ok(mp.add(send(tc, alice, dave.address, 3.998, 1)), 'exactly the balance: 6.001 + 3.998 + 0.001 = 10')
  refused(t, mp, send(tc, alice, dave.address, 0, 2, { fee: 0.0001 }), TxErrorCode.INSUFFICIENT_BALANCE, /pending/)
})

t.test('FEE_TOO_LOW and INSUFFICIENT_FEE (gas_limit x 10^9 bohm)', async (t) => {
  const { tc, carol, dave } = await fixture(t)
  const mp = pool(tc, { contractsEnabled: true })
  refused(t, mp, send(tc, carol, dave.address, 1, 0, { fee: 0.00009 }), TxErrorCode.FEE_TOO_LOW, /fee below the minimum of 0.0001/)
  refused(t, mp, send(tc, carol, dave.address, 1, 0, { fee: 0 }), TxErrorCode.FEE_TOO_LOW, /minimum/)
  // 1,000,000 gas x 10^9 bohm = 10^15 bohm = 0.001 coin
  refused(t, mp, contractTx(tc, carol, 0, 0.000999999999999999, { type: 'deploy', code: '6000', gas_limit: 1_000_000 }), TxErrorCode.INSUFFICIENT_FEE,
    /InsufficientFee: fee does not cover gas_limit x GAS_PRICE \(1000000 gas\)/)
  refused(t, mp, contractTx(tc, carol, 0, 0.0019, { type: 'call', to: dave.vmAddress, calldata: '', gas_limit: 2_000_000 }), TxErrorCode.INSUFFICIENT_FEE, /2000000 gas/)
  t.ok(mp.add(contractTx(tc, carol, 0, 0.001, { type: 'deploy', code: '6000', gas_limit: 1_000_000 })), 'fee exactly covering the gas is admitted')
  t.ok(mp.add(send(tc, dave, carol.address, 1, 0, { fee: 0.0001 })), 'fee exactly the minimum is admitted')
})

t.test('DUPLICATE, ALREADY_CONFIRMED, RESERVED_SENDER', async (t) => {
  const { tc, carol, dave, funding } = await fixture(t)
  const mp = pool(tc)
  const tx = send(tc, carol, dave.address, 1, 0)
  mp.add(tx)
  refused(t, mp, tx, TxErrorCode.DUPLICATE, /duplicate transaction id: already in the mempool/)
  refused(t, mp, funding[0], TxErrorCode.ALREADY_CONFIRMED, /transaction already confirmed/)
  for (const sender of ['mining_reward', 'genesis']) {
    refused(t, mp, { ...send(tc, carol, dave.address, 1, 1), sender }, TxErrorCode.RESERVED_SENDER, new RegExp(`sender '${sender}' is reserved for system transactions`))
  }
})

t.test('EXPIRED and FUTURE_TIMESTAMP, boundaries admitted', async (t) => {
  const { tc, carol, dave } = await fixture(t)
  const mp = pool(tc, { ttlSeconds: 72 * HOUR, maxFutureSeconds: 2 * HOUR })
  refused(t, mp, send(tc, carol, dave.address, 1, 0, { timestamp: NOW - 72 * HOUR - 1 }), TxErrorCode.EXPIRED, /older than 72 hours/)
  refused(t, mp, send(tc, carol, dave.address, 1, 0, { timestamp: NOW + 2 * HOUR + 1 }), TxErrorCode.FUTURE_TIMESTAMP, /too far in the future/)
  t.ok(mp.add(send(tc, carol, dave.address, 1, 0, { timestamp: NOW - 72 * HOUR })))
  t.ok(mp.add(send(tc, carol, dave.address, 1, 1, { timestamp: NOW + 2 * HOUR })))
  t.equal(new Mempool({ chain: tc.chain, params: tc.params, hooks: tc.hooks, contractsEnabled: false }).capacity, 5000, 'default capacity 5,000')
})

t.test('SENDER_LIMIT', async (t) => {
  const { tc, carol, dave } = await fixture(t)
  const mp = pool(tc, { perSenderLimit: 2 })
  mp.add(send(tc, carol, dave.address, 1, 0))
  mp.add(send(tc, carol, dave.address, 1, 1))
  refused(t, mp, send(tc, carol, dave.address, 1, 2), TxErrorCode.SENDER_LIMIT, /sender already has 2 pending transactions/)
  t.ok(mp.add(send(tc, dave, carol.address, 1, 0)), 'other senders unaffected')
})

t.test('MEMPOOL_FULL and lowest-fee-per-byte eviction under the count cap', async (t) => {
  const { tc, carol, dave, alice } = await fixture(t)
  const mp = pool(tc, { capacity: 2 })
  const removed: Array<{ id: string; reason: string }> = []
  tc.hooks.txRemoved.tap('test', ({ tx, reason }) => { removed.push({ id: tx.transaction_id, reason }) })
  const cheap = send(tc, carol, dave.address, 1, 0, { fee: 0.001 })
  const dear = send(tc, dave, carol.address, 1, 0, { fee: 0.005 })
  mp.add(cheap)
  mp.add(dear)
  refused(t, mp, send(tc, alice, dave.address, 1, 0, { fee: 0.001 }), TxErrorCode.MEMPOOL_FULL, /mempool full \(2 transactions\)/)
  refused(t, mp, send(tc, alice, dave.address, 1, 0, { fee: 0.0005 }), TxErrorCode.MEMPOOL_FULL, /mempool full/)
  const better = send(tc, alice, dave.address, 1, 0, { fee: 0.002 })
  mp.add(better)
  t.equal(mp.size, 2)
  t.notOk(mp.has(cheap.transaction_id), 'the lowest fee was evicted')
  t.ok(mp.has(dear.transaction_id) && mp.has(better.transaction_id))
  t.same(removed, [{ id: cheap.transaction_id, reason: 'evicted' }])
  t.equal(mp.pendingSpend(carol.address), 0n, 'the evicted sender has nothing pending')
  t.equal(mp.nextNonce(carol.address), 0)
})

t.test('eviction never takes a sender\'s own predecessor (which would orphan the new transaction)', async (t) => {
  const { tc, carol, dave } = await fixture(t)
  const mp = pool(tc, { capacity: 2 })
  const c0 = send(tc, carol, dave.address, 1, 0, { fee: 0.0001 })
  const d0 = send(tc, dave, carol.address, 1, 0, { fee: 0.01 })
  mp.add(c0)
  mp.add(d0)
  const c1 = send(tc, carol, dave.address, 1, 1, { fee: 0.02 })
  mp.add(c1)
  t.equal(mp.size, 2)
  t.ok(mp.has(c0.transaction_id), 'carol\'s nonce 0 stays: her nonce 1 depends on it')
  t.ok(mp.has(c1.transaction_id))
  t.notOk(mp.has(d0.transaction_id), 'the cheapest other tail was evicted')
  t.same(mp.select(10).map((x) => x.nonce), [0, 1], 'carol\'s chain is selectable in order')
  t.equal(mp.pendingSpend(carol.address), coinToBohm(2.0201))
  t.equal(mp.nextNonce(carol.address), 2)
  // with only her own transactions left to evict, the pool is simply full
  const c2 = send(tc, carol, dave.address, 1, 2, { fee: 0.05 })
  refused(t, mp, c2, TxErrorCode.MEMPOOL_FULL, /mempool full/)
})

t.test('selection: fee desc, then timestamp asc, each sender in nonce order', async (t) => {
  const { tc, alice, carol, dave } = await fixture(t)
  const mp = pool(tc)
  const c0 = send(tc, carol, dave.address, 1, 0, { fee: 0.001 })
  const c1 = send(tc, carol, dave.address, 1, 1, { fee: 0.01 })
  const dLate = send(tc, dave, carol.address, 1, 0, { fee: 0.005, timestamp: NOW + 10 })
  const aEarly = send(tc, alice, carol.address, 1, 0, { fee: 0.005, timestamp: NOW - 10 })
  for (const tx of [c0, c1, dLate, aEarly]) mp.add(tx)
  const ids = (txs: Transaction[]): string[] => txs.map((x) => x.transaction_id)
  t.same(ids(mp.select(10)), ids([aEarly, dLate, c0, c1]), 'carol\'s high-fee nonce 1 waits for her nonce 0')
  t.same(ids(mp.select(2)), ids([aEarly, dLate]), 'max respected')
  t.same(ids(mp.select(0)), [])
  t.same(ids(mp.list()), ids([c1, aEarly, dLate, c0]), 'list: fee desc then timestamp asc')
  // the selection makes a valid block
  const r = await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: mp.select(10) }), 'test')
  t.equal(r.status, 'connected')
})

t.test('revalidation after a block: confirmed out, conflicting out, expired out, the rest kept', async (t) => {
  const { tc, carol, dave, alice } = await fixture(t)
  let now = NOW
  const mp = pool(tc, { now: () => now, ttlSeconds: 10 * HOUR })
  const removed: Array<{ id: string; reason: string }> = []
  tc.hooks.txRemoved.tap('test', ({ tx, reason }) => { removed.push({ id: tx.transaction_id, reason }) })
  const c0 = send(tc, carol, dave.address, 1, 0)
  const c1 = send(tc, carol, dave.address, 1, 1)
  const d0 = send(tc, dave, carol.address, 1, 0)
  const old = send(tc, alice, carol.address, 1, 0, { timestamp: NOW - 9 * HOUR })
  for (const tx of [c0, c1, d0, old]) mp.add(tx)
  // another node's block: confirms c0 and a different dave nonce-0 transaction
  const d0other = send(tc, dave, alice.address, 2, 0)
  const block = mineBlock(tc.params, tc.tipRef(), { txs: [c0, d0other] })
  await tc.chain.processBlock(block, 'test')
  now = NOW + 2 * HOUR
  mp.revalidate(block.transactions.map((x) => x.transaction_id), [])
  t.same(removed, [
    { id: c0.transaction_id, reason: 'confirmed' },
    { id: d0.transaction_id, reason: 'invalidated' },
    { id: old.transaction_id, reason: 'expired' }
  ])
  t.same(mp.list().map((x) => x.transaction_id), [c1.transaction_id])
  t.equal(mp.nextNonce(carol.address), 2)
  t.equal(mp.nextNonce(dave.address), 1)
})

t.test('the node\'s own pool is kept in step by the chain hooks', async (t) => {
  const { tc, carol, dave } = await fixture(t)
  const tx = transfer(tc.params, carol, dave.address, 1, 0)
  tc.mempool.add(tx)
  t.ok(tc.mempool.isVerified(tx))
  t.notOk(tc.mempool.isVerified({ ...tx, signature: tx.signature.replace(/^../, '00') }), 'vouches only for the exact signature it checked')
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: tc.mempool.select(100) }), 'test')
  t.equal(tc.mempool.size, 0)
  t.equal(tc.chain.getAccount(carol.address).nonce, 1)
})

t.test('byte budget: MEMPOOL_FULL and lowest-fee-per-byte eviction', async (t) => {
  const { tc, carol, dave, alice } = await fixture(t)
  const removed: string[] = []
  tc.hooks.txRemoved.tap('test', ({ tx, reason }) => { if (reason === 'evicted') removed.push(tx.transaction_id) })
  // equal fees, but the memo makes one larger: it pays less per byte
  const small = send(tc, carol, dave.address, 1, 0, { fee: 0.002 })
  const large = send(tc, dave, carol.address, 1, 0, { fee: 0.002, data: { memo: 'x'.repeat(500) } })
  const mp = pool(tc, { maxBytes: txSize(small) + txSize(large) })
  mp.add(small)
  mp.add(large)
  t.equal(mp.bytes, txSize(small) + txSize(large), 'the pool counts the bytes it holds')
  refused(t, mp, send(tc, alice, dave.address, 1, 0, { fee: 0.001 }), TxErrorCode.MEMPOOL_FULL,
    /mempool byte budget full \(\d+ bytes\) and the fee per byte does not beat the lowest pending/)
  const better = send(tc, alice, dave.address, 1, 0, { fee: 0.0021 })
  mp.add(better)
  t.same(removed, [large.transaction_id], 'the lowest fee per byte was evicted, not the lowest fee')
  t.ok(mp.has(small.transaction_id) && mp.has(better.transaction_id))
  t.ok(mp.bytes <= mp.maxBytes, 'within the budget')
  t.equal(mp.bytes, txSize(small) + txSize(better))
  // one transaction larger than the whole budget is never admitted, whatever it pays
  const tiny = pool(tc, { maxBytes: txSize(small) - 100 })
  refused(t, tiny, send(tc, carol, dave.address, 1, 0, { fee: 1 }), TxErrorCode.MEMPOOL_FULL, /exceeds the mempool's \d+-byte budget/)
})

t.test('selection within a byte and gas budget keeps each sender\'s nonces gap-free', async (t) => {
  const { tc, alice, carol, dave } = await fixture(t)
  const mp = pool(tc)
  const a0 = send(tc, alice, carol.address, 1, 0, { fee: 0.009 })
  const c0 = send(tc, carol, dave.address, 1, 0, { fee: 0.008, data: { memo: 'y'.repeat(400) } })
  const c1 = send(tc, carol, dave.address, 1, 1, { fee: 0.007 })
  const d0 = send(tc, dave, carol.address, 1, 0, { fee: 0.001 })
  for (const tx of [a0, c0, c1, d0]) mp.add(tx)
  const slot = (tx: Transaction): number => inBlockBytes(txSize(tx))
  const ids = (txs: Transaction[]): string[] => txs.map((x) => x.transaction_id)
  const unbounded = { bytes: Number.MAX_SAFE_INTEGER, gas: Number.MAX_SAFE_INTEGER }
  t.same(ids(mp.select(10, unbounded)), ids([a0, c0, c1, d0]))
  // room for a0 and d0 but not for c0: carol's c1 must wait for it, dave's d0 still fits
  t.ok(slot(c0) > slot(d0) + 100, 'the memo makes c0 the larger')
  t.same(ids(mp.select(10, { bytes: slot(a0) + slot(d0) + 100, gas: 0 })), ids([a0, d0]))
  t.same(ids(mp.select(10, { bytes: slot(a0) - 1, gas: 0 })), [], 'nothing fits')
})

t.test('a transaction a reorg returned that no longer fits the new branch is reported removed (invalidated), not lost', async (t) => {
  const { tc, carol, dave } = await fixture(t)
  const mp = pool(tc)
  // carol's nonce 0 is spent on the winning branch by one transaction ...
  const winner = send(tc, carol, dave.address, 1, 0)
  await tc.chain.processBlock(mineBlock(tc.params, tc.tipRef(), { txs: [winner] }), 'test')
  // ... and the losing branch had confirmed another with the same nonce, which the reorg returns
  const orphan = send(tc, carol, dave.address, 2, 0)
  const removed: Array<{ id: string; reason: string }> = []
  tc.hooks.txRemoved.tap('test', ({ tx, reason }) => { removed.push({ id: tx.transaction_id, reason }) })
  mp.revalidate([winner.transaction_id], [orphan])
  t.notOk(mp.has(orphan.transaction_id), 'the orphan is not pending')
  t.same(removed, [{ id: orphan.transaction_id, reason: 'invalidated' }], 'its sender is told it was dropped')
})
