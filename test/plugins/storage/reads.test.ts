// The chain store's reads: one key, many keys on the calling thread and many keys off it give
// the same values, in the order asked, absent keys as undefined.
import t from 'tap'
import path from 'node:path'
import { RocksStore } from '../../../plugins/storage/rocks-store.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'

t.test('get, getManySync and getMany agree, in order, absent keys undefined', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const db = await RocksStore.open(path.join(dir, 'chain'))
  t.teardown(() => db.close())
  await db.write([
    { type: 'put', key: 'acct:a', value: Buffer.from('1') },
    { type: 'put', key: 'acct:b', value: Buffer.alloc(0) },
    { type: 'put', key: 'pk:a', value: Buffer.alloc(2592, 7) }
  ])
  const keys = ['pk:a', 'missing', 'acct:b', 'acct:a', 'acct:a']
  const many = await db.getMany(keys)
  t.same(many.map((v) => v?.toString('hex')), db.getManySync(keys).map((v) => v?.toString('hex')))
  t.same(many.map((v) => v?.length), [2592, undefined, 0, 1, 1])
  t.equal((await db.get('acct:a'))?.toString(), '1')
  t.same(await db.getMany([]), [])
})
