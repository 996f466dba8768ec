import t from 'tap'
import path from 'node:path'
import { chmodSync, statSync, writeFileSync } from 'node:fs'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { loadOrCreateIdentity, NODE_KEY_FILE } from '../../../plugins/p2p/identity.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'

t.test('the peer identity is created once, mode 0600, and reloaded unchanged', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const first = await loadOrCreateIdentity(dir)
  t.ok(first.created)
  t.equal(first.file, path.join(dir, NODE_KEY_FILE))
  t.equal(statSync(first.file).mode & 0o777, 0o600)
  const again = await loadOrCreateIdentity(dir)
  t.notOk(again.created)
  t.equal(peerIdFromPrivateKey(again.privateKey).toString(), peerIdFromPrivateKey(first.privateKey).toString())
  chmodSync(first.file, 0o644)
  await loadOrCreateIdentity(dir)
  t.equal(statSync(first.file).mode & 0o777, 0o600, 'loose permissions are tightened')
})

t.test('a damaged key file is an error, never silently replaced', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  writeFileSync(path.join(dir, NODE_KEY_FILE), 'garbage', { mode: 0o600 })
  await t.rejects(loadOrCreateIdentity(dir), { message: /not a valid peer key/ })
})
