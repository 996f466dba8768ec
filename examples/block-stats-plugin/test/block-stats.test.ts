// The plugin on a real devnet node, as an operator runs it: `ledger run` in this package's
// folder reads ./ledger.config.ts, which lists the plugin by package name. The node mines; a
// transfer sent with ledger-node/client must show up in the plugin's counts.
import t from 'tap'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { LedgerClient, walletFromSeed } from 'ledger-node/client'

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..')

// the `ledger` command of the installed ledger-node, found through its package.json
const ledgerPackageJson = fileURLToPath(import.meta.resolve('ledger-node/package.json'))
const LEDGER_BIN = path.resolve(path.dirname(ledgerPackageJson), (JSON.parse(readFileSync(ledgerPackageJson, 'utf8')) as { bin: { ledger: string } }).bin.ledger)

// devnet's pre-funded account: a PUBLIC development key, like geth --dev's
const DEVNET_DEV_SEED = '2b578edcb436596018d1348e70940cf16f07026b6618901cb01f727c3fbf97b7'
const RECIPIENT = '00000000000000000000000000000001'

interface Stats { blocks: number; transactions: number; reorgs: number; last_height: number | null; average_txs: number; tip_height: number }

async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** polls `check` until it returns a value, at most `ms` */
async function waitFor<T> (what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`gave up after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function stop (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const hard = setTimeout(() => child.kill('SIGKILL'), 15_000)
  await exited
  clearTimeout(hard)
}

t.test('a devnet node loads the plugin by package name and the plugin counts what the chain connects', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'block-stats-'))
  const ports = { http: await freePort(), dashboard: await freePort(), entropy: await freePort() }
  const child = spawn(process.execPath, [LEDGER_BIN, 'run', '--data-dir', dataDir, '--log-format', 'json',
    '--port', String(ports.http), '--dashboard-port', String(ports.dashboard), '--entropy-port', String(ports.entropy)],
  { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => { output += d })
  child.stderr.setEncoding('utf8').on('data', (d: string) => { output += d })
  t.teardown(async () => { await stop(child); rmSync(dataDir, { recursive: true, force: true }) })

  const stats = async (): Promise<Stats | undefined> => {
    if (child.exitCode !== null) throw new Error(`the node exited with ${child.exitCode}:\n${output}`)
    try {
      const res = await fetch(`http://127.0.0.1:${ports.http}/api/block-stats`, { signal: AbortSignal.timeout(5000) })
      return res.status === 200 ? await res.json() as Stats : undefined
    } catch { return undefined }
  }

  const first = await waitFor('the node to serve /api/block-stats and mine two blocks', 90_000, async () => {
    const s = await stats()
    return s !== undefined && s.blocks >= 2 ? s : undefined
  })
  t.ok(first.blocks >= 2, 'the plugin saw the mined blocks')
  t.equal(first.reorgs, 0, 'a lone node has no reorgs')

  const client = new LedgerClient({
    node: `http://127.0.0.1:${ports.dashboard}`,
    apiKey: (JSON.parse(readFileSync(path.join(dataDir, 'api_key.json'), 'utf8')) as { api_key: string }).api_key
  })
  const tx = await client.send(walletFromSeed(Buffer.from(DEVNET_DEV_SEED, 'hex')), { to: RECIPIENT, amount: 1, memo: 'counted' })
  const confirmed = await client.waitForConfirmation(tx.transaction_id, { timeoutMs: 90_000, pollMs: 250 })
  const height = confirmed.block_height as number
  t.ok(height > 0, `the transfer was confirmed at height ${height}`)

  const after = await waitFor(`the plugin to count block ${height}`, 30_000, async () => {
    const s = await stats()
    return s !== undefined && s.last_height !== null && s.last_height >= height ? s : undefined
  })
  // the node started from genesis: it connected every block since, each with its coinbase
  t.equal(after.blocks, after.last_height, 'every block since genesis was counted once')
  t.equal(after.transactions - after.blocks, 1, 'one transaction besides the coinbases: the transfer')
  t.equal(after.reorgs, 0, 'still no reorgs')
  t.ok(after.tip_height >= height, 'the route reads the tip through the chain service')
  t.ok((await client.chain()).height >= height, 'the chain the client reads agrees')

  await stop(child)
  t.equal(child.exitCode, 0, 'the node stopped cleanly', child.exitCode === 0 ? {} : { output })
})
