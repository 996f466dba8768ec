// A plugin outside the repository contributes to the command line as a built-in does
// (issue 29): its manifest's `commands` show in `ledger --help` and run, its `flags` are
// `ledger run` options that set its section. Found through the profile (--config).
import t from 'tap'
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { buildCli, commandLine, flagOverrides } from '../../../core/kernel/cli.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'

function profile (dir: string): string {
  writeFileSync(path.join(dir, 'manifest.ts'), `
export default {
  name: 'greeter',
  description: 'says hello',
  apiVersion: '1.0',
  provides: [],
  needs: [],
  commands: [{ command: 'greet', describe: 'print a greeting', builder: (y) => y.option('to', { type: 'string', default: 'world' }), handler: (a) => { console.log('hello ' + a.to) } }],
  flags: [{ name: 'greeting-port', key: 'port', port: true, option: { type: 'number', describe: 'greeter port' } }],
  register () {}
}
`)
  const config = path.join(dir, 'ledger.config.ts')
  writeFileSync(config, "export default { plugins: ['storage', { path: './manifest.ts' }] }\n")
  return config
}

t.test('--help lists a path plugin\'s command; the command runs; its flag sets its section', async (t) => {
  const dir = tmpDir('ledger-cli-profile-')
  t.teardown(() => cleanup(dir))
  const config = profile(dir)

  const help = await commandLine(['--help', '--config', config])
  t.ok(help.commands.some((c) => c.command === 'greet'), 'the command is listed')
  const text = await buildCli(['--help', '--config', config], help).exitProcess(false).getHelp()
  t.match(text, /ledger greet\s+print a greeting/)
  t.match(text, /ledger resync/, 'beside the built-ins\' commands')

  // a command finds the profile as `ledger run` does without --config: ./ledger.config.ts
  const cwd = process.cwd()
  process.chdir(dir)
  t.teardown(() => process.chdir(cwd))
  const argv = ['greet', '--to', 'tests']
  const log = t.capture(console, 'log')
  await buildCli(argv, await commandLine(argv)).exitProcess(false).parseAsync()
  t.same(log().map((c) => c.args.join(' ')), ['hello tests'])

  const run = await commandLine(['run', '--config', config])
  t.same(flagOverrides({ 'greeting-port': 4242 }, run.flags), { greeter: { port: 4242 } })
  t.throws(() => flagOverrides({ 'greeting-port': -1 }, run.flags), { message: '--greeting-port must be a port number 0-65535' })
})

t.test('a command of a tool or built-in does not load the profile; a broken profile breaks no command', async (t) => {
  const dir = tmpDir('ledger-cli-profile-')
  t.teardown(() => cleanup(dir))
  const config = profile(dir)
  t.notOk((await commandLine(['keygen', '--config', config])).commands.some((c) => c.command === 'greet'))
  writeFileSync(config, 'export default { plugins: [\n')
  const line = await commandLine(['--help', '--config', config])
  t.ok(line.commands.some((c) => c.command === 'keygen'), 'the tools\' commands are still there')
})
