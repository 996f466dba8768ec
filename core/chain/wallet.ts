// ML-DSA-87 wallets: a key pair from a 32-byte seed, its two addresses, and the JSON form of
// a wallet file. No I/O here: reading and writing wallet files is core/kernel/wallet-file.ts,
// the node's store of wallets is the storage plugin's.
import { mldsa } from '../crypto/mldsa.ts'
import { walletAddressFromPublicKey, vmAddressOf } from './address.ts'

export interface Wallet {
  address: string
  vmAddress: string
  publicKey: Uint8Array
  seed: Uint8Array
}

export interface WalletFile {
  kind: 'ml-dsa-87'
  address: string
  vm_address: string
  public_key: string
  seed: string
  created_at: number
}

export function walletFromSeed (seed: Uint8Array): Wallet {
  const { publicKey } = mldsa.keygen(seed)
  const address = walletAddressFromPublicKey(publicKey)
  return { address, vmAddress: vmAddressOf(address), publicKey, seed }
}

export function generateWallet (): Wallet {
  const { seed } = mldsa.keygen()
  return walletFromSeed(seed)
}

export function walletToFile (w: Wallet): WalletFile {
  return {
    kind: 'ml-dsa-87',
    address: w.address,
    vm_address: w.vmAddress,
    public_key: Buffer.from(w.publicKey).toString('hex'),
    seed: Buffer.from(w.seed).toString('hex'),
    created_at: Date.now() / 1000
  }
}

/** An encrypted (keystore) file read where no passphrase can be asked */
export class WalletLockedError extends Error { override name = 'WalletLockedError' }

/** A wallet from the parsed JSON of a wallet file; `where` names it in the error. A file
 *  holding only `{"seed": "<64 hex>"}` (hand-written, e.g. devnet's dev account from
 *  docs/chain.md) is accepted: everything else in the file is derived from the seed. */
export function walletFromFile (data: Partial<WalletFile>, where: string): Wallet {
  if (typeof data !== 'object' || data === null) throw new Error(`${where} is not an ML-DSA-87 wallet file (not a JSON object)`)
  if ('crypto' in data) throw new WalletLockedError(`${where} is encrypted: it needs its passphrase (--password-file FILE, or a prompt on a terminal)`)
  const seed = typeof data.seed === 'string' ? data.seed.replace(/^0x/, '').toLowerCase() : undefined
  if ((data.kind !== undefined && data.kind !== 'ml-dsa-87') || seed === undefined || !/^[0-9a-f]{64}$/.test(seed)) {
    throw new Error(`${where} is not an ML-DSA-87 wallet file (want "kind": "ml-dsa-87" and "seed": 64 hex characters)`)
  }
  const w = walletFromSeed(Buffer.from(seed, 'hex'))
  if (data.address !== undefined && data.address !== w.address) throw new Error(`${where}: address does not match its key`)
  return w
}
