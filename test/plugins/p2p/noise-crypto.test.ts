import t from 'tap'
import { randomBytes } from 'node:crypto'
import { defaultCrypto } from '@chainsafe/libp2p-noise/crypto'
import { Uint8ArrayList } from 'uint8arraylist'
import { ledgerNoiseCrypto, sessionKey } from '../../../plugins/p2p/noise-crypto.ts'

const bytes = (x: Uint8Array | { subarray(): Uint8Array }): Buffer => Buffer.from(x instanceof Uint8Array ? x : x.subarray())
const nonce = (n: number): Uint8Array => { const b = Buffer.alloc(12); b.writeUInt32LE(n, 4); return b }

t.test('sealed messages are the library default crypto\'s, both ways, at every size', async (t) => {
  const k = randomBytes(32)
  const ad = randomBytes(32)
  for (const size of [0, 1, 1199, 1200, 1201, 4096, 65_519]) {
    const plain = randomBytes(size)
    const ours = bytes(ledgerNoiseCrypto.chaCha20Poly1305Encrypt(plain, nonce(size), ad, k))
    const theirs = bytes(defaultCrypto.chaCha20Poly1305Encrypt(plain, nonce(size), ad, k))
    t.ok(ours.equals(theirs), `${size} bytes: the same ciphertext and tag`)
    t.ok(bytes(ledgerNoiseCrypto.chaCha20Poly1305Decrypt(theirs, nonce(size), ad, k)).equals(plain), `${size} bytes: opens the default's`)
    t.ok(bytes(defaultCrypto.chaCha20Poly1305Decrypt(ours, nonce(size), ad, k)).equals(plain), `${size} bytes: the default opens ours`)
  }
})

t.test('a message that does not authenticate is refused', async (t) => {
  const k = randomBytes(32)
  const sealed = bytes(ledgerNoiseCrypto.chaCha20Poly1305Encrypt(randomBytes(5000), nonce(1), new Uint8Array(0), k))
  const flipped = Buffer.from(sealed)
  flipped[100] = (flipped[100] as number) ^ 1
  t.throws(() => ledgerNoiseCrypto.chaCha20Poly1305Decrypt(flipped, nonce(1), new Uint8Array(0), k), 'a flipped ciphertext bit')
  t.throws(() => ledgerNoiseCrypto.chaCha20Poly1305Decrypt(sealed, nonce(2), new Uint8Array(0), k), 'another nonce')
  t.throws(() => ledgerNoiseCrypto.chaCha20Poly1305Decrypt(sealed, nonce(1), Uint8Array.of(1), k), 'other associated data')
  t.throws(() => ledgerNoiseCrypto.chaCha20Poly1305Decrypt(sealed, nonce(1), new Uint8Array(0), randomBytes(32)), 'another key')
})

t.test('a session key is prepared once, and again when its array changes', async (t) => {
  const k = randomBytes(32)
  const first = sessionKey(k)
  t.equal(sessionKey(k), first, 'the same array: the same KeyObject')
  t.not(sessionKey(Buffer.from(k)), first, 'another array of the same bytes: its own')
  const plain = randomBytes(2000)
  k[0] = (k[0] as number) ^ 0xff
  t.not(sessionKey(k), first, 'the array now holds another key')
  const sealed = bytes(ledgerNoiseCrypto.chaCha20Poly1305Encrypt(plain, nonce(0), new Uint8Array(0), k))
  t.ok(bytes(defaultCrypto.chaCha20Poly1305Decrypt(sealed, nonce(0), new Uint8Array(0), k)).equals(plain), 'sealed with the array\'s current key')
})

t.test('a message spanning several received chunks (a list) takes the prepared key too, both ways', async (t) => {
  const k = randomBytes(32)
  const ad = randomBytes(32)
  const chunked = (b: Uint8Array, cut: number): Uint8ArrayList => new Uint8ArrayList(b.subarray(0, cut), b.subarray(cut, 2 * cut), b.subarray(2 * cut))
  for (const size of [1200, 5000, 65_519]) {
    const plain = randomBytes(size)
    const theirs = bytes(defaultCrypto.chaCha20Poly1305Encrypt(plain, nonce(size), ad, k))
    const ours = bytes(ledgerNoiseCrypto.chaCha20Poly1305Encrypt(chunked(plain, 333), nonce(size), ad, k))
    t.ok(ours.equals(theirs), `${size} bytes sealed from a list: the default's ciphertext and tag`)
    t.ok(bytes(ledgerNoiseCrypto.chaCha20Poly1305Decrypt(chunked(theirs, 500), nonce(size), ad, k)).equals(plain), `${size} bytes opened from a list`)
    // the tag itself split across chunks
    t.ok(bytes(ledgerNoiseCrypto.chaCha20Poly1305Decrypt(chunked(theirs, theirs.length - 8 - Math.floor((theirs.length - 8) / 2)), nonce(size), ad, k)).equals(plain), `${size} bytes, tag across chunks`)
    const flipped = Buffer.from(theirs)
    flipped[size - 1] = (flipped[size - 1] as number) ^ 1
    t.throws(() => ledgerNoiseCrypto.chaCha20Poly1305Decrypt(chunked(flipped, 700), nonce(size), ad, k), `${size} bytes: a flipped bit in a list is refused`)
  }
})
