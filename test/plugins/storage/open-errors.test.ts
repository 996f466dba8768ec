import t from 'tap'
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { RocksStore } from '../../../plugins/storage/rocks-store.ts'
import { tmpDir, cleanup } from '../../helpers/chain.ts'

t.test('a database held by another opener names the data dir and the lock', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const first = await RocksStore.open(path.join(dir, 'chain'))
  t.teardown(() => first.close())
  await t.rejects(RocksStore.open(path.join(dir, 'chain')), /chain is in use by another process \(another ledger node on the same --data-dir\?\).*lock/i)
})

t.test('a path that cannot hold a database says why', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'not-a-dir')
  writeFileSync(file, 'x')
  await t.rejects(RocksStore.open(path.join(file, 'chain')), /^cannot open .*not-a-dir\/chain: /)
})
