// Black box, as an operator runs it: three `ledger run --network devnet` processes with the
// standard profile (ledger.config.ts), two mining with the real miner on the built-in entropy
// aggregator, one relay (--no-mine), joined by --peer. They must agree on one tip, every block
// carrying a verified attestation, and a transfer submitted to the relay must be mined by a miner.
import t from 'tap'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { freePort, waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import { tmpDir, cleanup } from '../helpers/chain.ts'
import { transfer } from '../helpers/chain.ts'
import { walletFromSeed } from '../../core/chain/wallet.ts'
import { DEVNET_DEV_ACCOUNT, networkParams } from '../../config/networks.ts'
import { stopChild } from '../helpers/process.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node')

interface RealNode {
  name: string
  dataDir: string
  p2p: string
  dashboard: string
  log: string[]
  get<T> (url: string, headers?: Record<string, string>): Promise<T>
  post (url: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }>
  stop (): Promise<void>
}

async function startNode (t: { teardown (fn: () => unknown): void }, name: string, opts: { mine: boolean, peers?: string[] }): Promise<RealNode> {
  const dataDir = tmpDir(`ledger-e2e-real-${name}-`)
  const [p2pPort, port, dashboardPort, entropyPort] = [await freePort(), await freePort(), await freePort(), await freePort()]
  const args = [path.join(ROOT, 'bin', 'ledger.ts'), 'run', '--network', 'devnet', '--data-dir', dataDir,
    '--p2p-port', String(p2pPort), '--port', String(port), '--dashboard-port', String(dashboardPort), '--entropy-port', String(entropyPort),
    opts.mine ? '--mine' : '--no-mine', ...(opts.peers ?? []).flatMap((p) => ['--peer', p])]
  const child = spawn(NODE, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  const log: string[] = []
  child.stdout.setEncoding('utf8').on('data', (d: string) => log.push(d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => log.push(d))
  const dashboard = `http://127.0.0.1:${dashboardPort}`
  const node: RealNode = {
    name,
    dataDir,
    p2p: `127.0.0.1:${p2pPort}`,
    dashboard,
    log,
    async get<T> (url: string, headers: Record<string, string> = {}): Promise<T> {
      const res = await fetch(dashboard + url, { headers, signal: AbortSignal.timeout(5000) })
      if (res.status !== 200) throw new Error(`${name} GET ${url}: ${res.status}`)
      return await res.json() as T
    },
    async post (url: string, body: unknown, headers: Record<string, string> = {}) {
      const res = await fetch(dashboard + url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) })
      return { status: res.status, json: await res.json() as Record<string, unknown> }
    },
    async stop () { await stopChild(child, 10_000) }
  }
  t.teardown(async () => { await node.stop(); cleanup(dataDir) })
  await waitUntil(`${name} to serve its dashboard`, async () => {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${log.join('')}`)
    try { await node.get('/api/status'); return true } catch { return false }
  }, 40_000)
  return node
}

interface Status { chain_height: number, peer_count: number, mining_active: boolean, sync_state: string }
interface ChainSummary { height: number, tip_hash: string }

t.test('three CLI nodes, two mining with the real miner, converge and carry a transfer', async (t) => {
  const a = await startNode(t, 'a', { mine: true })
  const b = await startNode(t, 'b', { mine: true, peers: [a.p2p] })
  const c = await startNode(t, 'c', { mine: false, peers: [a.p2p, b.p2p] })
  const nodes = [a, b, c]
  await waitUntil('every node to count two peers', async () =>
    (await Promise.all(nodes.map((n) => n.get<Status>('/api/status')))).every((s) => s.peer_count === 2), 40_000)

  // mining_active is momentary (a miner idles while a sync from a new peer starts): wait for it
  await waitUntil('a and b to mine while c relays', async () =>
    (await Promise.all(nodes.map((n) => n.get<Status>('/api/status')))).map((s) => s.mining_active).join() === 'true,true,false', 40_000)
  const statuses = await Promise.all(nodes.map((n) => n.get<Status>('/api/status')))
  t.same(statuses.map((s) => s.mining_active), [true, true, false], 'a and b mine, c relays')

  // a transfer from devnet's pre-funded account, submitted to the relay, must be mined by a or b
  const apiKey = (JSON.parse(readFileSync(path.join(c.dataDir, 'api_key.json'), 'utf8')) as { api_key: string }).api_key
  const dev = walletFromSeed(Buffer.from(DEVNET_DEV_ACCOUNT.seed, 'hex'))
  const tx = transfer(networkParams('devnet'), dev, 'f'.repeat(32), 1.5, 0, { withKey: true })
  const submitted = await c.post('/api/tx/submit', tx, { authorization: `Bearer ${apiKey}` })
  t.equal(submitted.status, 200, `submit accepted: ${JSON.stringify(submitted.json)}`)
  const txId = tx.transaction_id

  let tips: ChainSummary[] = []
  await waitUntil('one tip on all three, past the block holding the transfer', async () => {
    tips = await Promise.all(nodes.map((n) => n.get<ChainSummary>('/api/chain')))
    if (!tips.every((s) => s.tip_hash === tips[0]!.tip_hash && s.height >= 6)) return false
    const seen = await c.get<{ status: string }>(`/api/tx/${txId}`).catch(() => ({ status: 'unknown' }))
    return seen.status === 'confirmed'
  }, 120_000)
  t.pass(`converged at height ${tips[0]!.height} (${tips[0]!.tip_hash.slice(0, 16)}…)`)

  // every block on the relay's chain was mined by a or b and carries its attestation
  const minedBy = new Set<string>()
  for (let h = 1; h <= tips[0]!.height; h++) {
    const block = await c.get<{ miner: string, qrng_attestation_present: boolean, qrng_source: string | null }>(`/api/block/${h}`)
    minedBy.add(block.miner)
    t.ok(block.qrng_attestation_present && block.qrng_source?.startsWith('aggregator:'), `block ${h} is attested by the aggregator (${block.qrng_source})`)
  }
  t.ok(minedBy.size >= 1 && minedBy.size <= 2, `blocks come from the two miners (${[...minedBy].join(', ')})`)
  const finals = await Promise.all(nodes.map((n) => n.get<Status>('/api/status')))
  t.ok(finals.every((s) => s.sync_state === 'synced' || s.sync_state === 'idle'), 'no node is stuck syncing')
})
