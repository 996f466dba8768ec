// The command line as a user types it, parsed in-process (buildCli): keygen refuses to invent
// directories (issue 14 item 13) and run takes --p2p-host (item 11).
import t from 'tap'
import path from 'node:path'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { buildCli, commandLine, flagOverrides, UsageError } from '../../core/kernel/cli.ts'
import { tmpDir, cleanup } from '../helpers/chain.ts'

async function run (argv: string[]): Promise<void> {
  await buildCli(argv, await commandLine(argv)).exitProcess(false).parseAsync()
}

t.test('keygen --out refuses a missing parent directory unless --parents', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const missing = path.join(dir, 'nonexistent', 'deeper', 'w.json')
  await t.rejects(run(['keygen', '--out', missing]), new UsageError(`directory ${path.dirname(missing)} does not exist; create it first or pass --parents`))
  t.equal(existsSync(path.join(dir, 'nonexistent')), false, 'nothing was created')

  const file = path.join(dir, 'plain-file')
  writeFileSync(file, 'x')
  await t.rejects(run(['keygen', '--out', path.join(file, 'w.json'), '--parents']), { message: /is not a directory/ })

  const log = t.capture(console, 'log')
  await run(['keygen', '--out', missing, '--parents'])
  t.equal(statSync(missing).mode & 0o777, 0o600, 'written with mode 0600 after creating the parents')
  t.equal(statSync(path.dirname(missing)).mode & 0o777, 0o700)
  const out = JSON.parse(log().map((c) => c.args.join(' ')).join('\n')) as { address: string; file: string }
  t.match(out.address, /^[0-9a-f]{32}$/)
  t.equal(out.file, missing)

  const beside = path.join(dir, 'w2.json')
  await run(['keygen', '--out', beside])
  t.ok(existsSync(beside), 'an existing directory needs no flag')
  await t.rejects(run(['keygen', '--out', beside]), { message: /exists; pass --force/ })
})

t.test('--p2p-host reaches the p2p section', async (t) => {
  const { flags } = await commandLine(['run'])
  t.same(flagOverrides({ 'p2p-host': '127.0.0.1', 'p2p-port': 4001 }, flags), { p2p: { host: '127.0.0.1', port: 4001 } })
  t.same(flagOverrides({}, flags), {})
})

t.test('the plugins\' flags set their sections as they did when the kernel named them', async (t) => {
  const { flags } = await commandLine(['run'])
  t.same(flagOverrides({ host: '0.0.0.0', port: 1, 'dashboard-host': 'h', 'dashboard-port': 2, 'entropy-port': 3, 'entropy-url': 'http://e', peer: ['a:1'], mine: false, 'log-level': 'warn' }, flags), {
    http: { host: '0.0.0.0', port: 1 },
    dashboard: { host: 'h', port: 2 },
    'entropy-aggregator': { port: 3, url: 'http://e' },
    p2p: { peers: ['a:1'] },
    miner: { enabled: false },
    logLevel: 'warn'
  })
  t.same(flagOverrides({ mine: true, peer: [] }, flags), {}, '--mine and an empty --peer change nothing')
  t.throws(() => flagOverrides({ 'dashboard-port': 70000 }, flags), new UsageError('--dashboard-port must be a port number 0-65535'))
})

t.test('every command of the tools and the built-in plugins, in the order the CLI names them', async (t) => {
  const line = await commandLine([])
  await t.rejects(run([]), new UsageError(`name a command: run, ${['bench', 'status', 'peers', 'testbed', 'verify', 'keygen', 'wallet', 'tx', 'entropy', 'resync'].join(', ')}`))
  t.ok(line.commands.length >= 7)
})

t.test('miner flags reach the miner section; the default leaves a core free', async (t) => {
  const { flags } = await commandLine(['run'])
  t.same(flagOverrides({ 'mine-threads': 3, 'miner-wallet': 'pay.json', 'miner-sync-wait': 0 }, flags), { miner: { threads: 3, walletFile: path.resolve('pay.json'), syncWaitSeconds: 0 } })
  t.same(flagOverrides({ mine: false, 'mine-threads': 2 }, flags), { miner: { enabled: false, threads: 2 } })
  t.throws(() => flagOverrides({ 'mine-threads': -1 }, flags), new UsageError('--mine-threads must be a non-negative integer'))
  t.same(flagOverrides({ 'mine-duty': 25 }, flags), { miner: { duty: 25 } })
  t.same(flagOverrides({ 'mine-duty': 1 }, flags), { miner: { duty: 1 } })
  t.same(flagOverrides({ 'mine-duty': 100 }, flags), { miner: { duty: 100 } })
  // yargs hands a non-number as NaN
  for (const bad of [0, 101, 12.5, -20, Number.NaN]) t.throws(() => flagOverrides({ 'mine-duty': bad }, flags), new UsageError('--mine-duty must be an integer percent from 1 to 100'), String(bad))
  const { defaultMinerThreads } = await import('../../plugins/miner/manifest.ts')
  t.equal(defaultMinerThreads(8), 7)
  t.equal(defaultMinerThreads(2), 1)
  t.equal(defaultMinerThreads(1), 1, 'never zero')
})

t.test('run --help: the miner flags, and devnet\'s p2p port', async (t) => {
  const log = t.capture(console, 'log')
  await run(['run', '--help'])
  const help = log().map((c) => c.args.join(' ')).join('\n')
  for (const flag of ['--mine-threads', '--mine-duty', '--miner-wallet', '--miner-sync-wait']) t.match(help, flag)
  t.match(help, /28333 devnet/)
})

t.test('README\'s command table names every command, and only real ones', async (t) => {
  const { PROJECT_ROOT } = await import('../../core/kernel/cli.ts')
  const log = t.capture(console, 'log')
  await buildCli(['--help'], await commandLine(['--help'])).exitProcess(false).parseAsync()
  const help = log().map((c) => c.args.join(' ')).join('\n')
  const commands = new Set([...help.matchAll(/^ {2}ledger ([a-z-]+)/gm)].map((m) => m[1]))
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8')
  const table = new Set([...readme.matchAll(/^\| `npx ledger ([a-z][a-z-]*)/gm)].map((m) => m[1]))
  t.ok(commands.has('verify') && commands.has('status') && commands.has('peers'), 'the CLI has verify, status, peers')
  t.same([...commands].filter((c) => !table.has(c)), [], 'every command is in README\'s table')
  t.same([...table].filter((c) => !commands.has(c)), [], 'every command in the table exists')
})
