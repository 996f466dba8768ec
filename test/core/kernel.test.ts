import t from 'tap'
import path from 'node:path'
import { mkdirSync, writeFileSync } from 'node:fs'
import { startTestNode } from '../helpers/node.ts'
import { mineBlock, tmpDir, cleanup, silentLogger, testParams } from '../helpers/chain.ts'
import { resolveConfig, ConfigError } from '../../core/kernel/config.ts'
import { Kernel } from '../../core/kernel/kernel.ts'
import { PluginLoadError } from '../../core/kernel/loader.ts'

t.test('third-party plugin loaded by path subscribes to hooks and adds a service', async (t) => {
  const node = await startTestNode({ plugins: ['storage', 'consensus', { path: path.join(import.meta.dirname, 'fixtures', 'block-counter') }], config: { 'block-counter': { logEvery: 1 } } })
  t.teardown(() => node.stop())
  const chain = node.resolve('chain')
  const tip = chain.tip()
  await chain.processBlock(mineBlock(testParams(), { hash: tip.hash, height: tip.height, timestamp: tip.timestamp }), 'test')
  const counter = node.resolve('blockCounter')
  t.equal(counter.blocks, 1)
  t.equal(counter.lastHeight, 1)
  t.equal(counter.transactions, 1, 'the coinbase')
})

async function bootError (plugins: Parameters<typeof startTestNode>[0]['plugins'], config = {}): Promise<Error> {
  try {
    const node = await startTestNode({ plugins, config })
    await node.stop()
  } catch (err) { return err as Error }
  throw new Error('boot did not fail')
}

t.test('plugin loader errors name the plugin and the problem', async (t) => {
  let err = await bootError(['consensus'])
  t.type(err, PluginLoadError)
  t.match(err.message, "plugin 'consensus' needs service 'chainDb', which no enabled plugin provides")
  err = await bootError([{ name: 'storage', enabled: false }, 'consensus'])
  t.match(err.message, "plugin 'consensus' needs service 'chainDb', provided by plugin 'storage', which is disabled")
  err = await bootError(['no-such-plugin'])
  t.match(err.message, "plugin 'no-such-plugin' not found")
  err = await bootError(['storage', 'storage'])
  t.match(err.message, "plugin 'storage' is listed twice")
  err = await bootError(['Bad Name'])
  t.match(err.message, "invalid plugin name 'Bad Name'")

  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  // a third-party plugin lives in an ES module package; say so rather than rely on syntax detection
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n')
  const mk = (name: string, body: string): string => {
    mkdirSync(path.join(dir, name), { recursive: true })
    writeFileSync(path.join(dir, name, 'manifest.ts'), body)
    return path.join(dir, name)
  }
  err = await bootError([{ path: mk('noexport', 'export const x = 1\n') }])
  t.match(err.message, 'has no default-exported manifest')
  err = await bootError([{ path: mk('liar', "export default { name: 'liar', description: '', apiVersion: '1.0', provides: ['miner'], needs: [], register () {} }\n") }])
  t.match(err.message, "plugin 'liar' declared service 'miner' but did not provide it")
  err = await bootError([{ path: mk('broken', 'export default {{{\n') }])
  t.match(err.message, "plugin '")
  t.match(err.message, 'failed to load')
  err = await bootError([
    { path: mk('a', "export default { name: 'a', description: '', apiVersion: '1.0', provides: ['peers'], needs: ['miner'], register (c) { c.provide('peers', {}) } }\n") },
    { path: mk('b', "export default { name: 'b', description: '', apiVersion: '1.0', provides: ['miner'], needs: ['peers'], register (c) { c.provide('miner', {}) } }\n") }
  ])
  t.match(err.message, 'plugin dependency cycle')
  err = await bootError([{ path: mk('sneaky', "export default { name: 'sneaky', description: '', apiVersion: '1.0', provides: [], needs: [], register (c) { c.resolve('chain') } }\n") }])
  t.match(err.message, "plugin 'sneaky' resolves 'chain' without declaring it in manifest.needs")
})

t.test('config errors name the bad key', async (t) => {
  const bad = (cfg: Record<string, unknown>): string => {
    try { resolveConfig({ plugins: [], ...cfg }); return 'no error' } catch (err) { t.type(err, ConfigError); return (err as Error).message }
  }
  t.equal(bad({ network: 'moon' }), 'invalid config: "network" must be one of "testnet", "mainnet", "devnet"')
  t.equal(bad({ cores: { sha3: 'gpu' } }), 'invalid config: "cores.sha3" must be one of "wasm", "js"')
  t.equal(bad({ cores: { turbo: true } }), 'invalid config: unknown key "cores.turbo"')
  t.equal(bad({ logLevel: 3 }), 'invalid config: "logLevel" must be string')
  t.match(bad({ plugins: [{ enabled: true }] }), 'invalid config: "plugins.0"')

  const err = await bootError(['storage', 'consensus'], { consensus: { mempoolCapacity: -1 } })
  t.type(err, ConfigError)
  t.equal(err.message, 'invalid config: "consensus.mempoolCapacity" must be >= 1')
  const err2 = await bootError(['storage', 'consensus'], { consensus: { colour: 'red' } })
  t.equal(err2.message, 'invalid config: unknown key "consensus.colour"')
  const err3 = await bootError(['storage', 'consensus'], { storage: { colour: 'red' } })
  t.equal(err3.message, 'invalid config: unknown key "storage.colour"', 'a plugin without a schema takes no keys')
})

t.test('plugins start in dependency order and close in reverse', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  // a third-party plugin lives in an ES module package; say so rather than rely on syntax detection
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n')
  const events: string[] = []
  const g = globalThis as unknown as { __events: string[] }
  g.__events = events
  const mk = (name: string, provides: string[], needs: string[]): string => {
    mkdirSync(path.join(dir, name), { recursive: true })
    writeFileSync(path.join(dir, name, 'manifest.ts'), `export default { name: '${name}', description: '', apiVersion: '1.0', provides: ${JSON.stringify(provides)}, needs: ${JSON.stringify(needs)},
      register (c) { globalThis.__events.push('register:${name}'); for (const p of ${JSON.stringify(provides)}) c.provide(p, {});
        c.onStart(() => { globalThis.__events.push('start:${name}') }); c.onClose(() => { globalThis.__events.push('close:${name}') }) } }\n`)
    return path.join(dir, name)
  }
  // listed consumer-first: the loader must still register the provider first
  const config = resolveConfig({ network: 'devnet', logLevel: 'silent', dataDir: path.join(dir, 'data'), plugins: [{ path: mk('consumer', [], ['miner']) }, { path: mk('provider', ['miner'], []) }] })
  const kernel = new Kernel(config, silentLogger, testParams())
  await kernel.boot()
  await kernel.start()
  t.equal(kernel.status, 'running')
  await kernel.stop()
  await kernel.stop()
  t.equal(kernel.status, 'stopped')
  t.same(events, ['register:provider', 'register:consumer', 'start:provider', 'start:consumer', 'close:consumer', 'close:provider'])
})

t.test('a port already in use fails the start naming the plugin and the address', async (t) => {
  const net = await import('node:net')
  const holder = net.createServer()
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => holder.close(() => resolve())))
  const port = (holder.address() as import('node:net').AddressInfo).port
  const err = await bootError(['storage', 'consensus', 'http', 'explorer'], { http: { port } })
  t.match(err.message, `plugin 'http' cannot listen on 127.0.0.1:${port}: address already in use`)
})

t.test('every port clash names its exact flag, p2p included (issue 14 item 11)', async (t) => {
  const net = await import('node:net')
  const holder = net.createServer()
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => holder.close(() => resolve())))
  const port = (holder.address() as import('node:net').AddressInfo).port
  const http = await bootError(['storage', 'consensus', 'http', 'explorer'], { http: { port } })
  t.type(http, ConfigError, 'a user mistake: one line, exit 2, no stack')
  t.match(http.message, 'pick another port with --port)')
  const dashboard = await bootError(['storage', 'consensus', 'http', 'dashboard'], { dashboard: { port } })
  t.match(dashboard.message, `plugin 'dashboard' cannot listen on 127.0.0.1:${port}: address already in use (another node or program holds it; pick another port with --dashboard-port)`)
  const entropy = await bootError(['http', 'entropy-aggregator'], { 'entropy-aggregator': { port, sources: ['beacon-devnet'], minQuorum: 1 } })
  t.match(entropy.message, 'pick another port with --entropy-port)')
  const p2p = await bootError(['storage', 'consensus', 'p2p'], { p2p: { host: '127.0.0.1', port } })
  t.equal(p2p.message, `plugin 'p2p' cannot listen on 127.0.0.1:${port}: address already in use (another node or program holds it; pick another port with --p2p-port)`)
  t.notMatch(p2p.message, /faultTolerance/)
})

t.test('a data dir that is a file, or runs through one, is explained (issue 14 item 12)', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'not-a-dir')
  writeFileSync(file, 'x')
  const { ensureDataDir } = await import('../../core/kernel/kernel.ts')
  t.throws(() => ensureDataDir(file), new ConfigError(`data dir ${file} is a file, not a directory: pass --data-dir (or dataDir in ledger.config.ts) naming a directory; it is created if missing`))
  t.throws(() => ensureDataDir(path.join(file, 'sub')), { message: /cannot be created: part of that path is a file, not a directory/ })
  ensureDataDir(path.join(dir, 'a', 'b'))
  t.pass('a missing directory is created')
  const config = resolveConfig({ network: 'devnet', logLevel: 'silent', dataDir: file, plugins: ['storage'] })
  await t.rejects(new Kernel(config, silentLogger, testParams()).boot(), { message: /is a file, not a directory/ })
})

t.test('top-level typos are errors, with a suggestion (issue 14 item 2)', async (t) => {
  const netwrok = await bootError(['storage'], { netwrok: 'devnet' })
  t.type(netwrok, ConfigError)
  t.match(netwrok.message, 'invalid config: unknown key "netwrok" (did you mean "network"?)')
  const dashbord = await bootError(['storage'], { dashbord: { port: 9999 } })
  t.match(dashbord.message, 'unknown key "dashbord" (did you mean "dashboard"?)')
  const far = await bootError(['storage'], { zzzzzzzz: 1 })
  t.match(far.message, /^invalid config: unknown key "zzzzzzzz": top-level keys are network, dataDir, logLevel, .*plugins, cores and plugin sections/)
  // a built-in plugin's section is fine even when that plugin is not listed (flags fill it)
  const node = await startTestNode({ plugins: ['storage'], config: { miner: { enabled: false } } })
  await node.stop()
  t.pass('a known plugin section passes')
})

t.test('a syntax error in the config file names its line and column (issue 14 item 2)', async (t) => {
  const { loadConfigFile } = await import('../../core/kernel/config.ts')
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const file = path.join(dir, 'ledger.config.ts')
  writeFileSync(file, "export default {\n  network: 'devnet',\n  plugins: ['storage' 'consensus'],\n}\n")
  const err = await loadConfigFile(file).catch((e: unknown) => e as Error)
  t.type(err, ConfigError)
  t.match((err as Error).message, `syntax error in config file ${file}:3:23 (line 3, column 23): `)
  // another file: a TypeScript loader a test runner registers may cache a module by its path
  const second = path.join(dir, 'other.config.ts')
  writeFileSync(second, "export default {\n  network: 'devnet'\n  plugins: [],\n}\n")
  t.match(((await loadConfigFile(second).catch((e: unknown) => e)) as Error).message, `${second}:3:3 (line 3, column 3)`)
})
