import t from 'tap'
import path from 'node:path'
import { readFileSync, existsSync, mkdirSync, rmdirSync } from 'node:fs'
import { BanStore } from '../../../plugins/p2p/ban-store.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'

t.test('changes made while a write runs coalesce into one more write of the latest list', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'bans.json')
  const store = new BanStore({ file })
  const list: number[] = []
  for (let i = 0; i < 100; i++) { list.push(i); store.schedule(() => [...list]) }
  await store.flush()
  t.ok(store.written <= 2, `100 changes, ${store.written} writes`)
  t.same(JSON.parse(readFileSync(file, 'utf8')), list, 'the file holds the latest list')
  t.notOk(existsSync(`${file}.tmp`), 'no temp file left behind')
})

t.test('a failing write is reported and the next change, once the disk is back, is written', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'bans.json')
  mkdirSync(`${file}.tmp`)
  const errors: string[] = []
  const store = new BanStore({ file, onError: (e) => errors.push(e.code ?? '') })
  store.schedule(() => [1])
  await store.flush()
  store.schedule(() => [1, 2])
  await store.flush()
  t.same(errors, ['EISDIR'], 'the same failure reported once')
  t.notOk(existsSync(file))
  rmdirSync(`${file}.tmp`)
  store.schedule(() => [1, 2, 3])
  await store.flush()
  t.same(JSON.parse(readFileSync(file, 'utf8')), [1, 2, 3], 'written once the path is writable again')
  t.same(store.load(), [1, 2, 3])
})
