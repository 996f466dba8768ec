// The node's wallets under <dataDir>/wallets, one 0600 file each (the `wallets` service).
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { generateWallet, WalletLockedError } from '../../core/chain/wallet.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import { readWalletFile, writeWalletFile } from '../../core/kernel/wallet-file.ts'
import type { WalletStore } from '../../core/kernel/services.ts'

/** Wallets under <dataDir>/wallets: `node.json` is the miner's, others are custodial by label. */
export class FileWalletStore implements WalletStore {
  readonly dir: string
  readonly #cache = new Map<string, Wallet>()

  constructor (dir: string) {
    this.dir = dir
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  }

  #file (label: string): string {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(label)) throw new Error(`invalid wallet label '${label}'`)
    return path.join(this.dir, `${label}.json`)
  }

  has (label: string): boolean { return this.#cache.has(label) || existsSync(this.#file(label)) }

  get (label: string): Wallet | undefined {
    const hit = this.#cache.get(label)
    if (hit !== undefined) return hit
    const file = this.#file(label)
    if (!existsSync(file)) return undefined
    let w: Wallet
    try {
      w = readWalletFile(file)
    } catch (err) {
      // the node signs with these unattended (docs/operator.md#wallets): no passphrase to ask
      if (err instanceof WalletLockedError) throw new Error(`${file} is encrypted, but the node's own wallets stay plain (0600 in a 0700 data dir) so it runs unattended; put the plain file back, or keep an encrypted wallet outside the data dir and pay the miner to it with --miner-wallet FILE`)
      throw err
    }
    this.#cache.set(label, w)
    return w
  }

  /** Returns the wallet under `label`, creating and persisting a new one if absent. */
  getOrCreate (label: string): Wallet {
    const existing = this.get(label)
    if (existing !== undefined) return existing
    const w = generateWallet()
    writeWalletFile(this.#file(label), w)
    this.#cache.set(label, w)
    return w
  }

  /** Stores a fresh wallet under `label`, replacing any old one (a re-signup gets a new wallet). */
  create (label: string): Wallet {
    const w = generateWallet()
    writeWalletFile(this.#file(label), w)
    this.#cache.set(label, w)
    return w
  }

  labels (): string[] {
    return readdirSync(this.dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5))
  }

  nodeWallet (): Wallet { return this.getOrCreate('node') }
}
