// The indexer on a real devnet node started from this folder (`ledger run` reads
// ./ledger.config.ts: this plugin and the policy example, by package name). The node mines; a
// transfer shows in the index with the balances the node itself reports; a transfer the policy
// refuses never reaches it; after a SIGKILL and a restart the index resumes with no block twice.
import t from 'tap'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { LedgerClient, LedgerClientError, walletFromSeed } from 'ledger-node/client'
import { bohmToCoin } from 'ledger-node/plugin'
import type { Transfer } from '../store.ts'

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..')
const ledgerPackageJson = fileURLToPath(import.meta.resolve('ledger-node/package.json'))
const LEDGER_BIN = path.resolve(path.dirname(ledgerPackageJson), (JSON.parse(readFileSync(ledgerPackageJson, 'utf8')) as { bin: { ledger: string } }).bin.ledger)
// devnet's pre-funded account: a PUBLIC development key, like geth --dev's
const DEV = walletFromSeed(Buffer.from('2b578edcb436596018d1348e70940cf16f07026b6618901cb01f727c3fbf97b7', 'hex'))
const RECIPIENT = '0000000000000000000000000000beef'

interface Status { height: number | null; hash: string | null }
interface AddressIndex { address: string; balance_bohm: string; transfers: Transfer[] }

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

async function waitFor<T> (what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`gave up after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function exited (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await new Promise((resolve) => child.once('exit', resolve))
}

t.test('the index follows the node: balances as the node reports them, exactly once across a SIGKILL', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chain-indexer-'))
  const ports = { http: await freePort(), dashboard: await freePort(), entropy: await freePort() }
  let child: ChildProcess | undefined
  let output = ''
  const start = (): ChildProcess => {
    const c = spawn(process.execPath, [LEDGER_BIN, 'run', '--data-dir', dataDir, '--log-format', 'json',
      '--port', String(ports.http), '--dashboard-port', String(ports.dashboard), '--entropy-port', String(ports.entropy)],
    { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] })
    c.stdout?.setEncoding('utf8').on('data', (d: string) => { output += d })
    c.stderr?.setEncoding('utf8').on('data', (d: string) => { output += d })
    return c
  }
  child = start()
  t.teardown(async () => {
    if (child !== undefined) { child.kill('SIGKILL'); await exited(child) }
    rmSync(dataDir, { recursive: true, force: true })
  })
  const get = async <T>(url: string): Promise<T | undefined> => {
    if (child?.exitCode !== null && child?.exitCode !== undefined) throw new Error(`the node exited with ${child.exitCode}:\n${output}`)
    try {
      const res = await fetch(`http://127.0.0.1:${ports.http}${url}`, { signal: AbortSignal.timeout(5000) })
      return res.status === 200 ? await res.json() as T : undefined
    } catch { return undefined }
  }
  const indexedAt = async (height: number): Promise<Status> => await waitFor(`the index at height ${height}`, 90_000, async () => {
    const s = await get<Status>('/api/indexer/status')
    return s !== undefined && s.height !== null && s.height >= height ? s : undefined
  })
  await indexedAt(2)

  const client = new LedgerClient({
    node: `http://127.0.0.1:${ports.dashboard}`,
    apiKey: (JSON.parse(readFileSync(path.join(dataDir, 'api_key.json'), 'utf8')) as { api_key: string }).api_key
  })
  const refused = await client.send(DEV, { to: RECIPIENT, amount: 5, memo: 'casino night' }).then(() => undefined, (err: unknown) => err)
  t.ok(refused instanceof LedgerClientError, 'the policy plugin refused the memo')
  t.match(refused, { status: 400, code: 'POLICY_MEMO' })

  const tx = await client.send(DEV, { to: RECIPIENT, amount: 1.5, memo: 'rent' })
  const confirmed = await client.waitForConfirmation(tx.transaction_id, { timeoutMs: 90_000, pollMs: 250 })
  await indexedAt(confirmed.block_height as number)
  const compare = async (): Promise<void> => {
    const recipient = await get<AddressIndex>(`/api/indexer/address/${RECIPIENT}`)
    t.equal(recipient?.balance_bohm, '1500000000000000000', 'the recipient holds 1.5 coin in the index')
    t.same(recipient?.transfers.map((x) => x.tx_id), [tx.transaction_id], 'one transfer, the one sent')
    const dev = await get<AddressIndex>(`/api/indexer/address/${DEV.address}`)
    t.equal(bohmToCoin(BigInt(dev?.balance_bohm ?? '0')), (await client.account(DEV.address)).balance, 'the sender\'s balance is the node\'s')
  }
  await compare()

  // a crash: the index resumes from its own cursor, no block applied twice
  const tip = await indexedAt(confirmed.block_height as number)
  child.kill('SIGKILL')
  await exited(child)
  child = start()
  await indexedAt((tip.height ?? 0) + 2)
  await compare()
  child.kill('SIGTERM')
  await exited(child)
  child = undefined
})
