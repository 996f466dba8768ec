// No source, no mining: a node drawing from an external entropy service (--entropy-url) halts
// when that service dies, says so on the dashboard, and resumes by itself when it returns.
import t from 'tap'
import { startTestNode } from '../../helpers/node.ts'
import { silentLogger } from '../../helpers/chain.ts'
import { startEntropyServer } from '../../../plugins/entropy-aggregator/standalone.ts'
import type { RunningEntropyServer } from '../../../plugins/entropy-aggregator/standalone.ts'

async function until (what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const serve = (port = 0): Promise<RunningEntropyServer> =>
  startEntropyServer({ network: 'devnet', port, sources: ['beacon-devnet', 'self-hosted'], logger: silentLogger })

t.test('the miner halts without entropy and resumes when the source returns', async (t) => {
  let server = await serve()
  const port = server.port
  const node = await startTestNode({
    plugins: ['storage', 'consensus', 'http', 'entropy-aggregator', 'miner', 'dashboard'],
    config: { 'entropy-aggregator': { url: server.url }, miner: { threads: 1 } }
  })
  t.teardown(async () => { await node.stop(); await server.close() })
  const chain = node.resolve('chain')
  const miner = node.resolve('miner')
  const dashboard = node.resolve('dashboardHttp')
  const status = async (): Promise<{ mining_active: boolean, qrng_reachable: boolean }> =>
    (await dashboard.inject({ method: 'GET', url: '/api/status' })).json()

  await until('two mined blocks', () => chain.tip().height >= 2)
  t.match(await status(), { mining_active: true, qrng_reachable: true })
  const block = await chain.getBlockByHeight(chain.tip().height)
  const env = block?.quantum_signature?.qrng_attestation
  t.equal(env?.source, 'aggregator:beacon-devnet+self-hosted', 'the attestation names the sources behind the external service')
  t.same(env?.beacons.map((b) => b.source), ['beacon-devnet'], 'with the beacon round the external aggregator handed over (GET /api/random/attested)')

  await server.close()
  await until('the miner to halt', () => miner.status().halted_reason !== null)
  t.match(miner.status().halted_reason, /entropy/, 'the halt names the missing entropy')
  await until('the dashboard to report the halt', async () => {
    const s = await status()
    return !s.mining_active && !s.qrng_reachable
  })
  const haltedAt = chain.tip().height
  // the halted miner keeps asking for entropy (with a backoff): let it be refused twice more
  const entropy = node.resolve('entropy')
  const getBytes = entropy.getBytes.bind(entropy)
  let refused = 0
  entropy.getBytes = async (n) => {
    try { return await getBytes(n) } catch (err) { refused++; throw err }
  }
  t.teardown(() => { entropy.getBytes = getBytes })
  await until('the miner to be refused entropy twice more', () => refused >= 2)
  t.ok(chain.tip().height <= haltedAt + 1, 'no block is mined without a source (one search may have been under way)')

  server = await serve(port)
  await until('mining to resume', () => miner.status().halted_reason === null && chain.tip().height >= haltedAt + 2, 40_000)
  t.match(await status(), { mining_active: true, qrng_reachable: true })
})
