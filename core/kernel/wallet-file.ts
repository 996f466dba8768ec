// Wallet files on disk (0600, written atomically and durably): what `ledger keygen` writes,
// what `ledger wallet` / `ledger tx` and the client read, and what the storage plugin keeps
// the node's wallets in. The kernel owns the data dir's file conventions; the key material
// itself is core/chain/wallet.ts.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import path from 'node:path'
import { walletFromFile, walletToFile } from '../chain/wallet.ts'
import type { Wallet, WalletFile } from '../chain/wallet.ts'

function fsyncPath (p: string, flags: string): void {
  const fd = openSync(p, flags)
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Atomic and durable write with owner-only permissions: tmp file written and fsynced, renamed
 *  over the target, then the directory fsynced, so the name is on disk too. A custodial wallet
 *  is written before the account record that points at it; after a crash the record never
 *  points at a file that is missing or half written. */
export function writeWalletFile (file: string, w: Wallet): void {
  writeWalletJson(file, walletToFile(w))
}

/** the same durable 0600 write for any wallet file form (plain or keystore) */
export function writeWalletJson (file: string, json: object): void {
  const dir = path.dirname(file)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = `${file}.tmp-${process.pid}`
  const fd = openSync(tmp, 'w', 0o600)
  try {
    writeSync(fd, JSON.stringify(json, null, 2) + '\n')
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, file)
  fsyncPath(dir, 'r')
}

export function readWalletFile (file: string): Wallet {
  return walletFromFile(JSON.parse(readFileSync(file, 'utf8')) as Partial<WalletFile>, file)
}
