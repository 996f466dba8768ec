// `ledger keygen`, `ledger wallet address|balance` and `ledger tx send|status`: the command-line
// wallet, a thin shell over the typed dashboard client (client/index.ts). Every refusal of the
// node is printed in its own words, one line, exit 2.
import path from 'node:path'
import { existsSync, readFileSync, statSync } from 'node:fs'
import type { Argv } from 'yargs'
// the client and the wallet (crypto) are imported when a command runs: `ledger --help` must
// not load them (issue 15)
import { DEFAULT_NODE_URL } from '../../client/defaults.ts'
import type { LedgerClient, TxStatus } from '../../client/index.ts'
import type { Wallet } from '../../core/chain/wallet.ts'
import { defineCommand } from '../../core/kernel/plugin.ts'
import { UsageError } from '../../core/kernel/errors.ts'

/** a refusal the user can act on: one line, exit 2 (a UsageError, so the CLI prints it so) */
export class WalletCliError extends UsageError {}

/** the same variable the node reads its key from (DESIGN 1) */
const API_KEY_ENV_NAME = 'LEDGER_API_KEY'

interface NodeArgs { node?: string; json?: boolean }

async function loadWallet (file: string): Promise<Wallet> {
  const abs = path.resolve(file)
  if (!existsSync(abs)) throw new WalletCliError(`wallet file ${abs} does not exist (make one with 'ledger keygen --out ${file}')`)
  const { readWalletFile } = await import('../../core/kernel/wallet-file.ts')
  try {
    return readWalletFile(abs)
  } catch (err) {
    const msg = (err as Error).message
    throw new WalletCliError(msg.startsWith(abs) ? msg : `${abs}: ${msg}`)
  }
}

/** --api-key, else --api-key-file (the node's api_key.json or a file holding just the key), else the env */
export function resolveApiKey (a: { 'api-key'?: string; 'api-key-file'?: string }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (a['api-key'] !== undefined) return a['api-key']
  if (a['api-key-file'] !== undefined) {
    const file = path.resolve(a['api-key-file'])
    let text: string
    try { text = readFileSync(file, 'utf8').trim() } catch (err) {
      throw new WalletCliError(`cannot read --api-key-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
    if (text.startsWith('{')) {
      let parsed: { api_key?: unknown }
      try { parsed = JSON.parse(text) as { api_key?: unknown } } catch { throw new WalletCliError(`${file} is neither a key nor valid JSON`) }
      if (typeof parsed.api_key !== 'string') throw new WalletCliError(`${file} has no "api_key" string`)
      return parsed.api_key
    }
    if (text.length === 0) throw new WalletCliError(`${file} is empty`)
    return text
  }
  const fromEnv = env[API_KEY_ENV_NAME]?.trim()
  return fromEnv !== undefined && fromEnv.length > 0 ? fromEnv : undefined
}

async function client (a: NodeArgs, apiKey?: string): Promise<LedgerClient> {
  const { LedgerClient } = await import('../../client/index.ts')
  try {
    return new LedgerClient({ node: a.node, apiKey })
  } catch (err) {
    throw new WalletCliError((err as Error).message)
  }
}

/** the node's refusals become one-line CLI errors; anything else is a bug and keeps its stack */
async function cliCall<T> (fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    const { LedgerClientError } = await import('../../client/index.ts')
    if (err instanceof LedgerClientError) throw new WalletCliError(err.status > 0 ? `node refused (${err.status}${err.code !== undefined ? ` ${err.code}` : ''}): ${err.message}` : err.message)
    throw err
  }
}

function describeStatus (s: TxStatus): string {
  return s.status === 'confirmed'
    ? `confirmed in block ${String(s.block_height)} (${s.confirmations} confirmation${s.confirmations === 1 ? '' : 's'})`
    : 'pending (in the mempool)'
}

const nodeOption = <T>(y: Argv<T>) => y
  .option('node', { type: 'string', default: DEFAULT_NODE_URL, describe: 'the node\'s dashboard URL' })
  .option('json', { type: 'boolean', default: false, describe: 'print JSON for scripts' })

interface KeygenArgs { out: string; force: boolean; parents: boolean }

export const keygenCommand = defineCommand<KeygenArgs>({
  command: 'keygen',
  describe: 'write a new ML-DSA-87 wallet file',
  builder: (y) => y
    .option('out', { type: 'string', demandOption: true, describe: 'wallet file to write (mode 0600)' })
    .option('force', { type: 'boolean', default: false, describe: 'overwrite an existing file' })
    .option('parents', { type: 'boolean', default: false, describe: 'create missing parent directories (mode 0700)' }),
  async handler (a) {
    const file = path.resolve(a.out)
    if (existsSync(file) && !a.force) throw new UsageError(`${file} exists; pass --force to overwrite`)
    // a typo in the path must not silently become a new directory tree holding a key
    const dir = path.dirname(file)
    if (!a.parents && !existsSync(dir)) throw new UsageError(`directory ${dir} does not exist; create it first or pass --parents`)
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a directory`)
    const [{ generateWallet }, { writeWalletFile }] = await Promise.all([import('../../core/chain/wallet.ts'), import('../../core/kernel/wallet-file.ts')])
    const w = generateWallet()
    writeWalletFile(file, w)
    console.log(JSON.stringify({ address: w.address, vm_address: w.vmAddress, file }, null, 2))
  }
})

interface WalletArgs extends NodeArgs { action: 'address' | 'balance'; wallet: string; node: string; json: boolean }

export const walletCommand = defineCommand<WalletArgs>({
  command: 'wallet <action>',
  describe: 'a wallet file\'s address or balance',
  builder: (w) => nodeOption(w)
    .positional('action', { choices: ['address', 'balance'] as const, demandOption: true, describe: 'address: print it; balance: ask the node' })
    .option('wallet', { type: 'string', demandOption: true, describe: 'wallet file (from ledger keygen)' }) as unknown as Argv<WalletArgs>,
  async handler (a) {
    const wallet = await loadWallet(a.wallet)
    if (a.action === 'address') {
      console.log(a.json ? JSON.stringify({ address: wallet.address, vm_address: wallet.vmAddress }) : wallet.address)
      return
    }
    const c = await client(a)
    const acct = await cliCall(() => c.account(wallet.address))
    if (a.json) { console.log(JSON.stringify(acct)); return }
    console.log(`${acct.address}: ${acct.balance} coin (spendable ${acct.spendable}; ${acct.pending_count} pending; next nonce ${acct.next_nonce})`)
  }
})

interface TxArgs extends NodeArgs {
  action: 'send' | 'status'
  id?: string
  wallet?: string
  to?: string
  amount?: number
  fee?: number
  memo?: string
  'api-key'?: string
  'api-key-file'?: string
  wait: boolean
  timeout: number
  json: boolean
}

export const txCommand = defineCommand<TxArgs>({
  command: 'tx <action> [id]',
  describe: 'send a transfer, or follow a transaction',
  builder: (t) => nodeOption(t)
    .positional('action', { choices: ['send', 'status'] as const, demandOption: true })
    .positional('id', { type: 'string', describe: 'status: the transaction id' })
    .option('wallet', { type: 'string', describe: 'send: the paying wallet file' })
    .option('to', { type: 'string', describe: 'send: recipient wallet address (32 hex)' })
    .option('amount', { type: 'number', describe: 'send: coin to transfer' })
    .option('fee', { type: 'number', describe: 'send: fee in coin [default: the node\'s low fee estimate]' })
    .option('memo', { type: 'string', describe: 'send: text carried in data.memo (shows in the chat room)' })
    .option('api-key', { type: 'string', describe: `send: the dashboard API key [default: $${API_KEY_ENV_NAME}]` })
    .option('api-key-file', { type: 'string', describe: 'send: file with the key (the node\'s <data dir>/api_key.json)' })
    .option('wait', { type: 'boolean', default: false, describe: 'send: follow the transaction until it is confirmed' })
    .option('timeout', { type: 'number', default: 120, describe: 'seconds --wait waits' }) as unknown as Argv<TxArgs>,
  async handler (a) {
    if (a.action === 'status') {
      if (a.id === undefined) throw new WalletCliError('tx status needs a transaction id: ledger tx status <id>')
      const id = a.id
      const c = await client(a)
      const s = await cliCall(() => c.tx(id))
      if (s === null) throw new WalletCliError(`transaction ${id} is unknown to the node (neither in a block nor in the mempool)`)
      console.log(a.json ? JSON.stringify(s) : `${s.tx_id}: ${describeStatus(s)}; ${s.amount} coin ${s.sender} -> ${s.recipient}, fee ${s.fee}`)
      return
    }
    for (const k of ['wallet', 'to', 'amount'] as const) if (a[k] === undefined) throw new WalletCliError(`tx send needs --${k}`)
    const wallet = await loadWallet(a.wallet as string)
    const c = await client(a, resolveApiKey(a))
    const tx = await cliCall(() => c.send(wallet, { to: a.to as string, amount: a.amount as number, fee: a.fee, memo: a.memo }))
    if (!a.wait) {
      console.log(a.json ? JSON.stringify({ status: 'accepted', tx_id: tx.transaction_id, nonce: tx.nonce, fee: tx.fee }) : `accepted: ${tx.transaction_id} (nonce ${tx.nonce}, fee ${tx.fee}); follow it with 'ledger tx status ${tx.transaction_id}'`)
      return
    }
    if (!a.json) console.error(`accepted: ${tx.transaction_id}; waiting for a block ...`)
    const s = await cliCall(() => c.waitForConfirmation(tx.transaction_id, { timeoutMs: a.timeout * 1000 }))
    console.log(a.json ? JSON.stringify(s) : `${s.tx_id}: ${describeStatus(s)}`)
  }
})

export const commands = [keygenCommand, walletCommand, txCommand]
