// Wallet files encrypted at rest (keystore format 1): the seed sealed with AES-256-GCM under
// a key stretched from the passphrase by scrypt, like geth's keystore. The address, VM address
// and public key stay readable (a payout address or a balance needs no passphrase); the GCM
// tag also covers the address, so a file whose address was edited does not open. Pure: no I/O.
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { gcm } from '@noble/ciphers/aes.js'
import { randomBytes } from '@noble/hashes/utils.js'
import { walletFromSeed } from './wallet.ts'
import type { Wallet } from './wallet.ts'

export const KEYSTORE_VERSION = 1

export interface ScryptParams {
  /** CPU/memory cost, a power of two */
  n: number
  r: number
  p: number
  dklen: 32
  /** hex, 32 bytes */
  salt: string
}

export interface EncryptedWalletFile {
  kind: 'ml-dsa-87'
  keystore: typeof KEYSTORE_VERSION
  address: string
  vm_address: string
  public_key: string
  crypto: {
    cipher: 'aes-256-gcm'
    /** hex: the 32-byte seed sealed, then GCM's 16-byte tag */
    ciphertext: string
    /** hex, 12 bytes */
    nonce: string
    kdf: 'scrypt'
    kdfparams: ScryptParams
  }
  created_at: number
}

/** N = 2^17, r = 8, p = 1: 128 MiB and about a second per unlock on one core; an attacker
 *  pays the same per guess. */
export const DEFAULT_SCRYPT = { n: 2 ** 17, r: 8, p: 1 } as const
/** what a file may ask of the machine that opens it: a hostile file must not demand gigabytes */
export const MAX_SCRYPT_N = 2 ** 20
const MAX_SCRYPT_R = 16
const MAX_SCRYPT_P = 4
const MIN_SCRYPT_N = 2 ** 10

export class KeystoreError extends Error { override name = 'KeystoreError' }
/** the passphrase did not open the file (or the file was altered) */
export class WrongPassphraseError extends KeystoreError { override name = 'WrongPassphraseError' }

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const aad = (address: string): Uint8Array => new TextEncoder().encode(`ledger keystore ${KEYSTORE_VERSION} ${address}`)

async function deriveKey (passphrase: string, kp: ScryptParams): Promise<Uint8Array> {
  return scryptAsync(passphrase.normalize('NFKC'), Buffer.from(kp.salt, 'hex'), {
    N: kp.n, r: kp.r, p: kp.p, dkLen: kp.dklen, maxmem: 128 * kp.r * (kp.n + kp.p + 2)
  })
}

export function isEncryptedWalletFile (data: unknown): data is EncryptedWalletFile {
  return typeof data === 'object' && data !== null && 'crypto' in data
}

export async function encryptWallet (w: Wallet, passphrase: string, cost: { n: number; r: number; p: number } = DEFAULT_SCRYPT): Promise<EncryptedWalletFile> {
  if (passphrase.length === 0) throw new KeystoreError('the passphrase is empty')
  const kdfparams: ScryptParams = { ...cost, dklen: 32, salt: hex(randomBytes(32)) }
  checkParams(kdfparams, 'the new keystore')
  const key = await deriveKey(passphrase, kdfparams)
  const nonce = randomBytes(12)
  const sealed = gcm(key, nonce, aad(w.address)).encrypt(w.seed)
  return {
    kind: 'ml-dsa-87',
    keystore: KEYSTORE_VERSION,
    address: w.address,
    vm_address: w.vmAddress,
    public_key: hex(w.publicKey),
    crypto: { cipher: 'aes-256-gcm', ciphertext: hex(sealed), nonce: hex(nonce), kdf: 'scrypt', kdfparams },
    created_at: Date.now() / 1000
  }
}

function checkParams (kp: Partial<ScryptParams> | undefined, where: string): asserts kp is ScryptParams {
  const { n, r, p, dklen, salt } = kp ?? {}
  const ok = Number.isSafeInteger(n) && Number.isSafeInteger(r) && Number.isSafeInteger(p) &&
    (n as number) >= MIN_SCRYPT_N && (n as number) <= MAX_SCRYPT_N && ((n as number) & ((n as number) - 1)) === 0 &&
    (r as number) >= 1 && (r as number) <= MAX_SCRYPT_R && (p as number) >= 1 && (p as number) <= MAX_SCRYPT_P &&
    dklen === 32 && typeof salt === 'string' && /^[0-9a-f]{32,128}$/.test(salt)
  if (!ok) throw new KeystoreError(`${where}: scrypt parameters out of bounds (n a power of two 2^10..2^20, r 1..${MAX_SCRYPT_R}, p 1..${MAX_SCRYPT_P}, dklen 32, hex salt)`)
}

/** Opens a keystore-1 file's parsed JSON; `where` names it in errors. */
export async function decryptWallet (data: Partial<EncryptedWalletFile>, passphrase: string, where: string): Promise<Wallet> {
  if (data.kind !== 'ml-dsa-87' || data.keystore !== KEYSTORE_VERSION) throw new KeystoreError(`${where}: not a keystore ${KEYSTORE_VERSION} wallet file (keystore: ${String(data.keystore)})`)
  const c = data.crypto
  if (c?.cipher !== 'aes-256-gcm' || c.kdf !== 'scrypt' || typeof c.nonce !== 'string' || !/^[0-9a-f]{24}$/.test(c.nonce) ||
    typeof c.ciphertext !== 'string' || !/^[0-9a-f]{96}$/.test(c.ciphertext) || typeof data.address !== 'string') {
    throw new KeystoreError(`${where}: malformed keystore (want cipher aes-256-gcm, kdf scrypt, a 12-byte nonce, a 48-byte ciphertext)`)
  }
  checkParams(c.kdfparams, where)
  const key = await deriveKey(passphrase, c.kdfparams)
  let seed: Uint8Array
  try {
    seed = gcm(key, Buffer.from(c.nonce, 'hex'), aad(data.address)).decrypt(Buffer.from(c.ciphertext, 'hex'))
  } catch {
    throw new WrongPassphraseError(`${where}: wrong passphrase (or the file was altered)`)
  }
  const w = walletFromSeed(seed)
  if (w.address !== data.address) throw new KeystoreError(`${where}: address does not match its key`)
  return w
}
