// --miner-wallet FILE (miner.walletFile): blocks pay that file's address; an encrypted file
// works without its passphrase (only the address is read), a missing one stops the start
// with a clear config error.
import t from 'tap'
import path from 'node:path'
import { startTestNode } from '../../helpers/node.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'
import { encryptWallet } from '../../../core/chain/keystore.ts'
import { walletFromSeed } from '../../../core/chain/wallet.ts'
import { writeWalletJson } from '../../../core/kernel/wallet-file.ts'
import { seededBytes } from '../../helpers/random.ts'

t.test('an encrypted payout file: its address, no passphrase', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const w = walletFromSeed(seededBytes('payout', 32))
  const file = path.join(dir, 'payout.json')
  writeWalletJson(file, await encryptWallet(w, 'never asked', { n: 1024, r: 8, p: 1 }))
  const node = await startTestNode({ plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner'], start: false, config: { miner: { walletFile: file, enabled: false } } })
  t.teardown(() => node.stop())
  t.equal(node.resolve('miner').status().miner_address, w.address)
  t.notOk(node.resolve('wallets').has('node'), 'no node wallet was made for the payout')
})

t.test('a missing payout file is a config error', async (t) => {
  const missing = path.join(tmpDir(), 'nope.json')
  await t.rejects(startTestNode({ plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner'], start: false, config: { miner: { walletFile: missing } } }),
    { message: /miner\.walletFile \(--miner-wallet\): cannot read wallet file .*nope\.json: ENOENT/ })
})
