// Keystore 1: the seed sealed under a passphrase opens with it and with nothing else, an
// edited file does not open, and a hostile file cannot ask for unbounded scrypt memory.
import t from 'tap'
import { decryptWallet, encryptWallet, isEncryptedWalletFile, WrongPassphraseError, MAX_SCRYPT_N } from '../../../core/chain/keystore.ts'
import { walletFromFile, walletFromSeed } from '../../../core/chain/wallet.ts'
import { seededBytes } from '../../helpers/random.ts'

const LIGHT = { n: 2 ** 10, r: 8, p: 1 }
const wallet = walletFromSeed(seededBytes('keystore wallet', 32))

t.test('round trip; the file keeps the address readable and the seed sealed', async (t) => {
  const file = await encryptWallet(wallet, 'correct horse', LIGHT)
  t.ok(isEncryptedWalletFile(file))
  t.match(file, { kind: 'ml-dsa-87', keystore: 1, address: wallet.address, vm_address: wallet.vmAddress, crypto: { cipher: 'aes-256-gcm', kdf: 'scrypt', kdfparams: { n: 1024, r: 8, p: 1, dklen: 32 } } })
  t.notOk(JSON.stringify(file).includes(Buffer.from(wallet.seed).toString('hex')), 'no plain seed in the file')
  const opened = await decryptWallet(JSON.parse(JSON.stringify(file)), 'correct horse', 'w.json')
  t.equal(opened.address, wallet.address)
  t.same(Buffer.from(opened.seed), Buffer.from(wallet.seed))
  const again = await encryptWallet(wallet, 'correct horse', LIGHT)
  t.not(again.crypto.kdfparams.salt, file.crypto.kdfparams.salt, 'a fresh salt each time')
  t.not(again.crypto.nonce, file.crypto.nonce, 'a fresh nonce each time')
  t.throws(() => walletFromFile(file as never, 'w.json'), { name: 'WalletLockedError', message: /w.json is encrypted: it needs its passphrase/ }, 'the plain reader refuses it with a clear error')
})

t.test('wrong passphrase, edited file, hostile parameters', async (t) => {
  const file = await encryptWallet(wallet, 'correct horse', LIGHT)
  await t.rejects(decryptWallet(file, 'wrong horse', 'w.json'), new WrongPassphraseError('w.json: wrong passphrase (or the file was altered)'))
  const other = walletFromSeed(seededBytes('other wallet', 32))
  await t.rejects(decryptWallet({ ...file, address: other.address }, 'correct horse', 'w.json'), { name: 'WrongPassphraseError' }, 'the address is under the tag')
  const flipped = file.crypto.ciphertext.replace(/^./, (c) => (c === '0' ? '1' : '0'))
  await t.rejects(decryptWallet({ ...file, crypto: { ...file.crypto, ciphertext: flipped } }, 'correct horse', 'w.json'), { name: 'WrongPassphraseError' })
  await t.rejects(decryptWallet({ ...file, crypto: { ...file.crypto, kdfparams: { ...file.crypto.kdfparams, n: MAX_SCRYPT_N * 2 } } }, 'correct horse', 'w.json'), { message: /scrypt parameters out of bounds/ })
  await t.rejects(decryptWallet({ ...file, crypto: { ...file.crypto, kdfparams: { ...file.crypto.kdfparams, n: 3000 } } }, 'correct horse', 'w.json'), { message: /power of two/ })
  await t.rejects(decryptWallet({ ...file, keystore: 2 as never }, 'correct horse', 'w.json'), { name: 'KeystoreError', message: /not a keystore 1 wallet file/ })
  await t.rejects(decryptWallet({ ...file, crypto: { ...file.crypto, cipher: 'aes-128-ctr' as never } }, 'correct horse', 'w.json'), { message: /malformed keystore/ })
  await t.rejects(encryptWallet(wallet, '', LIGHT), { message: /empty/ })
})

t.test('a file holding only {"seed": ...} is a wallet', async (t) => {
  const seed = Buffer.from(wallet.seed).toString('hex')
  t.equal(walletFromFile({ seed }, 's.json').address, wallet.address)
  t.equal(walletFromFile({ seed: `0x${seed.toUpperCase()}` }, 's.json').address, wallet.address)
  t.throws(() => walletFromFile({ seed: 'abc' }, 's.json'), { message: /s.json is not an ML-DSA-87 wallet file \(want "kind": "ml-dsa-87" and "seed": 64 hex characters\)/ })
  t.throws(() => walletFromFile({ seed, address: '00'.repeat(16) }, 's.json'), { message: /address does not match/ })
})
