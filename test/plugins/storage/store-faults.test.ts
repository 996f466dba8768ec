// Faults are errors, not crashes (issue 31 item 5): a full disk or a read-only data dir under a
// running node. The stores' writes are made to fail as RocksDB fails them (its own error
// shapes, injected through the KvStore interface; the real full disk is disk-full.test.ts):
// HTTP writes answer 503 in the one error shape, block import refuses the block without
// judging it, nothing committed is lost, and everything works again once the fault is gone.
import t from 'tap'
import type { KvOp, KvStore } from '../../../core/kernel/kv.ts'
import { storageFault } from '../../../core/kernel/kv.ts'
import { startChatNode } from '../messenger/fixtures/chat-node.ts'
import { startTestNode } from '../../helpers/node.ts'
import { mineBlock, testParams } from '../../helpers/chain.ts'

/** RocksDB's errors as abstract-level reports them */
const DISK_FULL = Object.assign(new Error('IO error: No space left on device: While appending to file: admin/000004.log: No space left on device'), { code: 'LEVEL_IO_ERROR' })
const READ_ONLY = Object.assign(new Error('IO error: While open a file for appending: chain/000009.log: Read-only file system'), { code: 'LEVEL_IO_ERROR' })

/** makes `db` refuse every write with `err` until the returned function is called */
function failWrites (db: KvStore, err: Error): () => void {
  const write = db.write.bind(db)
  db.write = async (_ops: KvOp[], _opts?: { sync?: boolean }): Promise<void> => { throw err }
  return () => { db.write = write }
}

t.test('errors are classified by the file system\'s words', async (t) => {
  t.equal(storageFault(DISK_FULL), 'disk full')
  t.equal(storageFault(READ_ONLY), 'read-only')
  t.equal(storageFault(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })), 'disk full')
  t.equal(storageFault(Object.assign(new Error('EROFS'), { code: 'EROFS' })), 'read-only')
  t.equal(storageFault(new Error('Database is not open', { cause: DISK_FULL })), 'disk full')
  t.equal(storageFault(new TypeError('x is undefined')), undefined)
})

t.test('admin store: a refused write is a 503, nothing half-made, and it works again after', async (t) => {
  const first = await startChatNode({ keepData: true })
  const dataDir = first.dataDir
  t.teardown(async () => { const { rmSync } = await import('node:fs'); rmSync(dataDir, { recursive: true, force: true }) })
  const before = (await first.admin('POST', '/api/admin/invites/create', {})).json().code as string
  const invitesBefore = (await first.admin('GET', '/api/admin/invites')).json() as unknown

  for (const [what, err, fault] of [['a full disk', DISK_FULL, 'disk full'], ['a read-only data dir', READ_ONLY, 'read-only']] as const) {
    const restore = failWrites(first.resolve('adminDb'), err)
    const refused = await first.admin('POST', '/api/admin/invites/create', {})
    t.equal(refused.statusCode, 503, what)
    t.same(refused.json(), { error: `the node cannot write to its data dir (${fault}); nothing was changed, try again later` })
    t.equal(refused.headers['retry-after'], '30')
    const signup = await first.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'carol', invite_code: before } })
    t.equal(signup.statusCode, 503, `${what}: a signup is refused too`)
    t.same((await first.admin('GET', '/api/admin/invites')).json(), invitesBefore, 'nothing half-made: the one invite, unused')
    t.equal(first.resolve('accounts').user('carol'), undefined, 'no user record')
    restore()
  }
  const after = await first.admin('POST', '/api/admin/invites/create', {})
  t.equal(after.statusCode, 200, 'space back: the same request succeeds')
  const signup = await first.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'carol', invite_code: before } })
  t.equal(signup.statusCode, 200)
  await first.stop()

  const second = await startChatNode({ dataDir, keepData: true })
  t.teardown(() => second.stop())
  t.same((await second.admin('GET', '/api/admin/invites')).json().invites.map((i: { code: string }) => i.code).sort(), [before, after.json().code].sort(), 'both invites survive a restart')
  t.ok(second.resolve('accounts').user('carol') !== undefined, 'the signup after recovery is committed')
})

t.test('chain store: a block whose write is refused is not judged, the tip holds, the same block connects later', async (t) => {
  const node = await startTestNode({ plugins: ['storage', 'consensus'] })
  t.teardown(() => node.stop())
  const params = testParams()
  const chain = node.resolve('chain')
  const g = chain.tip()
  const b1 = mineBlock(params, { hash: g.hash, height: g.height, timestamp: g.timestamp })
  await chain.processBlock(b1, 'test')
  const b2 = mineBlock(params, { hash: b1.hash, height: 1, timestamp: b1.timestamp })

  for (const err of [DISK_FULL, READ_ONLY]) {
    const restore = failWrites(node.resolve('chainDb'), err)
    const refused = await chain.processBlock(b2, 'peer').then(() => undefined, (e: unknown) => e)
    t.ok(refused !== undefined && storageFault(refused) !== undefined, `the import fails with the storage fault (${String((refused as Error | undefined)?.message)})`)
    t.equal(chain.tip().hash, b1.hash, 'the tip holds')
    restore()
  }
  await chain.processBlock(b2, 'peer')
  t.equal(chain.tip().hash, b2.hash, 'the same block connects once the disk takes writes again: it was never marked invalid')
  t.ok(await chain.getBlockByHash(b1.hash), 'what was committed before is there')
})
