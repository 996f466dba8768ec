// ML-DSA-87 wallet files (0600) and the store of the node's own and custodial wallets.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeSync } from 'node:fs'
import path from 'node:path'
import { mldsa } from './crypto/mldsa.ts'
import { walletAddressFromPublicKey, vmAddressOf } from './chain/address.ts'

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
  const dir = path.dirname(file)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = `${file}.tmp-${process.pid}`
  const fd = openSync(tmp, 'w', 0o600)
  try {
    writeSync(fd, JSON.stringify(walletToFile(w), null, 2) + '\n')
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, file)
  fsyncPath(dir, 'r')
}

export function readWalletFile (file: string): Wallet {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<WalletFile>
  if (data.kind !== 'ml-dsa-87' || typeof data.seed !== 'string' || !/^[0-9a-f]{64}$/.test(data.seed)) throw new Error(`${file} is not an ML-DSA-87 wallet file`)
  const w = walletFromSeed(Buffer.from(data.seed, 'hex'))
  if (data.address !== undefined && data.address !== w.address) throw new Error(`${file}: address does not match its key`)
  return w
}

/** Wallets under <dataDir>/wallets: `node.json` is the miner's, others are custodial by label. */
export class WalletStore {
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
    const w = readWalletFile(file)
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
