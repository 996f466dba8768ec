// AccountStore on its own (plugins/messenger/accounts): session idle expiry and its refresh on use, what
// a reopened store holds, and bookkeeping writes that never undo a block.
import t from 'tap'
import path from 'node:path'
import { RocksStore } from '../../../plugins/storage/rocks-store.ts'
import { AccountStore, SESSION_IDLE_SECONDS } from '../../../plugins/messenger/accounts/store.ts'
import type { AccountStoreOptions } from '../../../plugins/messenger/accounts/store.ts'
import { generateWallet } from '../../../core/chain/wallet.ts'
import { silentLogger, tmpDir, cleanup } from '../../helpers/chain.ts'

t.test('sessions expire after 30 idle days; use keeps them alive, also across reopen', async (t) => {
  const dir = tmpDir('ledger-accounts-')
  t.teardown(() => cleanup(dir))
  let now = 1_000_000
  let faucetCalls = 0
  const options = (db: RocksStore): AccountStoreOptions => ({
    db,
    logger: silentLogger,
    now: () => now,
    faucet: () => { faucetCalls++; return null },
    provisionWallet: (key) => { const w = generateWallet(); return { label: `u-${key}`, address: w.address, vmAddress: w.vmAddress } }
  })
  let db = await RocksStore.open(path.join(dir, 'admin'))
  let store = await AccountStore.open(options(db))
  const invite = await store.createInvite(5)
  const a = await store.signup({ name: 'ann', inviteCode: invite.code, ip: '1' })
  const b = await store.signup({ name: 'ben', inviteCode: invite.code, ip: '1' })
  if (a.status !== 'approved' || b.status !== 'approved') throw new Error('expected approvals')
  t.equal(faucetCalls, 2, 'the faucet is asked once per approval')

  now += SESSION_IDLE_SECONDS - 10
  t.equal(store.sessionUser(a.sessionToken)?.name, 'ann', 'used just before it would expire')
  now += 20
  t.equal(store.sessionUser(b.sessionToken), undefined, 'ben idled past 30 days')
  t.equal(store.sessionUser(a.sessionToken)?.name, 'ann', 'ann\'s use refreshed her session')

  // let the background refresh reach the disk, then reopen much later for ben, soon for ann
  await store.createInvite(1)
  await db.close()
  now += 60
  db = await RocksStore.open(path.join(dir, 'admin'))
  store = await AccountStore.open(options(db))
  t.equal(store.sessionUser(a.sessionToken)?.name, 'ann', 'the refreshed last_seen was persisted')
  t.equal(store.sessionUser(b.sessionToken), undefined, 'the idle session was dropped at open')
  t.equal(store.users().length, 2)
  t.match(store.invites()[0], { used: 2, max_uses: 5, remaining: 3 })

  // a refresh queued behind a block must not bring the session back
  now += 120
  const touching = store.sessionUser(a.sessionToken)
  t.ok(touching)
  await store.block('ann')
  t.equal(store.sessionUser(a.sessionToken), undefined)
  await db.close()
  db = await RocksStore.open(path.join(dir, 'admin'))
  store = await AccountStore.open(options(db))
  t.equal(store.sessionUser(a.sessionToken), undefined, 'still revoked after reopen')
  t.ok(store.isBlocked('ANN'))
  await db.close()
})
