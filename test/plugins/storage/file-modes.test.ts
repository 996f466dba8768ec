// Issue 12 item 12: everything the node creates under its data dir is owner-only (0700 dirs,
// 0600 files, RocksDB's own files included), whatever umask it was started with; a custodial
// wallet file is complete on disk before the account record that names it is written.
import t from 'tap'
import path from 'node:path'
import { readdirSync, statSync } from 'node:fs'
import { startChatNode } from '../messenger/fixtures/chat-node.ts'
import { readWalletFile } from '../../../core/kernel/wallet-file.ts'
import type { KvOp } from '../../../core/kernel/kv.ts'

function walk (dir: string, out: Array<{ file: string; mode: number; isDir: boolean }> = []): typeof out {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    const st = statSync(file)
    out.push({ file, mode: st.mode & 0o777, isDir: st.isDirectory() })
    if (st.isDirectory()) walk(file, out)
  }
  return out
}

t.test('a fresh data dir is owner-only throughout, under a permissive umask', async (t) => {
  const before = process.umask(0o002)
  t.teardown(() => { process.umask(before) })
  const node = await startChatNode({ plugins: ['storage', 'consensus', 'http', 'messenger', 'admin', 'dashboard'], keepData: true })
  t.teardown(() => node.stop())
  await node.fundFaucet()
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json()
  t.equal((await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'walleted', invite_code: invite.code } })).statusCode, 200)

  const entries = [{ file: node.dataDir, mode: statSync(node.dataDir).mode & 0o777, isDir: true }, ...walk(node.dataDir)]
  const names = entries.map((e) => path.relative(node.dataDir, e.file))
  for (const expected of ['chain', 'admin', 'wallets', 'api_key.json', 'chain/CURRENT']) t.ok(names.includes(expected), `${expected} exists`)
  t.ok(entries.some((e) => /wallets\/u-walleted-/.test(e.file)), 'the custodial wallet exists')
  const loose = entries.filter((e) => (e.mode & 0o077) !== 0).map((e) => `${path.relative(node.dataDir, e.file) || '.'} ${e.mode.toString(8)}`)
  t.same(loose, [], 'no file or directory is open to group or others')
  t.ok(entries.filter((e) => e.isDir).every((e) => e.mode === 0o700), 'directories are 0700')
})

t.test('the custodial wallet is on disk before the user record points at it', async (t) => {
  const node = await startChatNode()
  t.teardown(() => node.stop())
  await node.fundFaucet()
  const db = node.resolve('adminDb')
  const write = db.write.bind(db)
  const checked: string[] = []
  db.write = async (ops: KvOp[], opts?: { sync?: boolean }) => {
    for (const op of ops) {
      if (op.type !== 'put') continue
      const record = JSON.parse(Buffer.from(op.value as Uint8Array).toString('utf8')) as { wallet?: unknown; address?: unknown }
      if (typeof record.wallet !== 'string') continue
      const w = readWalletFile(path.join(node.dataDir, 'wallets', `${record.wallet}.json`))
      t.equal(w.address, record.address, `${record.wallet} is complete before its record is written`)
      checked.push(record.wallet)
    }
    await write(ops, opts)
  }
  const invite = (await node.admin('POST', '/api/admin/invites/create', { max_uses: 1 })).json()
  await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'viainvite', invite_code: invite.code } })
  await node.app.inject({ method: 'POST', url: '/api/signup', payload: { name: 'viaqueue' } })
  t.equal((await node.admin('POST', '/api/admin/approve', { name: 'viaqueue' })).statusCode, 200)
  t.equal(checked.length, 2, 'both paths that create a user were seen')
})
