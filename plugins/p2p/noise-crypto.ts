// Noise's ChaCha20-Poly1305 with each session key prepared once. The library's node:crypto path
// hands `createCipheriv` the raw key bytes for every message, and Node makes a new secret
// KeyObject of them each time: ~25 µs of a 64 KiB message's ~70 µs, paid by both nodes of
// a sync for every encrypted block (issue 15: the serving node's profile showed KeyObject
// set-up as a third of its cipher time). A connection's two directions each keep one key for
// their lifetime (libp2p's noise never rekeys), so the KeyObject is kept beside that key.
// Messages come as one array or as a list of the chunks they span (yamux's frames to seal, the
// socket's reads to open: in a sync nearly every large message is a list), and both take the
// prepared key. Everything else, and small messages (the WASM core is faster below ~1.2 KB),
// stays the library's default.
import { createCipheriv, createDecipheriv, createSecretKey } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import { defaultCrypto } from '@chainsafe/libp2p-noise/crypto'
import type { ICryptoInterface } from '@chainsafe/libp2p-noise'

const CHACHA_POLY1305 = 'chacha20-poly1305'
const TAG_BYTES = 16
/** below this the library's WASM core is faster than node:crypto (its own measured threshold) */
const NATIVE_FROM_BYTES = 1200

interface PreparedKey { bytes: Buffer; key: KeyObject }

/**
 * The KeyObject of a session key, kept per key array (a noise cipher state holds its key in one
 * array for its lifetime) and used only while that array still holds the bytes it was made of.
 */
const prepared = new WeakMap<Uint8Array, PreparedKey>()

export function sessionKey (k: Uint8Array): KeyObject {
  const hit = prepared.get(k)
  if (hit !== undefined && hit.bytes.equals(k)) return hit.key
  const bytes = Buffer.from(k)
  const key = createSecretKey(bytes)
  prepared.set(k, { bytes, key })
  return key
}

/** a message as noise hands it over: one array, or the received chunks it spans (Uint8ArrayList) */
type Message = Parameters<ICryptoInterface['chaCha20Poly1305Decrypt']>[0]

/** the cipher's output of each chunk of the message, in order */
function updateAll (c: { update(b: Uint8Array): Buffer }, text: Message): Buffer[] {
  if (text instanceof Uint8Array) return [c.update(text)]
  const out: Buffer[] = []
  for (const chunk of text) out.push(c.update(chunk))
  return out
}

const joined = (parts: Buffer[]): Buffer => parts.length === 1 ? parts[0] as Buffer : Buffer.concat(parts)

function encrypt (plaintext: Message, nonce: Uint8Array, ad: Uint8Array, k: Uint8Array): Buffer {
  const cipher = createCipheriv(CHACHA_POLY1305, sessionKey(k), nonce, { authTagLength: TAG_BYTES })
  cipher.setAAD(ad, { plaintextLength: plaintext.byteLength })
  const parts = updateAll(cipher, plaintext)
  parts.push(cipher.final(), cipher.getAuthTag())
  return Buffer.concat(parts)
}

/** `ciphertext`: at least NATIVE_FROM_BYTES long, so it holds its tag */
function decrypt (ciphertext: Message, nonce: Uint8Array, ad: Uint8Array, k: Uint8Array): Buffer {
  const textBytes = ciphertext.byteLength - TAG_BYTES
  // a received message usually spans several socket reads: the library's node:crypto path
  // takes them as a list too, each chunk through the same decipher
  const text = ciphertext instanceof Uint8Array ? ciphertext.subarray(0, textBytes) : ciphertext.sublist(0, textBytes)
  const decipher = createDecipheriv(CHACHA_POLY1305, sessionKey(k), nonce, { authTagLength: TAG_BYTES })
  decipher.setAAD(ad, { plaintextLength: textBytes })
  decipher.setAuthTag(ciphertext.subarray(textBytes))
  const parts = updateAll(decipher, text)
  const final = decipher.final() // throws when the tag does not authenticate
  if (final.byteLength > 0) parts.push(final)
  return joined(parts)
}

/** `noise({ crypto: ledgerNoiseCrypto })`: the library's default crypto, session keys prepared once */
export const ledgerNoiseCrypto: ICryptoInterface = {
  ...defaultCrypto,
  chaCha20Poly1305Encrypt (plaintext, nonce, ad, k) {
    if (plaintext.byteLength < NATIVE_FROM_BYTES) return defaultCrypto.chaCha20Poly1305Encrypt(plaintext, nonce, ad, k)
    return encrypt(plaintext, nonce, ad, k)
  },
  chaCha20Poly1305Decrypt (ciphertext, nonce, ad, k, dst) {
    if (ciphertext.byteLength < NATIVE_FROM_BYTES) return defaultCrypto.chaCha20Poly1305Decrypt(ciphertext, nonce, ad, k, dst)
    return decrypt(ciphertext, nonce, ad, k)
  }
}
