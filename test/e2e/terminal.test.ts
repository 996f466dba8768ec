// What the operator's terminal shows, from a real `ledger run --network devnet`: JSON lines
// when stdout is not a terminal (a summary object, one line per block, periodic status
// lines), the readable summary with --log-format pretty, and `ledger --version`.
import t from 'tap'
import { waitUntil } from '../plugins/p2p/fixtures/processes.ts'
import { cleanup } from '../helpers/chain.ts'
import { ledger, startCliNode } from './fixtures/cli-node.ts'

type Line = Record<string, unknown> & { msg?: string }
const jsonLines = (out: string): Line[] => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line)

t.test('piped stdout: JSON summary, one line per block, status lines', async (t) => {
  const node = await startCliNode({ extraArgs: ['--status-interval', '1'] })
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir) })
  await waitUntil('two status lines and three mined blocks', async () => {
    const lines = jsonLines(node.output())
    return lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('height ')).length >= 2 && lines.filter((l) => l.msg === 'mined block').length >= 3
  }, 60_000)
  const lines = jsonLines(node.output())
  const summary = lines.find((l) => l.msg === 'node running')?.summary as { network: string; dataDir: string; urls: Record<string, unknown>; apiKey: string; adminCredentials: string } | undefined
  t.ok(summary, 'one summary object')
  t.equal(summary?.network, 'devnet')
  t.equal(summary?.dataDir, node.dataDir)
  t.match(summary?.urls, {
    chat: `http://127.0.0.1:${node.ports.port}/`,
    admin: `http://127.0.0.1:${node.ports.port}/admin`,
    explorer: `http://127.0.0.1:${node.ports.port}/explorer`,
    playground: `http://127.0.0.1:${node.ports.port}/playground`,
    dashboard: `http://127.0.0.1:${node.ports.dashboard}/`,
    entropy: `http://127.0.0.1:${node.ports.entropy}/api/health`
  })
  t.match((summary?.urls.p2p as string[])[0], new RegExp(`^/ip4/127\\.0\\.0\\.1/tcp/${node.ports.p2p}/p2p/`))
  t.equal(summary?.apiKey, `${node.dataDir}/api_key.json`)
  t.equal(summary?.adminCredentials, `${node.dataDir}/admin_credentials.json`)

  const mined = lines.filter((l) => l.msg === 'mined block')
  const height = mined[0]?.height
  const aboutThatBlock = lines.filter((l) => l.height === height && l.msg !== undefined && !l.msg.startsWith('height '))
  t.equal(aboutThatBlock.length, 1, 'one line per block')
  const status = lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('height '))
  t.match(status, { peers: 0, mempool: 0, sync: 'idle', msg: /^height \d+ · peers 0 · \d+ H\/s · mempool 0 · idle$/ })
})

t.test('--log-format pretty: the summary as lines to read', async (t) => {
  const node = await startCliNode({ extraArgs: ['--log-format', 'pretty', '--status-interval', '0'] })
  t.teardown(async () => { await node.stop(); cleanup(node.dataDir) })
  await waitUntil('the summary', async () => node.output().includes('  stop '), 30_000)
  const out = node.output().replace(/\x1b\[[0-9;]*m/g, '') // eslint-disable-line no-control-regex
  t.match(out, /ledger node running on devnet/)
  t.match(out, new RegExp(`\\n  dashboard    http://127\\.0\\.0\\.1:${node.ports.dashboard}/\\n`))
  t.match(out, /\n {2}stop {9}Ctrl-C, or SIGTERM/)
  t.notOk(out.includes('{"level"'), 'no JSON lines')
})

t.test('ledger --version', async (t) => {
  const r = await ledger(['--version'])
  t.equal(r.code, 0)
  t.match(r.stdout.trim(), /^ledger-node \d+\.\d+\.\d+ \(protocol \d+, node 24\.\d+\.\d+\)$/)
})

t.test('a bad --log-format is refused before anything starts', async (t) => {
  const r = await ledger(['run', '--network', 'devnet', '--log-format', 'xml'])
  t.equal(r.code, 2)
  t.match(r.stderr, /log-format/)
})
