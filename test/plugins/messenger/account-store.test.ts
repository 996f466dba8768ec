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

// what the admin, playground and stream plugins reach through the `accounts` service instead
// of importing the messenger's files (core/kernel/account-service.ts)
t.test('the service members other plugins use: session key, credentials, HTTP errors', async (t) => {
  const dir = tmpDir('ledger-accounts-')
  t.teardown(() => cleanup(dir))
  const db = await RocksStore.open(path.join(dir, 'admin'))
  t.teardown(() => db.close())
  const store = await AccountStore.open({
    db,
    logger: silentLogger,
    faucet: () => null,
    maxPending: 1,
    provisionWallet: (key) => { const w = generateWallet(); return { label: `u-${key}`, address: w.address, vmAddress: w.vmAddress } }
  })
  const invite = await store.createInvite(2)
  const ann = await store.signup({ name: 'ann', inviteCode: invite.code, ip: '1' })
  if (ann.status !== 'approved') throw new Error('expected an approval')

  const key = store.sessionKeyOf(ann.sessionToken)
  t.match(key, /^[0-9a-f]{64}$/, 'a digest, not the token')
  t.not(key, ann.sessionToken)
  t.ok(store.sessionActive(key), 'the key is what sessionActive takes')
  await store.endSession(ann.sessionToken)
  t.notOk(store.sessionActive(key), 'and it ends with the session')

  const { token } = await store.createToken({ label: 'ci', name: 'ann' })
  t.equal(store.userOfCredentials(undefined, `Bearer ${token}`)?.name, 'ann', 'an API token of scope playground')
  t.equal(store.userOfCredentials(undefined, `Bearer ${token}`, 'other'), undefined, 'not for another scope')
  t.equal(store.userOfCredentials(undefined, 'Basic abc'), undefined)
  const login = await store.login('ann', ann.user.login_token)
  t.equal(store.userOfCredentials(login.sessionToken, 'Bearer ldg_nope')?.name, 'ann', 'the session wins over a header')

  const refusal = async (p: Promise<unknown>): Promise<unknown> => await p.then(() => { throw new Error('expected a refusal') }, (err: unknown) => err)
  t.match(store.httpErrorOf(await refusal(store.approve('nobody'))), { statusCode: 404, message: 'no pending signup named nobody' })
  t.match(store.httpErrorOf(await refusal(store.signup({ name: 'x', ip: '1' }))), { statusCode: 400, message: 'name must be 2-32 chars, alphanumeric / - / _' })
  await store.signup({ name: 'bob', ip: '1' })
  t.match(store.httpErrorOf(await refusal(store.signup({ name: 'cy', ip: '1' }))), { statusCode: 503 }, 'a full queue is the node\'s state: 503')
  const other = new Error('disk on fire')
  t.equal(store.httpErrorOf(other), other, 'anything else passes through untouched')
})
