// The key side of the command-line wallet: create, import (seed or backup phrase), export the
// phrase, encrypt, and open a wallet to spend. commands.ts (keygen, wallet, tx) only wires flags to
// these. Errors a user can fix are UsageErrors (one line, exit 2).
import path from 'node:path'
import { existsSync, statSync } from 'node:fs'
import { UsageError } from '../../core/kernel/errors.ts'
import type { Wallet } from '../../core/chain/wallet.ts'

/** geth's --lightkdf: scrypt N = 2^12, for tests and small machines; weaker against guessing */
export const LIGHT_SCRYPT = { n: 2 ** 12, r: 8, p: 1 } as const

export interface WriteArgs {
  out: string
  force?: boolean
  parents?: boolean
  encrypt?: boolean
  'password-file'?: string
  'light-kdf'?: boolean
}

export interface UnlockArgs { 'password-file'?: string }

/** a wallet file path that may be written: absolute, not clobbering, parent present (or --parents) */
export function outFile (a: Pick<WriteArgs, 'out' | 'force' | 'parents'>): string {
  const file = path.resolve(a.out)
  if (existsSync(file) && a.force !== true) throw new UsageError(`${file} exists; pass --force to overwrite`)
  // a typo in the path must not silently become a new directory tree holding a key
  const dir = path.dirname(file)
  if (a.parents !== true && !existsSync(dir)) throw new UsageError(`directory ${dir} does not exist; create it first or pass --parents`)
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a directory`)
  return file
}

async function userError<T> (fn: () => Promise<T>): Promise<T> {
  const [{ PassphraseError }, { KeystoreError }, { WalletFileError }, { BackupPhraseError }, { WalletLockedError }] = await Promise.all([
    import('./passphrase.ts'), import('../../core/chain/keystore.ts'), import('../../core/kernel/wallet-keystore-file.ts'), import('../../core/chain/backup-phrase.ts'), import('../../core/chain/wallet.ts')
  ])
  try {
    return await fn()
  } catch (err) {
    if (err instanceof PassphraseError || err instanceof KeystoreError || err instanceof WalletFileError || err instanceof BackupPhraseError || err instanceof WalletLockedError) throw new UsageError((err as Error).message)
    throw err
  }
}

/** Writes `w` to --out, sealed when --encrypt or --password-file is given; prints what a script needs. */
export async function writeNewWallet (a: WriteArgs, w: Wallet): Promise<void> {
  const file = outFile(a)
  const encrypt = a.encrypt === true || a['password-file'] !== undefined
  await userError(async () => {
    const [{ getPassphrase }, { writeWalletFileMaybeEncrypted }] = await Promise.all([import('./passphrase.ts'), import('../../core/kernel/wallet-keystore-file.ts')])
    const passphrase = encrypt ? await getPassphrase({ 'password-file': a['password-file'], purpose: `the new wallet ${path.basename(file)}`, confirm: true }) : undefined
    await writeWalletFileMaybeEncrypted(file, w, passphrase, a['light-kdf'] === true ? LIGHT_SCRYPT : undefined)
  })
  console.log(JSON.stringify({ address: w.address, vm_address: w.vmAddress, file, encrypted: encrypt }, null, 2))
}

export interface ImportArgs extends WriteArgs {
  seed?: string
  phrase?: string
  'phrase-file'?: string
}

/** the wallet an import names: exactly one of --seed, --phrase, --phrase-file */
export async function importedWallet (a: ImportArgs): Promise<Wallet> {
  const given = (['seed', 'phrase', 'phrase-file'] as const).filter((k) => a[k] !== undefined)
  if (given.length !== 1) throw new UsageError(`wallet import needs exactly one of --seed HEX, --phrase "24 words", --phrase-file FILE${given.length > 1 ? ` (got ${given.map((k) => `--${k}`).join(' and ')})` : ''}`)
  const { walletFromSeed } = await import('../../core/chain/wallet.ts')
  if (a.seed !== undefined) {
    const hex = a.seed.trim().replace(/^0x/, '').toLowerCase()
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new UsageError('--seed must be the 32-byte ML-DSA-87 seed as 64 hex characters')
    return walletFromSeed(Buffer.from(hex, 'hex'))
  }
  return await userError(async () => {
    const { phraseToSeed } = await import('../../core/chain/backup-phrase.ts')
    let phrase = a.phrase
    if (a['phrase-file'] !== undefined) {
      const { readFileSync } = await import('node:fs')
      try { phrase = readFileSync(path.resolve(a['phrase-file']), 'utf8').slice(0, 4096) } catch (err) {
        throw new UsageError(`cannot read --phrase-file ${path.resolve(a['phrase-file'])}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
      }
    }
    return walletFromSeed(phraseToSeed(phrase ?? ''))
  })
}

/** Opens a wallet file to sign with, asking its passphrase only when it is encrypted. */
export async function unlockWallet (file: string, a: UnlockArgs): Promise<Wallet> {
  const abs = path.resolve(file)
  if (!existsSync(abs)) throw new UsageError(`wallet file ${abs} does not exist (make one with 'ledger keygen --out ${file}' or 'ledger wallet import')`)
  return await userError(async () => {
    const [{ getPassphrase }, { openWalletFile }] = await Promise.all([import('./passphrase.ts'), import('../../core/kernel/wallet-keystore-file.ts')])
    return await openWalletFile(abs, () => getPassphrase({ 'password-file': a['password-file'], purpose: path.basename(abs) }))
  })
}

/** The address of a wallet file, with no passphrase (a keystore keeps it readable). */
export async function addressOfWalletFile (file: string): Promise<{ address: string; vmAddress: string }> {
  const abs = path.resolve(file)
  if (!existsSync(abs)) throw new UsageError(`wallet file ${abs} does not exist (make one with 'ledger keygen --out ${file}' or 'ledger wallet import')`)
  return await userError(async () => {
    const [{ walletFileAddress }, { vmAddressOf }] = await Promise.all([import('../../core/kernel/wallet-keystore-file.ts'), import('../../core/chain/address.ts')])
    const address = walletFileAddress(abs)
    return { address, vmAddress: vmAddressOf(address) }
  })
}

/** the 24-word backup phrase of a wallet file */
export async function exportPhrase (file: string, a: UnlockArgs): Promise<string> {
  const w = await unlockWallet(file, a)
  const { seedToPhrase } = await import('../../core/chain/backup-phrase.ts')
  return seedToPhrase(w.seed)
}

/** Rewrites a plain wallet file sealed under a new passphrase (in place, atomically). */
export async function encryptWalletFile (file: string, a: Omit<WriteArgs, 'out' | 'force' | 'parents' | 'encrypt'>): Promise<Wallet> {
  const abs = path.resolve(file)
  const { isEncryptedFile } = await import('../../core/kernel/wallet-keystore-file.ts')
  if (existsSync(abs) && await userError(async () => isEncryptedFile(abs))) throw new UsageError(`${abs} is already encrypted`)
  const w = await unlockWallet(abs, {})
  await userError(async () => {
    const [{ getPassphrase }, { writeWalletFileMaybeEncrypted }] = await Promise.all([import('./passphrase.ts'), import('../../core/kernel/wallet-keystore-file.ts')])
    const passphrase = await getPassphrase({ 'password-file': a['password-file'], purpose: path.basename(abs), confirm: true })
    await writeWalletFileMaybeEncrypted(abs, w, passphrase, a['light-kdf'] === true ? LIGHT_SCRYPT : undefined)
  })
  return w
}
