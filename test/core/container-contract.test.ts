// The container contract a plugin is held to (issue 16 item 2): it resolves only what its
// manifest declares (tryResolve too), the kernel itself is no service (a plugin reads the
// narrow `node` service), services that own resources are singletons built on first resolve
// and disposed of when the node stops, and the public server opens only when a plugin serves.
import t from 'tap'
import path from 'node:path'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { mkdirSync, writeFileSync } from 'node:fs'
import { startTestNode } from '../helpers/node.ts'
import { tmpDir, cleanup } from '../helpers/chain.ts'
import { PluginLoadError } from '../../core/kernel/loader.ts'

/** writes a plugin folder whose manifest is `source`, returns its path entry */
function plugin (dir: string, name: string, source: string): { path: string } {
  mkdirSync(path.join(dir, name), { recursive: true })
  writeFileSync(path.join(dir, name, 'manifest.ts'), source)
  return { path: path.join(dir, name) }
}

async function bootError (plugins: Parameters<typeof startTestNode>[0]['plugins']): Promise<Error> {
  try {
    const node = await startTestNode({ plugins })
    await node.stop()
  } catch (err) { return err as Error }
  throw new Error('boot did not fail')
}

t.test('tryResolve of a service the manifest does not declare fails loudly, as resolve does', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const peek = plugin(dir, 'peek', "export default { name: 'peek', description: '', apiVersion: '1.0', provides: [], needs: [], register (c) { c.tryResolve('chain') } }\n")
  const err = await bootError(['storage', 'consensus', peek])
  t.type(err, PluginLoadError)
  t.equal(err.message, "plugin 'peek' tries to resolve 'chain' without declaring it in manifest.needs or manifest.optional")

  // declared optional: allowed, and undefined when no plugin provides it
  const seen: unknown[] = []
  ;(globalThis as { __seen?: unknown[] }).__seen = seen
  const polite = plugin(dir, 'polite', "export default { name: 'polite', description: '', apiVersion: '1.0', provides: [], needs: [], optional: ['miner'], register (c) { globalThis.__seen.push(c.tryResolve('miner')) } }\n")
  const node = await startTestNode({ plugins: [polite] })
  await node.stop()
  t.same(seen, [undefined])
})

t.test('no plugin gets the kernel: it is no service, declared or not', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const grab = plugin(dir, 'grab', "export default { name: 'grab', description: '', apiVersion: '1.0', provides: [], needs: [], register (c) { c.resolve('kernel') } }\n")
  t.match((await bootError([grab])).message, "plugin 'grab' resolves 'kernel' without declaring it")
  const declared = plugin(dir, 'declared', "export default { name: 'declared', description: '', apiVersion: '1.0', provides: [], needs: ['kernel'], register () {} }\n")
  t.equal((await bootError([declared])).message, "plugin 'declared' needs service 'kernel', which no enabled plugin provides")
})

t.test('the node service tells a plugin the run state, start time, data dir and plugins, live', async (t) => {
  const node = await startTestNode({ plugins: ['storage', 'consensus'], start: false })
  t.teardown(() => node.stop())
  const info = node.resolve('node')
  t.equal(info.status(), 'created')
  await node.kernel.start()
  t.equal(info.status(), 'running')
  t.equal(info.dataDir, node.dataDir)
  t.equal(info.startedAt, node.kernel.startedAt)
  t.same(info.plugins(), ['storage', 'consensus'])
  await node.stop()
  t.equal(info.status(), 'stopped')
})

t.test('a factory service is one singleton built on first resolve and disposed of on stop, after every onClose', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const events: string[] = []
  ;(globalThis as { __events?: string[] }).__events = events
  const counter = plugin(dir, 'counter', `
    let built = 0
    export default { name: 'counter', description: '', apiVersion: '1.0', provides: ['miner', 'peers'], needs: [],
      register (c) {
        c.provideFactory('miner', () => { built++; globalThis.__events.push('build:miner:' + built); return { status: () => ({ built }) } }, { dispose: async () => { globalThis.__events.push('dispose:miner') } })
        // never resolved: never built, never disposed
        c.provideFactory('peers', () => { globalThis.__events.push('build:peers'); return { peers: () => [], syncState: () => 'idle' } }, { dispose: () => { globalThis.__events.push('dispose:peers') } })
        c.onClose(() => { globalThis.__events.push('close:counter') })
      } }\n`)
  const node = await startTestNode({ plugins: [counter] })
  t.same(events, [], 'nothing is built before someone asks')
  const first = node.resolve('miner')
  t.equal(node.resolve('miner'), first, 'the same instance every time')
  t.same(events, ['build:miner:1'])
  await node.stop()
  t.same(events, ['build:miner:1', 'close:counter', 'dispose:miner'])
})

t.test('a plugin cannot register a factory for a service it does not provide', async (t) => {
  const dir = tmpDir()
  t.teardown(() => cleanup(dir))
  const liar = plugin(dir, 'liar', "export default { name: 'liar', description: '', apiVersion: '1.0', provides: [], needs: [], register (c) { c.provideFactory('miner', () => ({})) } }\n")
  t.equal((await bootError([liar])).message, "plugin 'liar' provides 'miner' without declaring it in manifest.provides")
})

t.test('the public server listens only when a plugin serves on it, and closes with the node', async (t) => {
  const holder = net.createServer()
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => holder.close(() => resolve())))
  const taken = (holder.address() as AddressInfo).port
  // nothing resolves publicHttp: the taken port is never tried, the node starts
  const quiet = await startTestNode({ plugins: ['http'], config: { http: { port: taken } } })
  t.equal(quiet.kernel.status, 'running')
  await quiet.stop()

  const node = await startTestNode({ plugins: ['storage', 'consensus', 'http', 'explorer'] })
  const app = node.resolve('publicHttp')
  t.ok(app.server.listening, 'the explorer serves on it: listening')
  await node.stop()
  t.notOk(app.server.listening, 'disposed of when the node stopped')
})
