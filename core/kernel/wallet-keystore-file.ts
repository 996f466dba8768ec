// Wallet files that may be encrypted (keystore 1, core/chain/keystore.ts): open one with a
// passphrase asked only when it is needed, read its address without one, and write a wallet
// plain or sealed. Plain files are core/kernel/wallet-file.ts's; this module adds the keystore.
import { readFileSync, statSync } from 'node:fs'
import { walletFromFile } from '../chain/wallet.ts'
import type { Wallet, WalletFile } from '../chain/wallet.ts'
import { decryptWallet, encryptWallet, isEncryptedWalletFile } from '../chain/keystore.ts'
import type { EncryptedWalletFile } from '../chain/keystore.ts'
import { writeWalletFile, writeWalletJson } from './wallet-file.ts'

/** a wallet file is well under 1 KiB; anything this large is not one */
const MAX_WALLET_FILE_BYTES = 64 * 1024

export class WalletFileError extends Error {}

/** the parsed JSON of a wallet file, with one clear line for each way it can be wrong */
export function readWalletJson (file: string): Partial<WalletFile & EncryptedWalletFile> {
  let size: number
  try { size = statSync(file).size } catch (err) {
    throw new WalletFileError(`cannot read wallet file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
  if (size > MAX_WALLET_FILE_BYTES) throw new WalletFileError(`${file} is ${size} bytes: not a wallet file (those are under 1 KiB)`)
  let data: unknown
  try { data = JSON.parse(readFileSync(file, 'utf8')) } catch { throw new WalletFileError(`${file} is not JSON: not a wallet file`) }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new WalletFileError(`${file} is not a JSON object: not a wallet file`)
  return data as Partial<WalletFile & EncryptedWalletFile>
}

export function isEncryptedFile (file: string): boolean {
  return isEncryptedWalletFile(readWalletJson(file))
}

/** The wallet in `file`; `passphrase` is called only when the file is encrypted. */
export async function openWalletFile (file: string, passphrase: () => Promise<string>): Promise<Wallet> {
  const data = readWalletJson(file)
  if (isEncryptedWalletFile(data)) return await decryptWallet(data, await passphrase(), file)
  try {
    return walletFromFile(data, file)
  } catch (err) {
    throw new WalletFileError((err as Error).message)
  }
}

/** The address a wallet file pays to, read without its passphrase (a keystore keeps it in clear). */
export function walletFileAddress (file: string): string {
  const data = readWalletJson(file)
  if (isEncryptedWalletFile(data)) {
    if (typeof data.address !== 'string' || !/^[0-9a-f]{32}$/.test(data.address)) throw new WalletFileError(`${file}: keystore has no valid address`)
    return data.address
  }
  try {
    return walletFromFile(data, file).address
  } catch (err) {
    throw new WalletFileError((err as Error).message)
  }
}

/** Writes `w` (0600, atomic): sealed under `passphrase` when one is given, else plain. */
export async function writeWalletFileMaybeEncrypted (file: string, w: Wallet, passphrase: string | undefined, cost?: { n: number; r: number; p: number }): Promise<void> {
  if (passphrase === undefined) {
    writeWalletFile(file, w)
    return
  }
  writeWalletJson(file, await encryptWallet(w, passphrase, cost))
}
