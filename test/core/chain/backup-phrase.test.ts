// The backup phrase is the seed as BIP-39 entropy: the published BIP-39 vectors, a round trip
// through a real wallet, and a clear refusal for each way a typed phrase goes wrong.
import t from 'tap'
import { BackupPhraseError, phraseToSeed, seedToPhrase } from '../../../core/chain/backup-phrase.ts'
import { walletFromSeed } from '../../../core/chain/wallet.ts'
import { DEVNET_DEV_ACCOUNT } from '../../../config/networks.ts'
import { seededBytes } from '../../helpers/random.ts'

t.test('BIP-39 reference vectors (256-bit entropy)', async (t) => {
  t.equal(seedToPhrase(new Uint8Array(32)), `${'abandon '.repeat(23)}art`)
  t.equal(seedToPhrase(new Uint8Array(32).fill(0xff)), `${'zoo '.repeat(23)}vote`)
  t.equal(seedToPhrase(new Uint8Array(32).fill(0x80)), `${'letter advice cage absurd amount doctor acoustic avoid '.repeat(2)}letter advice cage absurd amount doctor acoustic bless`)
})

t.test('phrase -> seed -> the same wallet (devnet dev account)', async (t) => {
  const seed = Buffer.from(DEVNET_DEV_ACCOUNT.seed, 'hex')
  const phrase = seedToPhrase(seed)
  t.equal(phrase.split(' ').length, 24)
  t.equal(walletFromSeed(phraseToSeed(phrase)).address, DEVNET_DEV_ACCOUNT.address)
  t.equal(Buffer.from(phraseToSeed(`  ${phrase.toUpperCase().replaceAll(' ', '\n ')} `)).toString('hex'), DEVNET_DEV_ACCOUNT.seed, 'case and whitespace do not matter')
  for (let i = 0; i < 20; i++) {
    const s = seededBytes(`phrase ${i}`, 32)
    t.same(Buffer.from(phraseToSeed(seedToPhrase(s))), s)
  }
})

t.test('refusals', async (t) => {
  const words = seedToPhrase(new Uint8Array(32).fill(7)).split(' ')
  t.throws(() => phraseToSeed(words.slice(0, 12).join(' ')), new BackupPhraseError('a backup phrase has 24 words, got 12'))
  t.throws(() => phraseToSeed([...words.slice(0, 23), 'qwerty'].join(' ')), { message: /not in the BIP-39 English word list: 'qwerty'/ })
  const swapped = [...words]
  ;[swapped[0], swapped[5]] = [words[5] as string, words[0] as string]
  t.throws(() => phraseToSeed(swapped.join(' ')), { message: /checksum does not match/ })
  t.throws(() => seedToPhrase(new Uint8Array(16)), { message: /32 bytes/ })
})
