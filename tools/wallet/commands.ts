// `ledger keygen`, `ledger wallet address|balance|create|import|export-phrase|encrypt` and
// `ledger tx send|status`: the command-line wallet, a thin shell over the typed dashboard client
// (client/index.ts) and the key side in wallet-keys.ts. Every refusal of the node is printed in
// its own words, one line, exit 2.
import path from 'node:path'
import { readFileSync } from 'node:fs'
import type { Argv } from 'yargs'
// the client and the wallet (crypto) are imported when a command runs: `ledger --help` must
// not load them (issue 15)
import { DEFAULT_NODE_URL } from '../../client/defaults.ts'
import type { LedgerClient, TxStatus } from '../../client/index.ts'
import { defineCommand } from '../../core/kernel/plugin.ts'
import { UsageError } from '../../core/kernel/errors.ts'

/** a refusal the user can act on: one line, exit 2 (a UsageError, so the CLI prints it so) */
export class WalletCliError extends UsageError {}

/** the same variable the node reads its key from (DESIGN 1) */
const API_KEY_ENV_NAME = 'LEDGER_API_KEY'

interface NodeArgs { node?: string; json?: boolean }

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

/** `ledger wallet` / `ledger tx` with no action: their sub-commands' help, exit 2 */
function helpWhenBare (): { capture: <T>(y: Argv<T>) => Argv<T>; show: () => void } {
  let parent: Argv<unknown> | undefined
  return {
    capture: (y) => { parent = y as Argv<unknown>; return y },
    show: () => {
      parent?.showHelp('error')
      process.exitCode = 2
    }
  }
}

const writeOptions = <T>(y: Argv<T>) => y
  .option('out', { type: 'string', demandOption: true, describe: 'wallet file to write (mode 0600)' })
  .option('encrypt', { type: 'boolean', default: false, describe: 'seal the seed under a passphrase (asked on the terminal, or --password-file)' })
  .option('password-file', { type: 'string', describe: 'the passphrase is this file\'s first line (implies --encrypt)' })
  .option('light-kdf', { type: 'boolean', default: false, describe: 'scrypt N=2^12 instead of 2^17: fast to open, weak against guessing' })
  .option('force', { type: 'boolean', default: false, describe: 'overwrite an existing file' })
  .option('parents', { type: 'boolean', default: false, describe: 'create missing parent directories (mode 0700)' })

const walletFileOption = <T>(y: Argv<T>) => y.option('wallet', { type: 'string', demandOption: true, describe: 'wallet file (from ledger keygen or ledger wallet import)' })
const unlockOption = <T>(y: Argv<T>) => y.option('password-file', { type: 'string', describe: 'an encrypted wallet\'s passphrase: this file\'s first line [default: asked on the terminal]' })

const bareWallet = helpWhenBare()
const bareTx = helpWhenBare()

interface WriteFlags { out: string; encrypt: boolean; 'password-file'?: string; 'light-kdf': boolean; force: boolean; parents: boolean }

export const keygenCommand = defineCommand<WriteFlags>({
  command: 'keygen',
  describe: 'write a new ML-DSA-87 wallet file (same as `ledger wallet create`)',
  builder: (y) => writeOptions(y) as unknown as Argv<WriteFlags>,
  async handler (a) {
    const [{ generateWallet }, { writeNewWallet }] = await Promise.all([import('../../core/chain/wallet.ts'), import('./wallet-keys.ts')])
    await writeNewWallet(a, generateWallet())
  }
})

export const walletCommand = defineCommand<object>({
  command: 'wallet',
  describe: 'wallet files: address, balance, create, import, export-phrase, encrypt',
  builder: (w) => bareWallet.capture(w)
    .command('address', 'print a wallet file\'s address (no passphrase needed)', (c) => nodeOption(walletFileOption(c)), async (a) => {
      const { addressOfWalletFile } = await import('./wallet-keys.ts')
      const { address, vmAddress } = await addressOfWalletFile(a.wallet)
      console.log(a.json ? JSON.stringify({ address, vm_address: vmAddress }) : address)
    })
    .command('balance', 'ask the node for a wallet\'s balance (no passphrase needed)', (c) => nodeOption(walletFileOption(c)), async (a) => {
      const { addressOfWalletFile } = await import('./wallet-keys.ts')
      const { address } = await addressOfWalletFile(a.wallet)
      const c = await client(a)
      const acct = await cliCall(() => c.account(address))
      if (a.json) { console.log(JSON.stringify(acct)); return }
      console.log(`${acct.address}: ${acct.balance} coin (spendable ${acct.spendable}; ${acct.pending_count} pending; next nonce ${acct.next_nonce})`)
    })
    .command('create', 'write a new wallet file (like keygen; --encrypt to seal it)', writeOptions, async (a) => {
      const [{ writeNewWallet }, { generateWallet }] = await Promise.all([import('./wallet-keys.ts'), import('../../core/chain/wallet.ts')])
      await writeNewWallet(a, generateWallet())
    })
    .command('import', 'write a wallet file from a seed (64 hex) or a 24-word backup phrase', (c) => writeOptions(c)
      .option('seed', { type: 'string', describe: 'the 32-byte ML-DSA-87 seed, 64 hex (e.g. devnet\'s dev account, docs/chain.md)' })
      .option('phrase', { type: 'string', describe: 'the 24-word backup phrase, quoted' })
      .option('phrase-file', { type: 'string', describe: 'a file holding the backup phrase (keeps it out of the shell history)' })
      .example('$0 wallet import --seed 2b578edcb436596018d1348e70940cf16f07026b6618901cb01f727c3fbf97b7 --out dev.json', 'devnet\'s dev account'),
    async (a) => {
      const { writeNewWallet, importedWallet } = await import('./wallet-keys.ts')
      await writeNewWallet(a, await importedWallet(a))
    })
    .command('export-phrase', 'print the 24-word backup phrase of a wallet file (write it down, keep it offline)', (c) => unlockOption(walletFileOption(c)), async (a) => {
      const { exportPhrase } = await import('./wallet-keys.ts')
      const phrase = await exportPhrase(a.wallet, a)
      if (process.stdout.isTTY) console.error('Anyone with these 24 words can spend from this wallet. Write them down; keep them offline.')
      console.log(phrase)
    })
    .command('encrypt', 'seal a plain wallet file under a passphrase, in place', (c) => walletFileOption(c)
      .option('password-file', { type: 'string', describe: 'the new passphrase: this file\'s first line [default: asked twice on the terminal]' })
      .option('light-kdf', { type: 'boolean', default: false, describe: 'scrypt N=2^12 instead of 2^17: fast to open, weak against guessing' }),
    async (a) => {
      const { encryptWalletFile } = await import('./wallet-keys.ts')
      const w = await encryptWalletFile(a.wallet, a)
      console.log(JSON.stringify({ address: w.address, file: path.resolve(a.wallet), encrypted: true }, null, 2))
    }),
  handler: bareWallet.show
})

export const txCommand = defineCommand<object>({
  command: 'tx',
  describe: 'send a transfer, or follow a transaction',
  builder: (t) => bareTx.capture(t)
    .command('send', 'sign a transfer with a wallet file and submit it', (c) => unlockOption(nodeOption(c))
      .option('wallet', { type: 'string', demandOption: true, describe: 'the paying wallet file' })
      .option('to', { type: 'string', demandOption: true, describe: 'recipient: a 32-hex wallet address or a messenger user name' })
      .option('amount', { type: 'number', demandOption: true, describe: 'coin to transfer' })
      .option('fee', { type: 'number', describe: 'fee in coin [default: the node\'s low fee estimate]' })
      .option('memo', { type: 'string', describe: 'text carried in data.memo (shows in the chat room)' })
      .option('api-key', { type: 'string', describe: `the dashboard API key [default: $${API_KEY_ENV_NAME}]` })
      .option('api-key-file', { type: 'string', describe: 'file with the key (the node\'s <data dir>/api_key.json)' })
      .option('wait', { type: 'boolean', default: false, describe: 'follow the transaction until it is confirmed' })
      .option('timeout', { type: 'number', default: 120, describe: 'seconds --wait waits' }),
    async (a) => {
      const { unlockWallet } = await import('./wallet-keys.ts')
      const c = await client(a, resolveApiKey(a))
      const to = await cliCall(() => c.resolveRecipient(a.to))
      if (to.name !== undefined && !a.json) console.error(`${to.name} is ${to.address}`)
      const wallet = await unlockWallet(a.wallet, a)
      const tx = await cliCall(() => c.send(wallet, { to: to.address, amount: a.amount, fee: a.fee, memo: a.memo }))
      if (!a.wait) {
        console.log(a.json ? JSON.stringify({ status: 'accepted', tx_id: tx.transaction_id, nonce: tx.nonce, fee: tx.fee }) : `accepted: ${tx.transaction_id} (nonce ${tx.nonce}, fee ${tx.fee}); follow it with 'ledger tx status ${tx.transaction_id.slice(0, 8)}'`)
        return
      }
      if (!a.json) console.error(`accepted: ${tx.transaction_id}; waiting for a block ...`)
      const s = await cliCall(() => c.waitForConfirmation(tx.transaction_id, { timeoutMs: a.timeout * 1000 }))
      console.log(a.json ? JSON.stringify(s) : `${s.tx_id}: ${describeStatus(s)}`)
    })
    .command('status [id]', 'where a transaction is: pending or in which block', (c) => nodeOption(c)
      .positional('id', { type: 'string', describe: 'the transaction id, or a unique prefix of 8+ hex characters' }),
    async (a) => {
      const given = a.id
      // yargs would say only "Not enough non-option arguments"
      if (given === undefined) throw new WalletCliError('tx status needs a transaction id (or a unique prefix of 8+ hex): ledger tx status <id>')
      const c = await client(a)
      const id = await cliCall(() => c.resolveTxId(given))
      const s = await cliCall(() => c.tx(id))
      if (s === null) throw new WalletCliError(`transaction ${id} is unknown to the node (neither in a block nor in the mempool)`)
      console.log(a.json ? JSON.stringify(s) : `${s.tx_id}: ${describeStatus(s)}; ${s.amount} coin ${s.sender} -> ${s.recipient}, fee ${s.fee}`)
    }),
  handler: bareTx.show
})

export const commands = [keygenCommand, walletCommand, txCommand]
