// apiVersion (issue 29): a manifest names the plugin API it is written for; the node loads it
// on that version or a later minor of the same major, and refuses otherwise naming both
// versions. A package's peerDependencies range for ledger-node is checked too.
import t from 'tap'
import path from 'node:path'
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadPlugins, PluginLoadError } from '../../../core/kernel/loader.ts'
import { apiVersionRefusal, nodePackageVersion, peerRangeRefusal, PLUGIN_API_VERSION } from '../../../core/kernel/plugin-api.ts'
import { cleanup, tmpDir } from '../../helpers/chain.ts'

t.test('the rule: same major, a minor no newer than the node\'s', async (t) => {
  t.equal(apiVersionRefusal('p', '1.0', '1.0.0'), undefined)
  t.equal(apiVersionRefusal('p', '1.0', '1.4.2'), undefined, 'a later minor keeps older plugins')
  t.equal(apiVersionRefusal('p', '1.3.1', '1.4.0'), undefined)
  t.equal(apiVersionRefusal('p', '1.5', '1.4.0'), "plugin 'p' is written for plugin API 1.5, but this node provides plugin API 1.4.0: upgrade ledger-node to a version that provides it")
  t.equal(apiVersionRefusal('p', '2', '1.4.0'), "plugin 'p' is written for plugin API 2, but this node provides plugin API 1.4.0: upgrade ledger-node to a version that provides it")
  t.equal(apiVersionRefusal('p', '1.0', '2.0.0'), "plugin 'p' is written for plugin API 1.0, but this node provides plugin API 2.0.0: the plugin needs a release written for plugin API 2.x")
  t.match(apiVersionRefusal('p', undefined, '1.0.0'), /^plugin 'p': manifest.apiVersion must be .* e\.g\. '1\.0' \(this node provides plugin API 1\.0\.0\); got undefined$/)
  t.match(apiVersionRefusal('p', '^1.0', '1.0.0'), /must be the plugin API version/, 'a version, not a range')
  t.equal(apiVersionRefusal('p', PLUGIN_API_VERSION), undefined, 'the node\'s own version loads')
})

t.test('peer ranges', async (t) => {
  t.equal(peerRangeRefusal('x', '^0.1.0', '0.1.3'), undefined)
  t.equal(peerRangeRefusal('x', '>=2', '0.1.0'), "plugin package 'x' requires ledger-node >=2 (its peerDependencies), but this node is ledger-node 0.1.0")
  t.match(peerRangeRefusal('x', 'not a range', '0.1.0'), /invalid peerDependencies range/)
})

t.test('loading refuses a plugin for another API, and a package whose peer range excludes this node', async (t) => {
  const dir = tmpDir('ledger-api-')
  t.teardown(() => cleanup(dir))
  const manifest = (name: string, api: string | null): string =>
    `export default { name: '${name}', description: '', ${api === null ? '' : `apiVersion: '${api}', `}provides: [], needs: [], register () {} }\n`
  writeFileSync(path.join(dir, 'future.js'), manifest('future', '9.0'))
  writeFileSync(path.join(dir, 'unversioned.js'), manifest('unversioned', null))
  writeFileSync(path.join(dir, 'current.js'), manifest('current', '1.0'))

  await t.rejects(loadPlugins([{ path: './future.js' }], dir), new PluginLoadError(`plugin 'future' is written for plugin API 9.0, but this node provides plugin API ${PLUGIN_API_VERSION}: upgrade ledger-node to a version that provides it`))
  await t.rejects(loadPlugins([{ path: './unversioned.js' }], dir), { message: /^plugin 'unversioned': manifest.apiVersion must be/ })
  t.equal((await loadPlugins([{ path: './current.js' }], dir))[0]?.manifest.name, 'current')

  const pkg = (name: string, peer: string): void => {
    const at = path.join(dir, 'node_modules', name)
    mkdirSync(at, { recursive: true })
    writeFileSync(path.join(at, 'package.json'), JSON.stringify({ name, type: 'module', exports: './m.js', peerDependencies: { 'ledger-node': peer } }))
    writeFileSync(path.join(at, 'm.js'), manifest(name, '1.0'))
  }
  pkg('ledger-plugin-old', '>=99.0.0')
  pkg('ledger-plugin-fits', `^${nodePackageVersion()}`)
  await t.rejects(loadPlugins([{ package: 'ledger-plugin-old' }], dir), new PluginLoadError(`plugin package 'ledger-plugin-old' requires ledger-node >=99.0.0 (its peerDependencies), but this node is ledger-node ${nodePackageVersion()}`))
  t.equal((await loadPlugins([{ package: 'ledger-plugin-fits' }], dir))[0]?.manifest.name, 'ledger-plugin-fits')
})
