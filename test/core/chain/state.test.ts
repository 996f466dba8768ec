// The state overlay: reads through to the database, nested snapshots, and undo records that
// restore exactly the prior database values.
import t from 'tap'
import { StateOverlay, undoOps, stateKey } from '../../../core/chain/state.ts'
import type { KvOp, KvRange, KvStore } from '../../../core/kernel/kv.ts'

/** An in-memory KvStore: enough for the overlay, which only reads synchronously and writes batches. */
class MemoryStore implements KvStore {
  readonly map = new Map<string, Buffer>()
  getSync (key: string): Buffer | undefined { return this.map.get(key) }
  getManySync (keys: string[]): Array<Buffer | undefined> { return keys.map((k) => this.map.get(k)) }
  async get (key: string): Promise<Buffer | undefined> { return this.map.get(key) }
  async getMany (keys: string[]): Promise<Array<Buffer | undefined>> { return keys.map((k) => this.map.get(k)) }
  async write (ops: KvOp[]): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') this.map.set(op.key, Buffer.from(op.value ?? new Uint8Array(0)))
      else this.map.delete(op.key)
    }
  }

  async * entries (_range: KvRange): AsyncIterable<[string, Buffer]> { yield * this.map.entries() }
  async * keys (_range: KvRange): AsyncIterable<string> { yield * this.map.keys() }
  async close (): Promise<void> {}
}

const text = (b: Uint8Array | undefined): string | undefined => b === undefined ? undefined : Buffer.from(b).toString()
const snapshotOf = (db: MemoryStore): Record<string, string> => Object.fromEntries([...db.map].map(([k, v]) => [k, v.toString('hex')]))

t.test('reads go through, writes stay in the overlay until committed', async (t) => {
  const db = new MemoryStore()
  await db.write([{ type: 'put', key: 'a', value: Buffer.from('1') }])
  const o = new StateOverlay(db)
  t.equal(text(o.get('a')), '1')
  o.put('a', Buffer.from('2'))
  o.del('b')
  t.equal(text(o.get('a')), '2')
  t.equal(text(db.getSync('a')), '1', 'database untouched')
  t.equal(o.size, 2)
})

t.test('nested snapshots revert in order', async (t) => {
  const o = new StateOverlay(new MemoryStore())
  o.put('k', Buffer.from('v1'))
  const outer = o.snapshot()
  o.put('k', Buffer.from('v2'))
  const inner = o.snapshot()
  o.del('k')
  o.put('other', Buffer.from('x'))
  t.equal(o.get('k'), undefined)
  o.revert(inner)
  t.equal(text(o.get('k')), 'v2')
  t.equal(o.get('other'), undefined)
  o.revert(outer)
  t.equal(text(o.get('k')), 'v1')
  o.revert(0)
  t.equal(o.get('k'), undefined)
  t.equal(o.size, 0)
})

t.test('commit ops carry an undo record that restores the prior database exactly', async (t) => {
  const db = new MemoryStore()
  await db.write([
    { type: 'put', key: 'keep', value: Buffer.from('same') },
    { type: 'put', key: 'change', value: Buffer.from('old') },
    { type: 'put', key: 'remove', value: Buffer.from('gone soon') }
  ])
  const before = snapshotOf(db)
  const o = new StateOverlay(db)
  o.put('change', Buffer.from('new'))
  o.del('remove')
  o.put('created', Buffer.from('fresh'))
  o.del('never-existed')
  o.credit('acct1', 5n)
  o.credit('acct1', 7n)
  o.putBigint(stateKey.supply(), 12n)
  const { ops, undo } = o.commitOps()
  await db.write(ops)
  t.equal(text(db.getSync('change')), 'new')
  t.equal(db.getSync('remove'), undefined)
  t.same(new StateOverlay(db).getAccount('acct1'), { balance: 12n, nonce: 0, publicKey: null })
  t.equal(new StateOverlay(db).getBigint(stateKey.supply()), 12n)
  await db.write(undoOps(undo))
  t.same(snapshotOf(db), before)
})

t.test('accounts round-trip with and without a key; zero credits write nothing', async (t) => {
  const o = new StateOverlay(new MemoryStore())
  t.same(o.getAccount('x'), { balance: 0n, nonce: 0, publicKey: null })
  o.putAccount('x', { balance: 10n ** 30n, nonce: 3, publicKey: 'abcd' })
  t.same(o.getAccount('x'), { balance: 10n ** 30n, nonce: 3, publicKey: 'abcd' }, 'balances beyond 2^64 survive')
  o.credit('y', 0n)
  t.equal(o.get(stateKey.account('y')), undefined)
})

t.test('prefetch reads a block\'s keys in one multi-get; reads, reverts and the undo record agree with the database', async (t) => {
  const db = new MemoryStore()
  await db.write([{ type: 'put', key: 'a', value: Buffer.from('1') }, { type: 'put', key: 'b', value: Buffer.from('2') }])
  let single = 0
  let many = 0
  const getSync = db.getSync.bind(db)
  const getManySync = db.getManySync.bind(db)
  db.getSync = (key) => { single++; return getSync(key) }
  db.getManySync = (keys) => { many++; return getManySync(keys) }
  const o = new StateOverlay(db)
  o.prefetch(['a', 'b', 'missing', 'a'])
  t.equal(many, 1, 'one multi-get')
  t.equal(text(o.get('a')), '1')
  t.equal(o.get('missing'), undefined)
  t.equal(single, 0, 'prefetched keys are not read again')
  const snap = o.snapshot()
  o.put('a', Buffer.from('9'))
  t.equal(text(o.get('a')), '9')
  o.revert(snap)
  t.equal(text(o.get('a')), '1', 'a reverted write falls back to the prefetched value')
  o.put('b', Buffer.from('3'))
  o.put('c', Buffer.from('4'))
  const before = snapshotOf(db)
  const { ops, undo } = o.commitOps()
  t.same(undo, [['b', Buffer.from('2').toString('hex')], ['c', null]], 'priors from the prefetch and the database alike')
  await db.write(ops)
  await db.write(undoOps(undo))
  t.same(snapshotOf(db), before, 'the undo record restores the database')
})

t.test('an account keeps its public key under pk:, written once; a record holding public_key is still read and moved', async (t) => {
  const db = new MemoryStore()
  const key = Buffer.alloc(2592, 7)
  const o = new StateOverlay(db)
  o.putAccount('aa', { balance: 5n, nonce: 1, publicKey: key.toString('hex') })
  await db.write(o.commitOps().ops)
  t.same(JSON.parse(db.map.get(stateKey.account('aa'))!.toString()), { balance: '5', nonce: 1 }, 'balance and nonce only')
  t.same(db.map.get(stateKey.publicKey('aa')), key, 'the key as its bytes')
  const o2 = new StateOverlay(db)
  t.same(o2.getAccount('aa'), { balance: 5n, nonce: 1, publicKey: key.toString('hex') })
  o2.credit('aa', 1n)
  t.equal(o2.commitOps().ops.length, 1, 'a credit rewrites the account record only')

  // a record from before the split
  await db.write([{ type: 'put', key: stateKey.account('bb'), value: Buffer.from(JSON.stringify({ balance: '9', nonce: 2, public_key: key.toString('hex') })) }])
  const o3 = new StateOverlay(db)
  t.same(o3.getAccount('bb'), { balance: 9n, nonce: 2, publicKey: key.toString('hex') })
  t.same(o3.getPublicKey('bb'), key)
  o3.putAccountCore('bb', { balance: 8n, nonce: 3 })
  const { ops, undo } = o3.commitOps()
  await db.write(ops)
  t.same(db.map.get(stateKey.publicKey('bb')), key, 'moved to pk: when rewritten')
  t.same(new StateOverlay(db).getAccount('bb'), { balance: 8n, nonce: 3, publicKey: key.toString('hex') })
  await db.write(undoOps(undo))
  t.equal(db.map.get(stateKey.publicKey('bb')), undefined, 'undo restores the record as it was')
  t.same(new StateOverlay(db).getAccount('bb'), { balance: 9n, nonce: 2, publicKey: key.toString('hex') })
})
