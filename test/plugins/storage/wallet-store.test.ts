// The node's wallets stay plain so it runs unattended: an encrypted file among them is refused
// with what to do instead, and a file holding only {"seed": ...} is a wallet.
import t from 'tap'
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { FileWalletStore } from '../../../plugins/storage/wallet-store.ts'
import { encryptWallet } from '../../../core/chain/keystore.ts'
import { walletFromSeed } from '../../../core/chain/wallet.ts'
import { writeWalletJson } from '../../../core/kernel/wallet-file.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'
import { seededBytes } from '../../helpers/random.ts'

t.test('an encrypted node wallet is refused with the way out', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const w = walletFromSeed(seededBytes('node wallet', 32))
  writeWalletJson(path.join(dir, 'node.json'), await encryptWallet(w, 'pass', { n: 1024, r: 8, p: 1 }))
  t.throws(() => new FileWalletStore(dir).nodeWallet(), { message: /node\.json is encrypted, but the node's own wallets stay plain .* --miner-wallet FILE$/ })

  writeFileSync(path.join(dir, 'node.json'), JSON.stringify({ seed: Buffer.from(w.seed).toString('hex') }))
  t.equal(new FileWalletStore(dir).nodeWallet().address, w.address, 'a seed-only file is the same wallet')
})
