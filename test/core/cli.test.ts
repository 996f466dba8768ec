// The command line as a user types it, parsed in-process (buildCli): keygen refuses to invent
// directories (issue 14 item 13) and run takes --p2p-host (item 11).
import t from 'tap'
import path from 'node:path'
import { existsSync, statSync, writeFileSync } from 'node:fs'
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
  await t.rejects(run([]), new UsageError(`name a command: run, ${['bench', 'testbed', 'verify', 'keygen', 'wallet', 'tx', 'entropy', 'resync'].join(', ')}`))
  t.ok(line.commands.length >= 7)
})
